/**
 * A captured trace → a scenario file for the `requests` fold (`npm run import`). Pure: text in,
 * YAML text and a report out, or the list of problems — each naming the trace file's line and
 * column, what is wrong and the fix; no partial result. Deterministic: the same trace and options
 * give the same bytes (nothing depends on the clock or the machine).
 *
 * Steps: read the JSON values (read.ts) → requests: request bodies (bare or wrapped) or GenAI
 * spans (otlp.ts) → one provider (detect.ts) → what the provider billed, from each response's
 * usage or span's usage attributes (usage.ts), stored as the payload's `measured` → secrets dropped
 * (secrets.ts; the response itself is never stored) → each body checked by its provider adapter
 * (the schema and rules the `requests` fold checks it with) → timestamps to time labels → YAML (scenario.ts).
 */
import type { InputError } from '../scenarios/errors.ts';
import { formatElapsed } from '../scenarios/time.ts';
import { otelGenai } from '../providers/otel-genai.ts';
import { bodyIssues, modelOf, PROVIDERS, providerOf, type ProviderId as RequestFormat } from '../providers/registry.ts';
import type { ProviderAdapter } from '../providers/types.ts';
import { rejectedFeature } from '../economics/features.ts';
import { DEFAULT_ECONOMICS, profileFor } from '../economics/profiles.ts';
import { candidates, FORMAT_TITLES, tieBreak } from './detect.ts';
import { LeftOutTally, type LeftOut } from './left-out.ts';
import { isSpanDocument, spansToRequests } from './genai-spans.ts';
import { chunkPos, ENVELOPE_KEYS, isObject, readChunks, type Chunk } from './read.ts';
import { credentialHeader, scrub, type Dropped } from './secrets.ts';
import { captureOf } from './captures/index.ts';
import type { Capture, CapturedRequest } from './captures/types.ts';
import { distinctConversations, explicitKey, Grouper, type Conversation } from './log/group.ts';
import { scenarioYaml } from './scenario.ts';
import { readUsage, type UsageIssue } from './usage.ts';

/** `--format` values: each adapter's import name (its id, or `otlp` for OpenTelemetry spans). */
export const INPUT_FORMATS: readonly string[] = PROVIDERS.map((p) => p.importName ?? p.id);
export type InputFormat = string;
/** The `--format` value that reads OTLP trace documents (the OpenTelemetry adapter's). */
const OTLP = otelGenai.importName!;
/** The format id of a `--format` value. */
const formatOf = (name: string): RequestFormat | undefined => PROVIDERS.find((p) => (p.importName ?? p.id) === name)?.id;

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

export interface DroppedSecret extends Dropped {
  pos: InputError['pos'];
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
  /** How the format was chosen, for the report. */
  detected: boolean;
  /** Requests that carried the provider's usage (stored as measured figures). */
  measured: number;
  /** Requests the provider's API would reject for their model (a feature it does not accept), located in the trace. */
  warnings: InputError[];
}

/**
 * One request of the trace, before it becomes an event: a body read from a line (JSON Lines, an
 * OTLP span), or one a capture rebuilt from several lines (`assembled`: a path inside its body does
 * not lead into its chunk; `origin` says where it came from).
 */
type Req = Omit<CapturedRequest, 'assembled'> & { assembled?: true };

type Obj = Record<string, unknown>;

function timestampMs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v > 1e11 ? v : v * 1000;
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** Request bodies of JSON Lines chunks (bare or wrapped); headers are dropped here. */
function bodiesOf(chunks: Chunk[], file: string, errors: InputError[], dropped: DroppedSecret[]): Req[] {
  const out: Req[] = [];
  for (const c of chunks) {
    const v = c.value;
    // A wrapped line may name the model (`"model"`) where the body does not carry it (Bedrock, Gemini: the model is in the URL).
    const wrapped = isObject(v.body) && !('messages' in v) && !('input' in v) && !('contents' in v);
    if (!wrapped) {
      out.push({ chunk: c, at: [], offset: c.line, body: v });
      continue;
    }
    const unknown = Object.keys(v).filter((k) => !ENVELOPE_KEYS.includes(k));
    for (const k of unknown) {
      errors.push({
        pos: chunkPos(c, [k], file, true),
        message: `unknown field \`${k}\` around a request body`,
        fix: `a wrapped request has only ${ENVELOPE_KEYS.join(', ')}: remove \`${k}\`, or put the bare body on the line`,
      });
    }
    if (v.headers !== undefined) {
      if (!isObject(v.headers))
        errors.push({
          pos: chunkPos(c, ['headers'], file),
          message: '`headers` must be a mapping of header names to values',
          fix: 'write e.g. {"content-type": "application/json"}, or leave `headers` out',
        });
      else
        for (const h of Object.keys(v.headers).sort())
          if (credentialHeader(h)) dropped.push(droppedAt({ where: `header ${h}`, what: 'a credential header' }, () => chunkPos(c, ['headers', h], file, true)));
    }
    const body = v.body as Obj;
    const req: Req = {
      chunk: c,
      at: ['body'],
      offset: c.line,
      body: typeof v.model === 'string' && !('model' in body) && !('modelId' in body) ? { ...body, model: v.model } : body,
    };
    if (v.response !== undefined && v.usage !== undefined) {
      errors.push({
        pos: chunkPos(c, ['usage'], file, true),
        message: 'this line has both `response` and `usage`: which one did the provider bill?',
        fix: 'keep one: the whole response ({"response": {"usage": {…}, …}}) or its usage alone ({"usage": {…}})',
      });
    } else if (v.usage !== undefined) req.usage = { value: v.usage, at: ['usage'] };
    else if (v.response !== undefined) {
      if (!isObject(v.response))
        errors.push({
          pos: chunkPos(c, ['response'], file),
          message: "`response` must be the provider's response object",
          fix: 'write the response body as the API returned it (its `usage` is read; nothing else of it is stored), or leave `response` out',
        });
      else if (v.response.usage !== undefined) req.usage = { value: v.response.usage, at: ['response', 'usage'] };
      else if (v.response.usageMetadata !== undefined) req.usage = { value: v.response.usageMetadata, at: ['response', 'usageMetadata'] };
    }
    if (v.timestamp !== undefined) {
      const ms = timestampMs(v.timestamp);
      if (ms === undefined)
        errors.push({
          pos: chunkPos(c, ['timestamp'], file),
          message: `\`timestamp\` is not an ISO-8601 instant or a Unix time, got ${JSON.stringify(v.timestamp)}`,
          fix: 'write e.g. "2026-08-24T16:41:00.000Z", or Unix milliseconds like 1787589660000',
        });
      else req.timestampMs = ms;
    }
    out.push(req);
  }
  return out;
}

/** The one provider format of all bodies, or an error naming the line that breaks it. */
function chooseFormat(reqs: Req[], file: string, errors: InputError[]): RequestFormat | undefined {
  let allowed: RequestFormat[] | undefined;
  let decidedBy: Req | undefined;
  for (const r of reqs) {
    const c = candidates(r.body);
    if ('problem' in c) {
      errors.push({
        pos: chunkPos(r.chunk, r.at, file),
        message: `not a request body of a known provider: ${c.problem}`,
        fix: `import request bodies of one of ${PROVIDERS.filter((p) => 'detect' in p)
          .map((p) => p.title)
          .join(', ')}, one per line — or pass --format to say which one it is`,
      });
      continue;
    }
    const next: RequestFormat[] = allowed ? allowed.filter((f) => c.includes(f)) : c;
    if (!next.length) {
      errors.push({
        pos: chunkPos(r.chunk, r.at, file),
        message: `this line is ${c.map((f) => `an ${FORMAT_TITLES[f]}`).join(' or ')} request body, but line ${decidedBy!.chunk.line} is ${allowed!.map((f) => `an ${FORMAT_TITLES[f]}`).join(' or ')} one — mixed providers`,
        fix: "a scenario shows one provider's requests: split the trace per provider and import each file",
      });
      return undefined;
    }
    if (!allowed || next.length < allowed.length) decidedBy = r;
    allowed = next;
  }
  if (!allowed) return undefined;
  if (allowed.length === 1) return allowed[0];
  return tieBreak(
    allowed,
    reqs.map((r) => r.body),
  );
}

/** The trace line a request starts on: its chunk's own line when the chunk is one line (JSON Lines), else located. */
const lineOf = (r: Req, file: string): number => (r.chunk.text.includes('\n') ? chunkPos(r.chunk, r.at, file).line : r.chunk.line);

/** The one format of a capture's requests: the one they name (AI SDK DevTools' provider), or their shape's. */
function captureFormat(reqs: Req[], file: string, errors: InputError[]): RequestFormat | undefined {
  const first = reqs.find((r) => r.format);
  const other = first && reqs.find((r) => r.format && r.format !== first.format);
  if (first && other) {
    errors.push({
      pos: chunkPos(other.chunk, other.at, file),
      message: `this request is an ${FORMAT_TITLES[other.format!]} one, but an earlier one is ${FORMAT_TITLES[first.format!]} — mixed providers`,
      fix: "a scenario shows one provider's requests: capture each provider's calls separately",
    });
    return undefined;
  }
  const named = first?.format;
  if (
    named &&
    reqs.every((r) => {
      const c = candidates(r.body);
      return !('problem' in c) && c.includes(named);
    })
  )
    return named;
  return chooseFormat(reqs, file, errors);
}

/** Time labels: elapsed since the earliest timestamp; all or none of the requests must have one. */
function labels(reqs: Req[], file: string, errors: InputError[]): string[] {
  const withTime = reqs.filter((r) => r.timestampMs !== undefined);
  if (withTime.length && withTime.length < reqs.length) {
    const missing = reqs.find((r) => r.timestampMs === undefined)!;
    errors.push({
      pos: chunkPos(missing.chunk, missing.at, file),
      message: `this request has no timestamp, but line ${withTime[0]!.chunk.line}'s has`,
      fix: 'give every request a `timestamp` (wrap the body: {"timestamp": "…", "body": {…}}), or none',
    });
    return [];
  }
  if (!withTime.length) return reqs.map(() => '0ms');
  const t0 = Math.min(...withTime.map((r) => r.timestampMs!));
  return reqs.map((r) => formatElapsed(Math.round(r.timestampMs! - t0)));
}

/**
 * Requests whose model rejects a feature they use (e.g. an Anthropic mid-conversation system message
 * on a model without it): a warning at the message in the trace, with the fix. The scenario is
 * still written (it is what was captured); `npm run check` reports the request as one the API rejects.
 */
function rejections(reqs: readonly Req[], format: RequestFormat, file: string): InputError[] {
  const adapter: ProviderAdapter = providerOf(format);
  return reqs.flatMap((r) => {
    const model = modelOf(format, r.body);
    const found = rejectedFeature(profileFor(DEFAULT_ECONOMICS, model).profile, adapter.normalise(r.body));
    if (!found) return [];
    const at = [...r.at, ...(adapter.messagePath?.(r.body, found.message) ?? [])];
    return [{ pos: chunkPos(r.chunk, at, file), message: `${model} rejects this request: ${found.rejection.message}`, fix: found.rejection.fix }];
  });
}

/**
 * What the provider documents as doing nothing in a body as sent (its adapter's `lint`: a
 * `cache_control` in a Bedrock Converse body, a Nova tools checkpoint, …): a warning at the spot in
 * the trace, with the fix. The scenario is still written; `npm run check` reports the same finding.
 */
function bodyFindings(reqs: readonly Req[], format: RequestFormat, file: string): InputError[] {
  const adapter: ProviderAdapter = providerOf(format);
  if (!adapter.lint) return [];
  return reqs.flatMap((r) =>
    adapter.lint!(r.body, adapter.model?.(r.body)).map((f) => ({
      pos: chunkPos(r.chunk, r.assembled ? r.at : [...r.at, ...f.path], file, f.path.at(-1) === 'cache_control'),
      message: f.message,
      fix: f.fix,
    })),
  );
}

export function importTrace(text: string, opts: ImportOptions): { result?: ImportResult; errors: InputError[] } {
  const errors: InputError[] = [];
  const chunks = readChunks(text, opts.file, errors);
  if (errors.length) return { errors };
  return importChunks(chunks, opts);
}

/** What the page says about some of a capture's requests (their `note`), with how many it concerns. */
function notesOf(reqs: readonly Req[]): { text: string; requests: number }[] {
  const by = new Map<string, number>();
  for (const r of reqs) if (r.note) by.set(r.note, (by.get(r.note) ?? 0) + 1);
  return [...by].map(([text, requests]) => ({ text, requests }));
}

/** A dropped secret whose position is found only when read (locating parses the line: costly on a large log). */
function droppedAt(d: Dropped, where: () => InputError['pos']): DroppedSecret {
  let pos: InputError['pos'] | undefined;
  return Object.defineProperty({ ...d } as DroppedSecret, 'pos', { enumerable: true, get: () => (pos ??= where()) });
}

/** The requests of a trace, read and checked as a whole, before they are split into conversations. */
interface Gathered {
  reqs: Req[];
  format: RequestFormat;
  capture?: Capture;
  isOtlp: boolean;
  skippedSpans: number;
  /** What was read past without becoming a request (of the whole trace, not one conversation). */
  leftOut: LeftOut[];
  /** Secrets dropped while reading (credential headers), before the bodies are scrubbed. */
  dropped: DroppedSecret[];
}

/** Every request of the chunks, its format and usage; problems are pushed (located), nothing returned then. */
function gather(chunks: Chunk[], opts: ImportOptions, errors: InputError[]): Gathered | undefined {
  const { file } = opts;
  const dropped: DroppedSecret[] = [];
  const leftOut = new LeftOutTally();
  // A capture is recognised first: an OpenInference export is OTLP JSON too, but not GenAI spans.
  const capture = opts.format === OTLP ? undefined : captureOf(chunks, opts.capture);
  const otlp = chunks.filter((c) => isSpanDocument(c.value));
  const isOtlp = !capture && (opts.format === OTLP || otlp.length > 0);
  if (isOtlp && otlp.length < chunks.length) {
    const odd = chunks.find((c) => !isSpanDocument(c.value))!;
    const other = otlp[0];
    errors.push({
      pos: { file, line: odd.line, col: 1 },
      message: other
        ? `this line is a request body, but line ${other.line} is an OTLP trace document or span — mixed inputs`
        : 'this is neither an OTLP trace document (no `resourceSpans`) nor a span',
      fix: other
        ? 'import the OTLP export and the request bodies from separate files'
        : "export the trace as OTLP JSON (or the SDK's span JSON), or pass the --format of the request bodies instead of otlp",
    });
    return undefined;
  }
  let reqs: Req[];
  let format: RequestFormat | undefined;
  let skippedSpans = 0;
  if (capture) {
    reqs = capture.requests(chunks, file, errors, leftOut);
    format = capture.format ?? (errors.length || !reqs.length ? undefined : captureFormat(reqs, file, errors));
    if (!reqs.length && !errors.length)
      errors.push({
        pos: { file, line: chunks[0]?.line ?? 1, col: 1 },
        message: `this ${capture.title} holds no request (no model reply)${
          leftOut.list().length
            ? `; read past: ${leftOut
                .list()
                .map((e) => `${e.count} ${e.what} (${e.why})`)
                .join(', ')}`
            : ''
        }`,
        fix: 'import a capture of a session in which the model answered at least once',
      });
  } else if (isOtlp) {
    ({ reqs, skipped: skippedSpans } = spansToRequests(chunks, file, errors, leftOut));
    format = otelGenai.id;
  } else {
    reqs = bodiesOf(chunks, file, errors, dropped);
    if (errors.length) return undefined;
    format = opts.format ? formatOf(opts.format) : chooseFormat(reqs, file, errors);
  }
  if (errors.length || !format) return undefined;
  if (!isOtlp) {
    for (const r of reqs) {
      if (!r.usage) continue;
      const issues: UsageIssue[] = [];
      const measured = readUsage(format, r.usage.value, issues);
      for (const u of issues)
        errors.push({ pos: chunkPos(r.usage.chunk ?? r.chunk, [...r.usage.at, ...u.path], file, u.key), message: `response usage: ${u.message}`, fix: u.fix });
      if (measured) r.measured = measured;
    }
    if (errors.length) return undefined;
  }
  return { reqs, format, ...(capture && { capture }), isOtlp, skippedSpans, leftOut: leftOut.list(), dropped };
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
      fix: 'import it as a log, one scenario per conversation: npm run import -- <trace> --out-dir <folder> (see the README, "Import a trace")',
    });
    return { errors };
  }
  const g = gather(chunks, opts, errors);
  if (!g) return { errors };
  if (g.capture && !opts.conversation) {
    // A capture of several sessions is imported with --out-dir; here, only keys the capture or the bodies name are compared.
    let first: { r: Req; c: Conversation } | undefined;
    for (const r of g.reqs) {
      const c = r.conversation ?? explicitKey(r.body);
      if (!c) continue;
      if (!first) first = { r, c };
      else if (first.c.by === c.by && first.c.key !== c.key) {
        errors.push({
          pos: chunkPos(r.chunk, r.at, file),
          message: `this ${g.capture.title} holds more than one conversation: the request of line ${lineOf(first.r, file)} has \`${c.by}\` ${JSON.stringify(first.c.key)}, this one ${JSON.stringify(c.key)}`,
          fix: 'import it with --out-dir <folder>: one scenario per conversation (npm run import -- <capture> --out-dir <folder>)',
        });
        return { errors };
      }
    }
  }
  return finish(g, g.reqs, opts);
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
  opts: ImportOptions & { idOf: (c: Conversation) => string; previousOf?: (id: string) => string | undefined },
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
  for (const { conversation, reqs } of groups.values()) {
    const id = opts.idOf(conversation);
    const previous = opts.previousOf?.(id);
    const { result, errors: found } = finish(g, reqs, { ...opts, id, conversation, ...(previous !== undefined && { previous }) });
    errors.push(...found);
    const lines = reqs.map((r) => lineOf(r, opts.file));
    if (result) out.push({ id, conversation, result, lines: [Math.min(...lines), Math.max(...lines)] });
  }
  return errors.length ? { errors } : { conversations: out, leftOut: g.leftOut, errors };
}

/** The requests of one conversation → its scenario: secrets dropped, bodies checked, time labels, YAML. */
function finish(g: Gathered, reqs: Req[], opts: ImportOptions): { result?: ImportResult; errors: InputError[] } {
  const { file } = opts;
  const { format, capture, isOtlp, skippedSpans } = g;
  const errors: InputError[] = [];
  const dropped: DroppedSecret[] = [...g.dropped];
  const found: Dropped[] = [];
  /** Where a path inside a request's body is in the file: a capture's request says which line it came from. */
  const inFile = (r: Req, path: (string | number)[], key: boolean): InputError['pos'] => {
    const origin = r.origin?.(path);
    if (origin) return chunkPos(origin.chunk, origin.at, file, key);
    return chunkPos(r.chunk, isOtlp || r.assembled ? r.at : [...r.at, ...path], file, key);
  };
  // A capture's request repeats the earlier lines' messages: each secret is reported once, at its own line.
  const reported = new Set<string>();
  const payloads = reqs.map((r) => {
    const before = found.length;
    const body = scrub(r.body, found) as Obj;
    for (const d of found.slice(before)) {
      const path = d.where === 'the body' ? [] : d.where.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k));
      const key = d.what.startsWith('a credential field');
      if (!r.origin) {
        dropped.push(droppedAt(d, () => inFile(r, path, key)));
        continue;
      }
      const pos = inFile(r, path, key);
      const id = `${pos.line}:${pos.col}:${d.what}`;
      if (reported.has(id)) continue;
      reported.add(id);
      dropped.push({ ...d, pos });
    }
    return { format, ...(r.measured && { measured: r.measured }), ...(capture?.missing.length && { unrecorded: [...capture.missing] }), body };
  });
  payloads.forEach((p, i) => {
    const r = reqs[i]!;
    // The body as the requests fold checks it (its adapter's schema and rules); a body's path maps into the file's JSON.
    for (const issue of bodyIssues(p.format, p.body)) {
      const pos = inFile(r, issue.path, issue.message.startsWith('unknown field'));
      errors.push({ pos, message: `${FORMAT_TITLES[format!]} request: ${issue.message}`, fix: issue.fix });
    }
  });
  const t = labels(reqs, file, errors);
  if (errors.length) return { errors };
  const warnings = [...rejections(reqs, format, file), ...bodyFindings(reqs, format, file)];
  const firstAt = reqs.map((r) => r.timestampMs).filter((x): x is number => x !== undefined);
  const yaml = scenarioYaml({
    id: opts.id,
    file,
    format,
    formatTitle: FORMAT_TITLES[format],
    firstInstant: firstAt.length ? new Date(Math.min(...firstAt)).toISOString() : undefined,
    dropped: dropped.length,
    measured: reqs.filter((r) => r.measured).length,
    ...(opts.previous !== undefined && { previous: opts.previous }),
    ...(opts.conversation && { conversation: opts.conversation }),
    ...(capture && { capture: { title: capture.title, missing: capture.missing, notes: notesOf(reqs) } }),
    // Requests are numbered 1..N in the order sent (a reader's "request 15", not trace line 35); the line is each one's note.
    events: payloads.map((p, i) => ({ off: i + 1, t: t[i]!, payload: p, line: lineOf(reqs[i]!, file) })),
  });
  return {
    result: {
      yaml,
      format,
      requests: payloads.length,
      dropped,
      skippedSpans,
      leftOut: g.leftOut,
      detected: !opts.format,
      measured: reqs.filter((r) => r.measured).length,
      warnings,
    },
    errors,
  };
}
