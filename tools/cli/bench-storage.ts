/**
 * `npm run bench:storage [-- --keep]` — what an imported capture costs to store and build (issue 49:
 * a conversation is stored as what each request adds). In a temporary copy of the project (the
 * committed files, this checkout's node_modules linked; never this checkout's scenarios/), it writes
 * the generated 400-request conversation and day of traffic (tools/traffic/generate-log.ts) and a
 * ≈ 2.2 MB Codex rollout in the shape Codex 0.104+ writes (tools/traffic/generate-rollout.ts),
 * imports them — the rollout to a file outside scenarios/, so the fixtures and build below measure
 * the two logs as before — and reports the inputs' and scenarios' sizes, then runs `npm run fixtures`
 * and `npm run build`. Each command runs under `/usr/bin/time -v`: its wall time, CPU time (user +
 * system: less noisy than wall on a shared machine) and peak resident memory are reported, with the
 * playground corpus and the long conversation's fixture and page data sizes. Linux (GNU time) only.
 * Prints numbers, asserts none; takes minutes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMain, UsageError } from '../../src/cli/config.ts';
import { ROLLOUT_2MB, rolloutLines } from '../traffic/generate-rollout.ts';

const MB = (n: number): string => `${(n / 1e6).toFixed(2)} MB`;
const size = (p: string): number => (existsSync(p) ? statSync(p).size : 0);
const dirSize = (p: string): number =>
  existsSync(p) ? readdirSync(p, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? dirSize(join(p, e.name)) : size(join(p, e.name))), 0) : 0;

/** Runs `npm run <args>` in `cwd` under GNU time: wall and CPU (user + system) seconds, peak RSS (bytes), exit code, the output's summary line. */
function timed(cwd: string, args: string[]): { seconds: number; cpu: number; rss: number; code: number; last: string } {
  const r = spawnSync('/usr/bin/time', ['-v', 'npm', 'run', ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const err = r.stderr ?? '';
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? 0) * 1024;
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(err)?.[1] ?? '0';
  const seconds = wall.split(':').reduce((s, part) => s * 60 + Number(part), 0);
  const cpu = Number(/User time \(seconds\): ([\d.]+)/.exec(err)?.[1] ?? 0) + Number(/System time \(seconds\): ([\d.]+)/.exec(err)?.[1] ?? 0);
  const out = `${r.stdout ?? ''}`.trim().split('\n');
  // An import's summary is its `wrote …` line (a note may follow it); any other command's its last line.
  const last = out.find((l) => l.startsWith('wrote ')) ?? out.at(-1) ?? '';
  return { seconds, cpu, rss, code: r.status ?? 1, last };
}

runMain(async () => {
  const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } }, strict: true });
  if (!existsSync('/usr/bin/time')) throw new UsageError('bench:storage measures peak memory with GNU time at /usr/bin/time', { fix: 'apt-get install -y time' });
  const root = process.cwd();
  const tmp = mkdtempSync(join(tmpdir(), 'pfe-storage-'));
  const proj = join(tmp, 'project');
  for (const f of execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)) {
    if (!existsSync(join(root, f))) continue;
    mkdirSync(dirname(join(proj, f)), { recursive: true });
    copyFileSync(join(root, f), join(proj, f));
  }
  symlinkSync(join(root, 'node_modules'), join(proj, 'node_modules'));
  console.log(`project copied to ${proj}`);
  const logs = { long: join(tmp, 'long.jsonl'), day: join(tmp, 'day.jsonl') };
  for (const [preset, out] of Object.entries(logs)) execFileSync('npm', ['run', '--silent', 'traffic:generate', '--', preset, out], { cwd: proj, stdio: 'inherit' });
  const rollout = { log: join(tmp, 'rollout.jsonl'), scenario: join(tmp, 'rollout.yaml') };
  writeFileSync(rollout.log, `${rolloutLines(ROLLOUT_2MB).join('\n')}\n`);
  const before = new Set(readdirSync(join(proj, 'scenarios')));
  const imRollout = timed(proj, ['import', '--', rollout.log, '--out', rollout.scenario]);
  const imLong = timed(proj, ['import', '--', logs.long, '--id', 'long']);
  const imDay = timed(proj, ['import', '--', logs.day, '--out-dir', 'scenarios', '--id', 'day']);
  const added = readdirSync(join(proj, 'scenarios')).filter((f) => !before.has(f) && f.endsWith('.yaml'));
  const daySize = added.filter((f) => f.startsWith('day-')).reduce((n, f) => n + size(join(proj, 'scenarios', f)), 0);
  const longSize = size(join(proj, 'scenarios/long.yaml'));
  console.log('\nimport');
  console.log(
    `  long: log ${MB(size(logs.long))} → scenario ${MB(longSize)} (${(longSize / size(logs.long)).toFixed(3)}× the log; budget 1.5×), ${imLong.seconds.toFixed(1)} s wall, ${imLong.cpu.toFixed(1)} s CPU, peak ${MB(imLong.rss)}`,
  );
  console.log(
    `  day:  log ${MB(size(logs.day))} → ${added.length - 1} scenarios ${MB(daySize)} (${(daySize / size(logs.day)).toFixed(3)}× the log), ${imDay.seconds.toFixed(1)} s wall, ${imDay.cpu.toFixed(1)} s CPU, peak ${MB(imDay.rss)}`,
  );
  console.log(
    `  Codex rollout (0.104+ shape, generated): ${MB(size(rollout.log))} → scenario ${MB(size(rollout.scenario))}, exit ${imRollout.code}, ${imRollout.seconds.toFixed(1)} s wall, ${imRollout.cpu.toFixed(1)} s CPU, peak ${MB(imRollout.rss)} (budget 10 s) — ${imRollout.last}`,
  );
  const fx = timed(proj, ['fixtures']);
  console.log(`\nnpm run fixtures: exit ${fx.code}, ${fx.seconds.toFixed(1)} s wall, ${fx.cpu.toFixed(1)} s CPU, peak ${MB(fx.rss)} (budget 1.5 GB) — ${fx.last}`);
  console.log(`  fixtures/long.md ${MB(size(join(proj, 'fixtures/long.md')))}, fixtures/ ${MB(dirSize(join(proj, 'fixtures')))}`);
  const bd = timed(proj, ['build']);
  console.log(`npm run build: exit ${bd.code}, ${bd.seconds.toFixed(1)} s wall, ${bd.cpu.toFixed(1)} s CPU, peak ${MB(bd.rss)} (budget 3 GB)`);
  const dist = join(proj, 'dist');
  console.log(
    `  playground/corpus.json ${MB(size(join(dist, 'playground/corpus.json')))}, fetched on opening: ${readdirSync(join(dist, 'playground/scenarios'), { withFileTypes: true }).length} file(s) ${MB(dirSize(join(dist, 'playground/scenarios')))}`,
  );
  console.log(
    `  scenarios/long/: index.html ${MB(size(join(dist, 'scenarios/long/index.html')))}, page data ${MB(dirSize(join(dist, 'scenarios/long')))} in all; dist/ ${MB(dirSize(dist))}`,
  );
  if (values.keep) console.log(`\nkept: ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
  return imRollout.code || fx.code || bd.code;
});
