/**
 * The requests of one conversation → its scenario (scenario.ts): secrets dropped (secrets.ts, each
 * reported once at its own line), each body checked by its provider adapter (the schema and rules
 * the `requests` fold checks it with, a problem located in the trace), timestamps turned into time
 * labels, requests the API would reject for their model warned about, and the YAML written — with
 * a sub-agent's link to its parent (`sharesCache:`) when the import made one (sub-agents.ts).
 */
import type { InputError } from '../scenarios/errors.ts';
import { formatElapsed } from '../scenarios/time.ts';
import { bodyIssues, modelOf, providerOf, type ProviderId as RequestFormat } from '../providers/registry.ts';
import type { ProviderAdapter } from '../providers/types.ts';
import { rejectedFeature } from '../economics/features.ts';
import { DEFAULT_ECONOMICS, profileFor } from '../economics/profiles.ts';
import { FORMAT_TITLES } from './detect.ts';
import type { Gathered } from './gather.ts';
import type { ImportResult } from './index.ts';
import { absentRequests, type LeftOut } from './left-out.ts';
import type { Conversation } from './log/group.ts';
import { chunkPos } from './read.ts';
import { droppedAt, fileOf, lineOf, type DroppedSecret, type Obj, type Req } from './request.ts';
import { scenarioYaml } from './scenario.ts';
import { scrub, type Dropped, type ScrubMemo } from './secrets.ts';

/** What writing one conversation's scenario needs. */
export interface ScenarioOptions {
  file: string;
  id: string;
  /** `--format` as given (absent: detected, said in the report). */
  format?: string;
  previous?: string;
  conversation?: Conversation;
  /** A sub-agent's link to its parent's scenario: the parent's event it starts at, and that event's time (its time zero). */
  link?: { scenario: string; at: number; startMs?: number };
  /** A sub-agent whose parent the capture does not hold: the parent's conversation (said in the intro). */
  parentMissing?: Conversation;
  /** What the import left out, when it differs from what gathering read past (a single import that leaves the sub-agents out). */
  leftOut?: LeftOut[];
}

/**
 * Time labels: elapsed since the earliest timestamp (or since `startMs`, a linked scenario's start:
 * the parent's event it shares the cache from); all or none of the requests must have one. A
 * capture's requests are in the order they were sent: one whose recorded time is before the
 * previous one's (a transcript writes some lines out of order, by a few milliseconds) is shown at
 * the previous one's time, and the intro says so (`clamped`).
 */
/** The largest time a JavaScript date holds (±100,000,000 days from 1970: ECMA-262's time values). */
const MAX_DATE_MS = 8.64e15;

function labels(reqs: Req[], file: string, errors: InputError[], startMs?: number): { t: string[]; clamped: { text: string; requests: number }[]; t0?: number } {
  // A time no date can hold (a nanosecond count read as milliseconds by a reader that did not know the unit): located, never Date's RangeError.
  const impossible = reqs.find((r) => r.timestampMs !== undefined && !(Math.abs(r.timestampMs) <= MAX_DATE_MS));
  if (impossible) {
    errors.push({
      pos: chunkPos(impossible.chunk, impossible.at, file),
      message: `this request's time (${impossible.timestampMs} ms since 1970) is not a date`,
      fix: 'write its time as an ISO 8601 instant, or as a count of seconds, milliseconds, microseconds or nanoseconds since 1970',
    });
    return { t: [], clamped: [] };
  }
  const withTime = reqs.filter((r) => r.timestampMs !== undefined);
  if (withTime.length && withTime.length < reqs.length) {
    const missing = reqs.find((r) => r.timestampMs === undefined)!;
    errors.push({
      pos: chunkPos(missing.chunk, missing.at, file),
      message: `this request has no timestamp, but line ${withTime[0]!.chunk.line}'s has`,
      fix: 'give every request a `timestamp` (wrap the body: {"timestamp": "…", "body": {…}}), or none',
    });
    return { t: [], clamped: [] };
  }
  if (!withTime.length) return { t: reqs.map(() => '0ms'), clamped: [] };
  let n = 0;
  let most = 0;
  let prev = Number.NEGATIVE_INFINITY;
  const at = reqs.map((r) => {
    let ms = r.timestampMs!;
    if (r.assembled && ms < prev) {
      n++;
      most = Math.max(most, prev - ms);
      ms = prev;
    }
    prev = ms;
    return ms;
  });
  const t0 = Math.min(startMs ?? Number.POSITIVE_INFINITY, ...at);
  const clamped = n
    ? [
        {
          text: `its recorded time is before the previous request’s (by ${formatElapsed(Math.round(most))} at most: the capture writes some lines out of order), so it is shown at the previous request’s time`,
          requests: n,
        },
      ]
    : [];
  return { t: at.map((ms) => formatElapsed(Math.round(ms - t0))), clamped, t0 };
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

/** What the capture does not record, for the scenario's intro: the capture's own list, and what every one of its requests says it lacks. */
function missingOf(missing: readonly string[], reqs: readonly Req[]): string[] {
  const every = (reqs[0]?.unrecorded ?? []).filter((u) => !missing.includes(u) && reqs.every((r) => r.unrecorded?.includes(u)));
  return [...missing, ...every];
}

/** What the page says about some of a capture's requests (their `note`), with how many it concerns. */
function notesOf(reqs: readonly Req[]): { text: string; requests: number }[] {
  const by = new Map<string, number>();
  for (const r of reqs) if (r.note) by.set(r.note, (by.get(r.note) ?? 0) + 1);
  return [...by].map(([text, requests]) => ({ text, requests }));
}

/** The requests of one conversation → its scenario: secrets dropped, bodies checked, time labels, YAML. */
export function toScenario(g: Gathered, reqs: Req[], opts: ScenarioOptions): { result?: ImportResult; errors: InputError[] } {
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
  // A capture's requests share their items: each is scrubbed once (and its copy shared, so later stages compare by identity).
  const memo: ScrubMemo = new WeakMap();
  const payloads = reqs.map((r) => {
    const before = found.length;
    const body = scrub(r.body, found, [], memo) as Obj;
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
    return {
      format,
      ...(r.measured && { measured: r.measured }),
      ...(r.providerMiss && { providerMiss: r.providerMiss }),
      ...((capture?.missing.length || r.unrecorded?.length) && { unrecorded: [...new Set([...(capture?.missing ?? []), ...(r.unrecorded ?? [])])] }),
      body,
    };
  });
  payloads.forEach((p, i) => {
    const r = reqs[i]!;
    // The body as the requests fold checks it (its adapter's schema and rules); a body's path maps into the file's JSON.
    for (const issue of bodyIssues(p.format, p.body)) {
      const pos = inFile(r, issue.path, issue.message.startsWith('unknown field'));
      errors.push({ pos, message: `${FORMAT_TITLES[format!]} request: ${issue.message}`, fix: issue.fix });
    }
  });
  const { t, clamped, t0 } = labels(reqs, file, errors, opts.link?.startMs);
  if (errors.length) return { errors };
  const warnings = [...rejections(reqs, format, file), ...bodyFindings(reqs, format, file)];
  const firstAt = reqs.map((r) => r.timestampMs).filter((x): x is number => x !== undefined);
  // Requests of this conversation the capture left out although the provider billed them: the intro says so.
  const absent = absentRequests(opts.leftOut ?? g.leftOut, opts.conversation);
  const yaml = scenarioYaml({
    id: opts.id,
    file,
    format,
    formatTitle: FORMAT_TITLES[format],
    firstInstant: firstAt.length ? new Date(Math.min(...firstAt)).toISOString() : undefined,
    // The real instant the labels count from: the requests are priced at the prices in force then.
    ...(t0 !== undefined && { startedAt: new Date(t0).toISOString() }),
    dropped: dropped.length,
    measured: reqs.filter((r) => r.measured).length,
    ...(opts.previous !== undefined && { previous: opts.previous }),
    ...(opts.conversation && { conversation: opts.conversation }),
    ...(capture && { capture: { title: capture.title, missing: missingOf(capture.missing, reqs), notes: [...notesOf(reqs), ...clamped] } }),
    ...(opts.link && { sharesCache: { scenario: opts.link.scenario, at: opts.link.at } }),
    ...(opts.parentMissing && { parentMissing: { by: opts.parentMissing.by, key: opts.parentMissing.key } }),
    ...(absent.length && { absent: absent.map(({ count, what, why }) => ({ count, what, why })) }),
    // Requests are numbered 1..N in the order sent (a reader's "request 15", not trace line 35); the line is each one's note.
    events: payloads.map((p, i) => ({ off: i + 1, t: t[i]!, payload: p, line: lineOf(reqs[i]!, file), ...(fileOf(reqs[i]!) !== undefined && { file: fileOf(reqs[i]!) }) })),
  });
  return {
    result: {
      yaml,
      format,
      requests: payloads.length,
      dropped,
      skippedSpans,
      leftOut: opts.leftOut ?? g.leftOut,
      ...(opts.link && { sharesCache: { scenario: opts.link.scenario, at: opts.link.at } }),
      detected: !opts.format,
      measured: reqs.filter((r) => r.measured).length,
      warnings,
    },
    errors,
  };
}
