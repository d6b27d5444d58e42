/**
 * The cache promises `prompt-fold assert` and the test API (`prompt-fold-explainer/assert`) check:
 * the scenario `expect:` vocabulary (busts, cached, maxInputTokens, maxMeasuredDiff — the same
 * words, the same meaning: src/economics/expect.ts, expect-cached.ts, measured.ts) plus what a team
 * promises of traffic it did not write as a scenario: at least N tokens or X % read from the cache
 * from a request on (`minCached`), and a cost per conversation (`maxCostPerConversation`).
 *
 * Read from a YAML file (every entry keeps its file:line:col, so a broken promise points at the
 * line that made it, and a bad entry is an input error there with the fix) or from a plain object
 * (the test API: no positions). One parser for both, so the two cannot drift.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { InputError, SourcePos } from '../scenarios/errors.ts';
import { withoutBom } from '../scenarios/source.ts';

/** The expectations as a test or a file writes them. Request numbers are `"@N"` (or N): the N-th request sent, as `assert` prints them. */
export interface CacheExpectations {
  /** Exactly these requests bust the cached prefix (their ✂ line sits above the end of the previous request); `[]`: none does. */
  busts?: readonly (number | string)[];
  /** Exactly these requests read tokens from the provider cache. */
  cached?: readonly (number | string)[];
  /** From request `from` on (default: the second), every request reads at least `tokens` tokens, or `percent` % of its input, from the cache. */
  minCached?: { from?: number | string; tokens?: number; percent?: number | string };
  /** Each conversation costs at most this many US dollars (`0.05` or `"$0.05"`), as billed where the capture carries the bill. */
  maxCostPerConversation?: number | string;
  /** The bill stays within this of the model, per figure: a percentage of the billed figure (`"2%"`) or tokens (`50`). */
  maxMeasuredDiff?: Partial<Record<MeasuredField, number | string>>;
  /** No request has more input tokens than this. */
  maxInputTokens?: number;
}

export const MEASURED_FIELDS = ['inputTokens', 'cachedTokens', 'cacheWriteTokens'] as const;
export type MeasuredField = (typeof MEASURED_FIELDS)[number];

/** Where an expectation was written (absent for the test API's objects). */
export type At = SourcePos | null;

export interface Expectations {
  busts?: { offsets: number[]; at: At; each: At[] };
  cached?: { offsets: number[]; at: At; each: At[] };
  minCached?: { from: number | null; tokens?: number; percent?: number; at: At };
  maxCostPerConversation?: { usd: number; text: string; at: At };
  maxMeasuredDiff?: { field: MeasuredField; tokens?: number; percent?: number; text: string; at: At }[];
  maxInputTokens?: { tokens: number; at: At };
}

const KEYS = ['busts', 'cached', 'minCached', 'maxCostPerConversation', 'maxMeasuredDiff', 'maxInputTokens'] as const;

/** A value and where it was written: the object's keys, or the YAML node's position. */
interface Source {
  /** Position of the value at this path (null: not known). */
  at(path: readonly (string | number)[]): At;
  /** Position of the key at this path (a YAML mapping key; else the value's). */
  keyAt(path: readonly (string | number)[]): At;
}

const NO_POSITIONS: Source = { at: () => null, keyAt: () => null };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** `"@3"`, `3` → 3; anything else undefined. */
function requestNumber(v: unknown): number | undefined {
  if (isCount(v)) return v;
  if (typeof v === 'string' && /^@\d+$/.test(v.trim())) return Number(v.trim().slice(1));
  return undefined;
}

/** `"12%"`, `"12 %"` → 12; a plain number is not a percentage here. */
function percentOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100) return v;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(v);
  return m && Number(m[1]) <= 100 ? Number(m[1]) : undefined;
}

function usdOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*\$?\s*(\d+(?:\.\d+)?)\s*$/.exec(v);
  return m ? Number(m[1]) : undefined;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the plain value of an expectations document; problems are pushed, located where the source knows. */
function fromValue(value: unknown, src: Source, file: string, problems: InputError[]): Expectations {
  const out: Expectations = {};
  const fallback: SourcePos = { file, line: 1, col: 1 };
  const pos = (path: (string | number)[], key = false): SourcePos => (key ? src.keyAt(path) : src.at(path)) ?? fallback;
  const problem = (path: (string | number)[], message: string, fix: string, key = false) => problems.push({ pos: pos(path, key), message, fix });
  if (value === null || value === undefined) return out;
  if (!isObj(value)) {
    problem(
      [],
      'the expectations must be a mapping (busts, cached, minCached, maxCostPerConversation, maxMeasuredDiff, maxInputTokens)',
      'write e.g. `busts: []` and `minCached: {from: "@2", percent: 50}`',
    );
    return out;
  }
  for (const k of Object.keys(value)) {
    if (!(KEYS as readonly string[]).includes(k)) {
      // An `expect:` block copied from a scenario is accepted as it is.
      if (k === 'expect' && Object.keys(value).length === 1 && isObj(value.expect))
        return fromValue(value.expect, { at: (p) => src.at(['expect', ...p]), keyAt: (p) => src.keyAt(['expect', ...p]) }, file, problems);
      problem([k], `unknown expectation \`${k}\``, `use one of ${KEYS.join(', ')}`, true);
    }
  }
  for (const list of ['busts', 'cached'] as const) {
    const v = value[list];
    if (v === undefined) continue;
    if (!Array.isArray(v)) {
      problem([list], `\`${list}\` must be a list of requests, e.g. ["@3"] (or [] for none)`, `write ${list}: ["@3"], the request numbers assert prints`);
      continue;
    }
    const offsets: number[] = [];
    const each: At[] = [];
    v.forEach((x, i) => {
      const n = requestNumber(x);
      if (n === undefined) problem([list, i], `\`${list}\` entry ${JSON.stringify(x)} is not a request number`, 'write "@N": the N-th request sent (the numbers assert prints)');
      else {
        offsets.push(n);
        each.push(src.at([list, i]));
      }
    });
    out[list] = { offsets, at: src.at([list]), each };
  }
  if (value.minCached !== undefined) {
    const m = value.minCached;
    if (!isObj(m))
      problem(['minCached'], '`minCached` must be a mapping: {from: "@N", tokens: N} or {from: "@N", percent: "X%"}', 'write e.g. minCached: {from: "@2", percent: "80%"}');
    else {
      for (const k of Object.keys(m))
        if (!['from', 'tokens', 'percent'].includes(k)) problem(['minCached', k], `unknown field \`${k}\` in minCached`, 'use from, tokens or percent', true);
      const from = m.from === undefined ? null : requestNumber(m.from);
      if (from === undefined)
        problem(['minCached', 'from'], `minCached.from ${JSON.stringify(m.from)} is not a request number`, 'write "@N" (or leave it out: from the second request on)');
      const tokens = m.tokens === undefined ? undefined : isCount(m.tokens) ? m.tokens : null;
      const percent = m.percent === undefined ? undefined : (percentOf(m.percent) ?? null);
      if (tokens === null) problem(['minCached', 'tokens'], `minCached.tokens must be a whole number of tokens, got ${JSON.stringify(m.tokens)}`, 'write e.g. tokens: 1024');
      if (percent === null)
        problem(['minCached', 'percent'], `minCached.percent must be a percentage from 0 to 100, got ${JSON.stringify(m.percent)}`, 'write e.g. percent: "80%"');
      if (tokens === undefined && percent === undefined) problem(['minCached'], 'minCached names neither `tokens` nor `percent`', 'add tokens: N or percent: "X%" (or both)');
      if (from !== undefined && tokens !== null && percent !== null && (tokens !== undefined || percent !== undefined))
        out.minCached = { from, ...(tokens !== undefined && { tokens }), ...(percent !== undefined && { percent }), at: src.at(['minCached']) };
    }
  }
  if (value.maxCostPerConversation !== undefined) {
    const usd = usdOf(value.maxCostPerConversation);
    if (usd === undefined)
      problem(
        ['maxCostPerConversation'],
        `maxCostPerConversation must be an amount in US dollars, got ${JSON.stringify(value.maxCostPerConversation)}`,
        'write e.g. maxCostPerConversation: "$0.05"',
      );
    else out.maxCostPerConversation = { usd, text: String(value.maxCostPerConversation), at: src.at(['maxCostPerConversation']) };
  }
  if (value.maxMeasuredDiff !== undefined) {
    const m = value.maxMeasuredDiff;
    if (!isObj(m))
      problem(['maxMeasuredDiff'], '`maxMeasuredDiff` must be a mapping of figures to limits', 'write e.g. maxMeasuredDiff: {cachedTokens: "2%", cacheWriteTokens: 50}');
    else {
      out.maxMeasuredDiff = [];
      for (const [k, v] of Object.entries(m)) {
        if (!(MEASURED_FIELDS as readonly string[]).includes(k)) {
          problem(['maxMeasuredDiff', k], `unknown figure \`${k}\` in maxMeasuredDiff`, `use ${MEASURED_FIELDS.join(', ')}`, true);
          continue;
        }
        const tokens = isCount(v) ? v : undefined;
        const percent = typeof v === 'string' ? percentOf(v) : undefined;
        if (tokens === undefined && percent === undefined)
          problem(
            ['maxMeasuredDiff', k],
            `maxMeasuredDiff.${k} must be tokens (50) or a percentage of the billed figure ("2%"), got ${JSON.stringify(v)}`,
            'write e.g. "2%" or 50',
          );
        else
          out.maxMeasuredDiff.push({
            field: k as MeasuredField,
            ...(tokens !== undefined && { tokens }),
            ...(percent !== undefined && { percent }),
            text: String(v),
            at: src.at(['maxMeasuredDiff', k]),
          });
      }
    }
  }
  if (value.maxInputTokens !== undefined) {
    if (!isCount(value.maxInputTokens))
      problem(['maxInputTokens'], `maxInputTokens must be a whole number of tokens, got ${JSON.stringify(value.maxInputTokens)}`, 'write e.g. maxInputTokens: 20000');
    else out.maxInputTokens = { tokens: value.maxInputTokens, at: src.at(['maxInputTokens']) };
  }
  return out;
}

/** The expectations of a test (a plain object): problems are returned, unlocated (the test's own code holds them). */
export function expectationsOf(value: CacheExpectations, problems: InputError[], label = 'expectations'): Expectations {
  return fromValue(value, NO_POSITIONS, label, problems);
}

/** An expectations file (YAML): every entry located, every problem at its line. */
export function parseExpectations(written: string, file: string, problems: InputError[]): Expectations {
  const text = withoutBom(written); // saved with a byte order mark: the same file, its columns the same
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const toPos = (offset: number): SourcePos => {
    const { line, col } = lc.linePos(offset);
    return { file, line, col };
  };
  if (doc.errors.length) {
    for (const e of doc.errors)
      problems.push({
        pos: toPos(e.pos[0]),
        message: `not valid YAML: ${e.message.split('\n')[0]}`,
        fix: 'fix the YAML syntax (an expectations file is a mapping like `busts: []`)',
      });
    return {};
  }
  const find = (path: readonly (string | number)[], key: boolean): At => {
    let node: unknown = doc.contents;
    let keyNode: unknown;
    for (const p of path) {
      if (isMap(node)) {
        const pair = node.items.find((it) => isScalar(it.key) && it.key.value === p);
        if (!pair) return null;
        keyNode = pair.key;
        node = pair.value;
      } else if (isSeq(node) && typeof p === 'number') {
        keyNode = undefined;
        node = node.items[p];
      } else return null;
    }
    const n = (key && keyNode ? keyNode : node) as Node | undefined;
    return n?.range ? toPos(n.range[0]) : null;
  };
  return fromValue(doc.toJS(), { at: (p) => find(p, false), keyAt: (p) => find(p, true) }, file, problems);
}
