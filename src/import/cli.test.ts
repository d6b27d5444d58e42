// `npm run import` as a person runs it: writes the scenario and reports the dropped secrets; a bad
// trace is exit 1 with file:line:col and the fix, no stack, nothing written; it never replaces a
// scenario it did not write nor reuses another's id; and the bundled example re-imports byte for byte.
// With --out-dir, a log becomes one scenario per conversation plus its manifest, all or nothing.
// The command itself (src/cli/prompt-fold.ts → import, a child process: its arguments, folder,
// output streams and exit code) runs in the first two tests, a success and a failure; the other
// cases call what it runs — importCommand (src/cli/import-command.ts) under runMain's rules
// (mainOutcome: the exit code, and the error's message without a stack) — in this process, in this
// repository's folder: the same exit codes and output, without a Node start and the config's and
// the integration's load per case.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../tests/support/run-async.ts';
import { mainOutcome } from '../cli/config.ts';
import { importCommand } from '../cli/import-command.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'import-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command, `prompt-fold import <args>` in this repository, as a child process. */
const cli = (args: string[]) => runAsync(process.execPath, ['src/cli/prompt-fold.ts', 'import', ...args], { cwd: ROOT });

/** What the command runs (src/cli/import.ts), in this process: the same exit code, stdout and stderr as cli()'s. */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  const { code, error } = await mainOutcome(() => importCommand(args, { cwd: ROOT, out: (line) => (stdout += `${line}\n`) }));
  return { code, stdout, stderr: error === undefined ? '' : `${error}\n` };
}

// A child run loads astro.config.mjs and the integration, seconds on a busy machine: generous timeouts.
describe('npm run import', { timeout: 180_000 }, () => {
  it('the bundled example trace imports to exactly the committed scenario (deterministic, annotations kept)', async () => {
    // The committed scenario under another id (its own id is taken — by itself), imported over.
    const committed = readFileSync(join(ROOT, 'scenarios/30-imported-trace.yaml'), 'utf8');
    const copy = committed.replace(/^id: imported-trace$/m, 'id: imported-copy');
    const out = join(dir, 'example.yaml');
    writeFileSync(out, copy);
    const r = await cli(['examples/traces/agent-session.anthropic.jsonl', '--id', 'imported-copy', '--out', out]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(out, 'utf8')).toBe(copy);
    expect(r.stdout).toContain('examples/traces/agent-session.anthropic.jsonl:1:');
    expect(r.stdout).toContain('dropped a credential header: header x-api-key');
    expect(r.stdout).toMatch(/dropped an API key \(sk-…\): messages\.4\.content\.0\.content/);
    expect(r.stdout).not.toMatch(/sk-ant-api03|sk-proj-FAKE/);
    expect(readFileSync(out, 'utf8')).not.toMatch(/sk-ant-api03|sk-proj-FAKE|x-api-key/);
  });

  it('a bad trace: exit 1, file:line:col error and fix, no stack, nothing written', async () => {
    const trace = join(dir, 'bad.jsonl');
    writeFileSync(
      trace,
      '{"model": "gpt-5", "messages": [{"role": "developer", "content": "D"}, {"role": "user", "content": "q"}]}\n{"model": "claude", "system": "S", "max_tokens": 1, "messages": [{"role": "user", "content": "q"}]}\n',
    );
    const out = join(dir, 'bad.yaml');
    const r = await cli([trace, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.jsonl:2:1 error: this line is an Anthropic Messages request body, but line 1 is an OpenAI Chat Completions one — mixed providers\n {2}fix: /);
    expect(r.stderr).toContain('nothing was written');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses to replace a scenario it did not write, and rejects bad arguments', async () => {
    const out = join(dir, 'hand.yaml');
    writeFileSync(out, 'id: hand\n');
    const r = await inProcess(['examples/traces/agent-session.anthropic.jsonl', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/exists and was not written by an import\n {2}fix: choose another --id or --out, or pass --force/);
    expect(readFileSync(out, 'utf8')).toBe('id: hand\n');
    // (gemini is a format since the Gemini adapter: an unknown name is one no adapter or capture has.)
    expect((await inProcess(['x.jsonl', '--format', 'palm'])).stderr).toMatch(
      /unknown --format "palm"\n {2}fix: use one of openai-chat, openai-responses, anthropic, .*otlp, codex, claude-code/,
    );
    expect((await inProcess([])).stderr).toMatch(/no trace file given/);
    // --out into a folder that does not exist yet: made, and the scenario written (was an ENOENT stack trace).
    const deep = join(dir, 'not', 'yet', 'there.yaml');
    expect(await inProcess(['examples/traces/agent-session.anthropic.jsonl', '--id', 'deep-copy', '--out', deep])).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(deep, 'utf8')).toMatch(/^# Imported with `npm run import`/m);
    const help = await inProcess(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: .*import -- <trace file \| folder of \.jsonl captures> \[--format /);
    const clash = await inProcess(['examples/traces/agent-session.anthropic.jsonl', '--id', 'birth-window', '--out', join(dir, 'clash.yaml')]);
    expect(clash.stderr).toMatch(/scenarios\/01-birth-window\.yaml already has the id "birth-window"\n {2}fix: pass another --id/);
    expect(existsSync(join(dir, 'clash.yaml'))).toBe(false);
    // A folder named as --out, a file as --out-dir: said with the fix, never a stack trace (were EISDIR / ENOTDIR).
    mkdirSync(join(dir, 'a-folder'), { recursive: true });
    const toFolder = await inProcess(['examples/traces/agent-session.anthropic.jsonl', '--id', 'to-folder', '--out', join(dir, 'a-folder')]);
    expect(toFolder).toMatchObject({
      code: 1,
      stderr: `--out ${join(dir, 'a-folder')} is a folder\n  fix: give --out the path of a file, e.g. ${join(dir, 'a-folder', 'to-folder.yaml')}\n`,
    });
    const intoFile = await inProcess(['examples/traces/agent-session.anthropic.jsonl', '--out-dir', out]);
    expect(intoFile).toMatchObject({ code: 1, stderr: `--out-dir ${out} is a file\n  fix: give --out-dir a folder (made if missing), or --out ${out} for one scenario file\n` });
    expect(readFileSync(out, 'utf8')).toBe('id: hand\n');
  });

  it('--out-dir: a log of interleaved conversations → one scenario each and the manifest; re-import gives the same bytes; a bad log writes nothing', async () => {
    const log = join(dir, 'gateway.jsonl');
    const body = (key: string, n: number) => ({
      timestamp: `2026-12-01T10:0${n}:00.000Z`,
      headers: { authorization: 'Bearer sk-proj-FAKE-CLI-TEST-0000000000000000' },
      body: { model: 'gpt-5', prompt_cache_key: key, messages: [{ role: 'system', content: 'S' }, ...Array.from({ length: n }, (_, i) => ({ role: 'user', content: `q${i}` }))] },
      response: { usage: { prompt_tokens: 10 * n, prompt_tokens_details: { cached_tokens: 0 } } },
    });
    writeFileSync(log, `${[body('k-a', 1), body('k-b', 1), body('k-a', 2), body('k-b', 2), body('k-c', 1)].map((x) => JSON.stringify(x)).join('\n')}\n`);
    const out = join(dir, 'traffic');
    const r = await inProcess([log, '--out-dir', out, '--id', 'clitest']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(out).sort()).toEqual(['clitest-k-a.yaml', 'clitest-k-b.yaml', 'clitest-k-c.yaml', 'clitest.traffic.json']);
    expect(r.stdout).toMatch(
      /wrote 3 scenario\(s\) to .*: 5 openai-chat request\(s\), one scenario per conversation, grouped by prompt_cache_key \(3\); 5 with the provider's usage, 5 secret\(s\) dropped/,
    );
    expect(r.stdout).toMatch(/gateway\.jsonl:1:\d+ dropped a credential header: header authorization/);
    const manifest = JSON.parse(readFileSync(join(out, 'clitest.traffic.json'), 'utf8'));
    expect(manifest.conversations.map((c: { id: string; groupedBy: string; requests: number; lines: number[] }) => [c.id, c.groupedBy, c.requests, c.lines])).toEqual([
      ['clitest-k-a', 'prompt_cache_key', 2, [1, 3]],
      ['clitest-k-b', 'prompt_cache_key', 2, [2, 4]],
      ['clitest-k-c', 'prompt_cache_key', 1, [5, 5]],
    ]);
    const before = readFileSync(join(out, 'clitest-k-b.yaml'), 'utf8');
    expect(before).not.toMatch(/sk-proj-FAKE/);
    expect((await inProcess([log, '--out-dir', out, '--id', 'clitest'])).code).toBe(0);
    expect(readFileSync(join(out, 'clitest-k-b.yaml'), 'utf8')).toBe(before);

    const badOut = join(dir, 'bad-traffic');
    writeFileSync(log, `${JSON.stringify(body('k-a', 1))}\n${JSON.stringify({ ...body('k-b', 1), body: { model: 'gpt-5', prompt_cache_key: 'k-b', messages: [] } })}\n`);
    const bad = await inProcess([log, '--out-dir', badOut, '--id', 'clitest']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/gateway\.jsonl:2:\d+ error: OpenAI Chat Completions request: `messages` must not be empty\n {2}fix: /);
    expect(bad.stderr).toContain('nothing was written');
    expect(existsSync(badOut) ? readdirSync(badOut) : []).toEqual([]);

    mkdirSync(join(dir, 'hand'), { recursive: true });
    writeFileSync(join(dir, 'hand', 'clitest-k-a.yaml'), 'id: clitest-k-a\n');
    const refused = await inProcess([log, '--out-dir', join(dir, 'hand'), '--id', 'clitest']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/hand\/clitest-k-a\.yaml exists and was not written by an import\n {2}fix: choose another --id or --out-dir, or pass --force/);
    expect(readdirSync(join(dir, 'hand'))).toEqual(['clitest-k-a.yaml']);
    expect((await inProcess([log, '--out', 'x.yaml', '--out-dir', out])).stderr).toMatch(
      /--out names one scenario file, --out-dir a folder for one per conversation: give one of them/,
    );
  });

  it('a compressed trace (a rotated .jsonl.gz, a .zst) imports as its text does, under the id of its uncompressed name; one cut short writes nothing', async () => {
    const example = readFileSync(join(ROOT, 'examples/traces/agent-session.anthropic.jsonl'));
    const plain = join(dir, 'plain.yaml');
    expect((await inProcess(['examples/traces/agent-session.anthropic.jsonl', '--id', 'packed-session', '--out', plain])).code).toBe(0);
    for (const [name, bytes] of [
      ['session.jsonl.gz', gzipSync(example)],
      ['session.jsonl.zst', zstdCompressSync(example)],
    ] as const) {
      const trace = join(dir, name);
      writeFileSync(trace, bytes);
      const out = join(dir, `${name}.yaml`);
      const r = await inProcess([trace, '--out', out]);
      expect(r, name).toMatchObject({ code: 0, stderr: '' });
      // The same events as the text's, under the id of the name without .gz/.zst.
      const got = readFileSync(out, 'utf8');
      expect(got).toMatch(/^id: session$/m);
      expect(got).toMatch(/\nevents:\n {2}- off: 1\n/);
      const events = (yaml: string) => yaml.slice(yaml.indexOf('\nevents:'));
      expect(events(got)).toBe(events(readFileSync(plain, 'utf8')));
    }
    const gz = gzipSync(example);
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, gz.subarray(0, gz.length >> 1));
    const r = await inProcess([cut, '--out', join(dir, 'cut.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /cut\.jsonl\.gz:1:1 error: the file is gzip-compressed but does not decompress: unexpected end of file\n {2}fix: .*`gunzip -t cut\.jsonl\.gz` tests it/,
    );
    expect(existsSync(join(dir, 'cut.yaml'))).toBe(false);
  });

  it('a folder inside scenarios/ (which check and the site do not read) is refused with the fix; one outside it is written and said to be unread', async () => {
    const sub = await inProcess(['examples/traces/openinference-spans.jsonl', '--out-dir', 'scenarios/sub', '--id', 'oi']);
    expect(sub.code).toBe(1);
    expect(sub.stderr).toContain('--out-dir names a folder inside scenarios/ (scenarios/sub), which `check`, `fixtures` and the site do not read');
    expect(sub.stderr).toContain('fix: write to scenarios/ itself (--out-dir scenarios: the --id prefix keeps one import');
    expect(existsSync(join(ROOT, 'scenarios/sub'))).toBe(false);
    const one = await inProcess(['examples/traces/agent-session.anthropic.jsonl', '--out', 'scenarios/sub/x.yaml', '--id', 'x']);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('--out names a folder inside scenarios/ (scenarios/sub)');
    const out = join(dir, 'scratch');
    const r = await inProcess(['examples/traces/openinference-spans.jsonl', '--out-dir', out, '--id', 'scratch']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('note: this is outside scenarios/, so `check`, `fixtures` and the site do not read it');
  });

  it('--out-dir on a capture: OpenInference spans of two sessions → one scenario per session.id and the manifest', async () => {
    const out = join(dir, 'oi');
    const r = await inProcess(['examples/traces/openinference-spans.jsonl', '--out-dir', out, '--id', 'oi']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(out).sort()).toEqual(['oi-sess-billing-0142.yaml', 'oi-sess-billing-0143.yaml', 'oi.traffic.json']);
    expect(r.stdout).toMatch(
      /wrote 2 scenario\(s\) to .*: 3 otel-genai request\(s\), one scenario per conversation, grouped by session\.id \(2\); 2 with the provider's usage, 1 secret\(s\) dropped/,
    );
    expect(r.stdout).toMatch(/openinference-spans\.jsonl:4:1665 dropped an API key \(sk-…\): input_messages\.3\.parts\.0\.response/);
    const manifest = JSON.parse(readFileSync(join(out, 'oi.traffic.json'), 'utf8'));
    expect(manifest.conversations.map((c: { id: string; groupedBy: string; key: string; lines: number[] }) => [c.id, c.groupedBy, c.key, c.lines])).toEqual([
      ['oi-sess-billing-0142', 'session.id', 'sess-billing-0142', [2, 4]],
      ['oi-sess-billing-0143', 'session.id', 'sess-billing-0143', [5, 5]],
    ]);
    // A bad span in one session: exit 1, located, and nothing written (not even the folder).
    const bad = join(dir, 'bad-spans.jsonl');
    writeFileSync(bad, readFileSync(join(ROOT, 'examples/traces/openinference-spans.jsonl'), 'utf8').replace('"llm.token_count.prompt": 1174', '"llm.token_count.prompt": -1'));
    const badOut = join(dir, 'oi-bad');
    const failed = await inProcess([bad, '--out-dir', badOut, '--id', 'oi']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/bad-spans\.jsonl:5:\d+ error: `llm\.token_count\.prompt` must be a whole number of tokens \(0 or more\), got -1\n {2}fix: /);
    expect(existsSync(badOut)).toBe(false);
    // Without --out-dir it says to use it.
    const one = await inProcess(['examples/traces/openinference-spans.jsonl', '--out', join(dir, 'oi.yaml')]);
    expect(one.code).toBe(1);
    expect(one.stderr).toMatch(/openinference-spans\.jsonl:5:1 error: this OpenInference spans export holds more than one conversation: .*\n {2}fix: import it with --out-dir/);
  });

  it('re-importing a log without a conversation removes its scenario, keeps one a person added to or wrote, and says which', async () => {
    const log = join(dir, 'again.jsonl');
    const line = (key: string) => JSON.stringify({ model: 'gpt-5', prompt_cache_key: key, messages: [{ role: 'user', content: `q ${key}` }] });
    writeFileSync(log, `${['k-a', 'k-b', 'k-c', 'k-d'].map(line).join('\n')}\n`);
    const out = join(dir, 'again');
    expect((await inProcess([log, '--out-dir', out, '--id', 'again'])).code).toBe(0);
    // A person annotates k-b, replaces k-d by a hand-written scenario, and writes one of their own.
    const b = join(out, 'again-k-b.yaml');
    writeFileSync(b, `${readFileSync(b, 'utf8')}annotations:\n  - at: 1\n    note: why\n`);
    writeFileSync(join(out, 'again-k-d.yaml'), 'id: again-k-d\n');
    writeFileSync(join(out, 'mine.yaml'), 'id: mine\n');
    writeFileSync(log, `${line('k-a')}\n`);
    const r = await inProcess([log, '--out-dir', out, '--id', 'again']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/removed .*again\/again-k-c\.yaml: its conversation \(prompt_cache_key k-c\) is no longer in .*again\.jsonl/);
    expect(r.stdout).toMatch(
      /kept .*again\/again-k-b\.yaml: its conversation \(prompt_cache_key k-b\) is no longer in .*again\.jsonl, but it has annotations a person added — delete it yourself/,
    );
    expect(r.stdout).toMatch(/kept .*again\/again-k-d\.yaml: .* but it was not written by an import/);
    expect(readdirSync(out).sort()).toEqual(['again-k-a.yaml', 'again-k-b.yaml', 'again-k-d.yaml', 'again.traffic.json', 'mine.yaml']);
    expect(readFileSync(join(out, 'mine.yaml'), 'utf8')).toBe('id: mine\n');
    expect(JSON.parse(readFileSync(join(out, 'again.traffic.json'), 'utf8')).conversations.map((c: { id: string }) => c.id)).toEqual(['again-k-a']);
    // A failing re-import removes nothing.
    writeFileSync(log, '{"model": "gpt-5", "prompt_cache_key": "k-e", "messages": []}\n');
    const bad = await inProcess([log, '--out-dir', out, '--id', 'again']);
    expect(bad.code).toBe(1);
    expect(readdirSync(out).sort()).toEqual(['again-k-a.yaml', 'again-k-b.yaml', 'again-k-d.yaml', 'again.traffic.json', 'mine.yaml']);
  });

  it('a Claude Code session file with sub-agent transcripts beside it says what it did not read; the folder imports them linked, and without --out-dir is refused with the fix', async () => {
    const projects = join(dir, 'projects');
    const S = '0f6d2c1a-5b7e-4c3d-9a8b-1e2f3a4b5c6d';
    const line = (v: Record<string, unknown>) => JSON.stringify({ sessionId: S, version: '2.1.39', cwd: '/w', userType: 'external', ...v });
    const msg = (uuid: string, parentUuid: string | null, type: string, message: Record<string, unknown>, side: Record<string, unknown> = {}, s = 0) =>
      line({ uuid, parentUuid, type, isSidechain: false, timestamp: new Date(Date.UTC(2026, 1, 12, 16, 0, s)).toISOString(), message, ...side });
    const usage = { input_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 5000, output_tokens: 9 };
    const reply = (id: string, text: string) => ({ id, type: 'message', role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text }], usage });
    mkdirSync(join(projects, S, 'subagents'), { recursive: true });
    writeFileSync(
      join(projects, `${S}.jsonl`),
      `${[msg('u1', null, 'user', { role: 'user', content: 'Find the callers.' }), msg('a1', 'u1', 'assistant', reply('msg_1', 'Started an Explore agent.'), {}, 1)].join('\n')}\n`,
    );
    const side = { isSidechain: true, agentId: 'a2898e3' };
    writeFileSync(
      join(projects, S, 'subagents', 'agent-a2898e3.jsonl'),
      `${[msg('s1', null, 'user', { role: 'user', content: 'List every caller.' }, side, 2), msg('s2', 's1', 'assistant', reply('msg_2', 'One caller.'), side, 3)].join('\n')}\n`,
    );
    const one = await inProcess([join(projects, `${S}.jsonl`), '--out-dir', join(dir, 'cc-one')]);
    expect(one).toMatchObject({ code: 0, stderr: '' });
    expect(one.stdout).toMatch(new RegExp(`not read: 1 sub-agent transcript\\(s\\) beside .*${S}\\.jsonl \\(${S}/subagents/agent-a2898e3\\.jsonl\\): .*import the folder`));
    // The session file is named by its sessionId: its one scenario keeps that name, said as written.
    expect(readdirSync(join(dir, 'cc-one')).sort()).toEqual([`${S}.traffic.json`, `${S}.yaml`]);
    expect(one.stdout).toMatch(new RegExp(`wrote 1 scenario\\(s\\) to \\S*/cc-one/ \\(${S}\\.yaml\\): 1 anthropic request\\(s\\)`));
    const all = await inProcess([projects, '--out-dir', join(dir, 'cc-all')]);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(join(dir, 'cc-all')).sort()).toEqual(['projects-0f6d2c1a-5b7e-4c3d-9a8b-1e2f3a4b5c6d.yaml', 'projects-a2898e3.yaml', 'projects.traffic.json']);
    expect(readFileSync(join(dir, 'cc-all', 'projects-a2898e3.yaml'), 'utf8')).toMatch(/^sharesCache:\n {2}scenario: projects-0f6d2c1a-5b7e-4c3d-9a8b-1e2f3a4b5c6d\n/m);
    const refused = await inProcess([projects, '--out', join(dir, 'cc.yaml')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is a folder: a folder is a capture of several conversations\n {2}fix: import it with --out-dir <folder>/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });
});
