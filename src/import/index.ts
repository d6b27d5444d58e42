/**
 * A captured trace → a scenario file for the `requests` fold (`npm run import`). Pure: text in,
 * YAML text and a report out, or the list of problems — each naming the trace file's line and
 * column, what is wrong and the fix; no partial result. Deterministic: the same trace and options
 * give the same bytes (nothing depends on the clock or the machine).
 *
 * The entry points: a whole trace (importTrace, importChunks: one scenario) and a capture of
 * several conversations (importCapture: one scenario per conversation, sub-agents linked to their
 * parent; a log of request bodies is streamed by log/index.ts). The steps, one module each: read
 * the JSON values (read.ts) → gather the requests (gather.ts: request bodies, bare or wrapped —
 * bodies.ts; GenAI spans — genai-spans.ts; a capture's rebuilt requests — captures/), their one provider
 * format (choose-format.ts) and what the provider billed, from each response's usage (usage.ts),
 * with what was read past counted (left-out.ts) → split into conversations (log/group.ts; a
 * session's sub-agents: sub-agents.ts) → each conversation's scenario (to-scenario.ts: secrets
 * dropped, bodies checked by their provider adapter, time labels, YAML — scenario.ts).
 */
import { runCommandWithArgs } from '../project.ts';
import type { InputError } from '../scenarios/errors.ts';
import type { ProviderId as RequestFormat } from '../providers/registry.ts';
import { gather } from './gather.ts';
import type { InputFormat } from './input-formats.ts';
import type { LeftOut } from './left-out.ts';
import { distinctConversations, explicitKey, Grouper, type Conversation } from './log/group.ts';
import { chunkPos, readChunks, type Chunk } from './read.ts';
import { lineOf, type DroppedSecret, type Req } from './request.ts';
import { linkOf, withoutSubAgents } from './sub-agents.ts';
import { toScenario } from './to-scenario.ts';

export { INPUT_FORMATS, type InputFormat } from './input-formats.ts';
export type { DroppedSecret } from './request.ts';

export interface ImportOptions {
  /** The trace file as the user named it (used in messages and the scenario). */
  file: string;
  id: string;
  format?: InputFormat;
  /** The scenario file being replaced, when an import wrote it (its annotations are kept). */
  previous?: string;
  /** One conversation of a log (log/index.ts): which key grouped its requests, said in the scenario. */
  conversation?: Conversation;
  /** A capture format's id (captures/index.ts CAPTURES), as `--format` names it; detected when absent. */
  capture?: string;
}

export interface ImportResult {
  yaml: string;
  format: RequestFormat;
  requests: number;
  dropped: DroppedSecret[];
  /** OTLP spans that carried no GenAI input messages (also in `leftOut`). */
  skippedSpans: number;
  /** What the import read past without making it a request, by kind, with why (left-out.ts): printed by the command. */
  leftOut: LeftOut[];
  /** A sub-agent's scenario: the parent scenario whose cache it shares, from its event `at`. */
  sharesCache?: { scenario: string; at: number };
  /** How the format was chosen, for the report. */
  detected: boolean;
  /** Requests that carried the provider's usage (stored as measured figures). */
  measured: number;
  /** Requests the provider's API would reject for their model (a feature it does not accept), located in the trace. */
  warnings: InputError[];
}

export function importTrace(text: string, opts: ImportOptions): { result?: ImportResult; errors: InputError[] } {
  const errors: InputError[] = [];
  const chunks = readChunks(text, opts.file, errors);
  if (errors.length) return { errors };
  return importChunks(chunks, opts);
}

/** The JSON values of a trace (readChunks, or one conversation of a log: log/index.ts) → the scenario. */
export function importChunks(chunks: Chunk[], opts: ImportOptions): { result?: ImportResult; errors: InputError[] } {
  const { file } = opts;
  const errors: InputError[] = [];
  const conversations = opts.conversation ? undefined : distinctConversations(chunks);
  if (conversations) {
    errors.push({
      pos: { file, line: conversations.second.line, col: 1 },
      message: `this trace holds more than one conversation: line ${conversations.first.line}'s \`${conversations.by}\` is ${JSON.stringify(conversations.first.key)}, this line's ${JSON.stringify(conversations.second.key)}`,
      fix: `import it as a log, one scenario per conversation: ${runCommandWithArgs('import')} <trace> --out-dir <folder> (see the README, "Import a trace")`,
    });
    return { errors };
  }
  const g = gather(chunks, opts, errors);
  if (!g) return { errors };
  // A session's sub-agent calls are conversations of their own: one scenario keeps the session's, and says so.
  const { kept, leftOut: subAgents } = withoutSubAgents(g.reqs, file);
  if (g.capture && !opts.conversation) {
    // A capture of several sessions is imported with --out-dir; here, only keys the capture or the bodies name are compared.
    let first: { r: Req; c: Conversation } | undefined;
    for (const r of kept) {
      const c = r.conversation ?? explicitKey(r.body);
      if (!c) continue;
      if (!first) first = { r, c };
      else if (first.c.by === c.by && first.c.key !== c.key) {
        errors.push({
          pos: chunkPos(r.chunk, r.at, file),
          message: `this ${g.capture.title} holds more than one conversation: the request of line ${lineOf(first.r, file)} has \`${c.by}\` ${JSON.stringify(first.c.key)}, this one ${JSON.stringify(c.key)}`,
          fix: `import it with --out-dir <folder>: one scenario per conversation (${runCommandWithArgs('import')} <capture> --out-dir <folder>)`,
        });
        return { errors };
      }
    }
  }
  // A sub-agent's own file imported alone: its session is not in the trace, and the intro says so.
  const orphan = kept.length && kept.every((r) => r.parent) ? kept[0]!.parent : undefined;
  return toScenario(g, kept, { ...opts, ...(subAgents && { leftOut: [...g.leftOut, subAgents] }), ...(orphan && { parentMissing: orphan }) });
}

/** One conversation of a capture, as imported (importCapture). */
export interface CaptureConversation {
  /** Its scenario id (idOf). */
  id: string;
  conversation: Conversation;
  result: ImportResult;
  /** First and last line of the file holding its requests. */
  lines: [number, number];
}

/**
 * A capture holding several conversations (several Claude Code sessions, Codex rollouts, DevTools
 * runs, OpenInference sessions) → one scenario per conversation, in order of its first request:
 * grouped by the key the capture names (its session id), else the body's own key, else the prefix
 * chain (log/group.ts). `idOf` names each scenario; `previous` gives the file a re-import replaces.
 */
export function importCapture(
  chunks: Chunk[],
  opts: ImportOptions & {
    idOf: (c: Conversation) => string;
    previousOf?: (id: string) => string | undefined;
    /** These chunks are one session of a folder of this many (folder.ts): said in each scenario's intro. */
    sessions?: number;
  },
): { conversations?: CaptureConversation[]; leftOut?: LeftOut[]; errors: InputError[] } {
  const errors: InputError[] = [];
  const g = gather(chunks, opts, errors);
  if (!g) return { errors };
  if (!g.capture) {
    errors.push({
      pos: { file: opts.file, line: chunks[0]?.line ?? 1, col: 1 },
      message: g.isOtlp ? 'OpenTelemetry GenAI spans import as one scenario' : 'these are request bodies, not a capture',
      fix: g.isOtlp ? 'import the OTLP export without --out-dir' : 'a log of request bodies is imported with --out-dir line by line: write one request per line',
    });
    return { errors };
  }
  const grouper = new Grouper();
  const groups = new Map<string, { conversation: Conversation; reqs: Req[] }>();
  for (const r of g.reqs) {
    const c = grouper.assign(r.body, { ...(r.conversation && { explicit: r.conversation }), ...(r.messages && { messages: r.messages }) });
    const k = `${c.by}\u0000${c.key}`;
    if (!groups.has(k)) groups.set(k, { conversation: c, reqs: [] });
    groups.get(k)!.reqs.push(r);
  }
  const out: CaptureConversation[] = [];
  const named = [...groups.values()].map((x) => ({ ...x, id: opts.idOf(x.conversation) }));
  for (const n of named) {
    const { id, conversation, reqs } = n;
    const previous = opts.previousOf?.(id);
    const link = linkOf(n, named);
    // A sub-agent whose parent is not in the capture (its session's file missing): said, not linked.
    const parent = link ? undefined : reqs.find((r) => r.parent)?.parent;
    const { result, errors: found } = toScenario(g, reqs, {
      ...opts,
      id,
      conversation: { ...conversation, of: named.length, ...(opts.sessions !== undefined && { sessions: opts.sessions }) },
      ...(previous !== undefined && { previous }),
      ...(link && { link }),
      ...(parent && { parentMissing: parent }),
    });
    errors.push(...found);
    const lines = reqs.map((r) => lineOf(r, opts.file));
    if (result) out.push({ id, conversation, result, lines: [Math.min(...lines), Math.max(...lines)] });
  }
  return errors.length ? { errors } : { conversations: out, leftOut: g.leftOut, errors };
}
