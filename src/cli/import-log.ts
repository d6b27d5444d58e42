/**
 * `npm run import -- <log> --out-dir <folder> [--id <prefix>] [--format …] [--force]`: a log of many
 * conversations → `<folder>/<prefix>-<conversation>.yaml`, one scenario per conversation
 * (src/import/log), and `<folder>/<prefix>.traffic.json`, the list of those conversations and the
 * key that grouped each (read by the traffic summary: `npm run report`, the site's traffic page).
 *
 * All or nothing: each scenario is checked as the corpus check would (renderTexts) and staged as a
 * hidden temporary file beside its target; only when every conversation imports clean are they
 * renamed into place (each rename atomic) and the summary written; on any error the staged files
 * are removed and nothing is written. A scenario it did not write is never replaced (unless
 * --force), nor is an id another scenario of the corpus already has reused.
 *
 * A capture (a Claude Code file of several sessions, Codex rollouts, DevTools runs, OpenInference
 * spans: src/import/log/capture.ts) is imported the same way, one scenario per conversation.
 *
 * Re-importing: the manifest is the marker of what an import of this prefix wrote. A conversation
 * the previous manifest lists and this import no longer has leaves a stale scenario behind; it is
 * removed after everything else is in place (and said), unless a person wrote or added to it — a
 * scenario without the import header, or with `annotations:` or `expect:` — which is kept and said
 * (import-stale.ts). A scenario no manifest lists is never touched.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { importLog, type LogConversation } from '../import/log/index.ts';
import { importCaptureLog, isLogFile } from '../import/log/capture.ts';
import { subAgentNote } from '../import/folder.ts';
import { leftOutLine } from '../import/left-out.ts';
import { IMPORT_HEADER } from '../import/scenario.ts';
import { staleScenarios } from './import-stale.ts';
import type { InputFormat } from '../import/index.ts';
import type { DroppedSecret } from '../import/index.ts';
import { TRAFFIC_SUFFIX, type TrafficManifest } from '../economics/traffic.ts';
import { renderTexts } from '../corpus/check.ts';
import { CorpusError, type InputError } from '../scenarios/errors.ts';
import type { ExplainerConfig } from '../integration/options.ts';
import { UsageError } from './config.ts';
import { outsideNote, scenarioFolder } from './import-target.ts';
import { runCommand } from '../project.ts';

/** Dropped secrets printed one by one; past this many, a count per kind. */
const SHOWN_SECRETS = 10;

const imported = (text: string): boolean => text.split('\n', 2).some((l) => l.startsWith(IMPORT_HEADER));

/** `id:` of every scenario file in the folder (a quick look at the text, as the single import does). */
function idsIn(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir).filter((n) => /\.(ya?ml|md)$/.test(n))) {
    const m = /^id:\s*["']?([a-z0-9][a-z0-9_-]*)["']?\s*$/m.exec(readFileSync(join(dir, f), 'utf8'));
    if (m) out.set(m[1]!, join(dir, f));
  }
  return out;
}

/** Where an import runs: the folder its paths are relative to, and where its lines go (import-command.ts). */
export interface ImportIo {
  cwd: string;
  out(line: string): void;
}

export async function importLogCommand(
  args: { file: string; format?: InputFormat; capture?: string; outDir?: string; force: boolean },
  ctx: { id: string; abs: string; display: string; config: ExplainerConfig },
  io: ImportIo,
): Promise<void> {
  const { config } = ctx;
  const outDir = resolve(io.cwd, args.outDir!);
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw new UsageError(`--out-dir ${args.outDir} is a file`, { fix: `give --out-dir a folder (made if missing), or --out ${args.outDir} for one scenario file` });
  const where = scenarioFolder(config, outDir, '--out-dir');
  const rel = (p: string) => relative(config.root, p).split('\\').join('/');
  const scenariosAbs = join(config.root, config.scenariosDir);
  const ids = idsIn(scenariosAbs);
  for (const [k, v] of idsIn(outDir)) if (!ids.has(k)) ids.set(k, v);
  const staged: { tmp: string; target: string }[] = [];
  /** A capture's scenarios written so far, by id: a sub-agent's is checked beside its parent's (sharesCache). */
  const texts = new Map<string, { file: string; text: string }>();
  const dropped: DroppedSecret[] = [];
  let measured = 0;
  const formats = new Set<string>();
  const started = Date.now();
  const madeDir = !existsSync(outDir);
  // A log of request bodies is streamed line by line; a capture (named by --format, or not a body on its first line) is read whole.
  const asCapture = args.capture !== undefined || statSync(ctx.abs).isDirectory() || !isLogFile(ctx.abs);
  const run = asCapture
    ? (o: Parameters<typeof importLog>[0], f: Parameters<typeof importLog>[1]) =>
        // A session's sub-agents are in its own part of a folder: its scenarios are let go with it (memory grows with the largest session).
        importCaptureLog({ ...o, ...(args.capture && { capture: args.capture }), sessionDone: () => texts.clear() }, f)
    : importLog;
  let written = false;
  try {
    const { result, errors } = await run(
      {
        file: ctx.display,
        path: ctx.abs,
        prefix: ctx.id,
        ...(args.format && { format: args.format }),
        previous: (id) => {
          const target = join(outDir, `${id}.yaml`);
          if (!existsSync(target)) return undefined;
          const text = readFileSync(target, 'utf8');
          if (imported(text)) return text;
          if (!args.force)
            throw new UsageError(`${rel(target)} exists and was not written by an import`, { fix: `choose another --id or --out-dir, or pass --force to replace it` });
          return undefined;
        },
      },
      async (conv: LogConversation, r) => {
        const target = join(outDir, `${conv.id}.yaml`);
        const other = ids.get(conv.id);
        if (other !== undefined && other !== target) {
          throw new UsageError(`${rel(other)} already has the id "${conv.id}" (conversation ${conv.conversation.key} of the log)`, {
            fix: `pass another --id (the prefix of every scenario id)`,
          });
        }
        const own = { file: rel(target), text: r.yaml };
        const parent = r.sharesCache && texts.get(r.sharesCache.scenario);
        const check = await renderTexts(parent ? [parent, own] : [own], config, { everyEvent: false });
        const found = check.errors.filter((e) => e.pos.file === own.file);
        if (found.length) return found;
        if (asCapture) texts.set(conv.id, own);
        mkdirSync(outDir, { recursive: true });
        const tmp = join(dirname(target), `.${basename(target)}.tmp`);
        writeFileSync(tmp, r.yaml);
        staged.push({ tmp, target });
        dropped.push(...r.dropped);
        measured += r.measured;
        formats.add(r.format);
        return [] as InputError[];
      },
    );
    if (!result) throw new CorpusError(errors);
    const manifest: TrafficManifest = {
      log: ctx.display,
      prefix: ctx.id,
      formats: [...formats].sort(),
      lines: result.lines,
      conversations: result.conversations.map((c) => ({ id: c.id, groupedBy: c.conversation.by, key: c.conversation.key, requests: c.requests, lines: c.lines })),
    };
    const manifestPath = join(outDir, `${ctx.id}${TRAFFIC_SUFFIX}`);
    // The scenarios the previous import of this prefix wrote and this one does not: removed once all is written, unless a person added to them.
    const stale = staleScenarios(manifestPath, outDir, new Set(manifest.conversations.map((c) => c.id)));
    writeFileSync(`${manifestPath}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
    staged.push({ tmp: `${manifestPath}.tmp`, target: manifestPath });
    for (const s of staged) renameSync(s.tmp, s.target);
    staged.length = 0;
    written = true;
    for (const s of stale.remove) rmSync(s.file);
    for (const d of dropped.slice(0, SHOWN_SECRETS)) io.out(`${d.pos.file}:${d.pos.line}:${d.pos.col} dropped ${d.what}: ${d.where}`);
    if (dropped.length > SHOWN_SECRETS) {
      const kinds = new Map<string, number>();
      for (const d of dropped.slice(SHOWN_SECRETS)) kinds.set(`${d.what}: ${d.where}`, (kinds.get(`${d.what}: ${d.where}`) ?? 0) + 1);
      io.out(`… and ${dropped.length - SHOWN_SECRETS} more dropped: ${[...kinds].map(([k, n]) => `${n} × ${k}`).join('; ')}`);
    }
    for (const e of result.leftOut ?? []) io.out(leftOutLine(ctx.display, e));
    const beside = statSync(ctx.abs).isDirectory() ? undefined : subAgentNote(ctx.display, ctx.abs);
    if (beside) io.out(beside);
    const by = new Map<string, number>();
    for (const c of result.conversations) by.set(c.conversation.by, (by.get(c.conversation.by) ?? 0) + 1);
    const requests = result.conversations.reduce((n, c) => n + c.requests, 0);
    io.out(
      `wrote ${result.conversations.length} scenario(s) to ${rel(outDir) || '.'}/ (${result.conversations.length === 1 ? `${result.conversations[0]!.id}.yaml` : `${ctx.id}-…`}): ${requests} ${[...formats].join(', ')} request(s), one scenario per conversation, grouped by ${[...by].map(([k, n]) => `${k} (${n})`).join(', ')}; ${measured} with the provider's usage, ${dropped.length} secret(s) dropped, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const s of stale.remove) io.out(`removed ${rel(s.file)}: its conversation (${s.by} ${s.key}) is no longer in ${ctx.display}`);
    for (const s of stale.keep)
      io.out(`kept ${rel(s.file)}: its conversation (${s.by} ${s.key}) is no longer in ${ctx.display}, but ${s.why} — delete it yourself if it is not wanted`);
    io.out(`wrote ${rel(manifestPath)}: the log's conversations, for the traffic summary (${runCommand('report')}; the site's /traffic/${ctx.id}/ page)`);
    io.out(where === 'outside' ? outsideNote(config) : `next: ${runCommand('check')} && ${runCommand('fixtures')}`);
  } finally {
    for (const s of staged) rmSync(s.tmp, { force: true });
    // Nothing partial: a folder this run created is removed again when nothing was written into it.
    if (!written && madeDir && existsSync(outDir) && readdirSync(outDir).length === 0) rmSync(outDir, { recursive: true, force: true });
  }
}
