/**
 * One scenario's YAML → a draft scenario: its fields, its events as written (times resolved,
 * before the fold expands them), annotations, `compare` and `expect` — every file-local error
 * collected. The structure is checked by the zod schemas in schema.ts through the same
 * path → message → fix translation fold payloads use; this file adds the position of each
 * problem and the rules a schema cannot say. The markdown interop format (markdown.ts) reads its
 * events.yaml fence with readDraft too.
 * Checks that need the fold or the whole corpus (expansion, ids, bases) live in load.ts.
 */
import type * as z from 'zod';
import { isFieldNameIssue, schemaIssues } from '../folds/validate.ts';
import type { InputError, SourcePos } from './errors.ts';
import type { Annotation, Comparison, Deployment, Expectation, MeasuredDiffLimit, ScenarioEvent, SharedCache } from './model.ts';
import {
  annotationSchema,
  compareSchema,
  deploySchema,
  eventSchema,
  expectSchema,
  ID_PATTERN,
  scenarioFileSchema,
  sharesCacheSchema,
  type AnnotationEntry,
  type EventEntry,
} from './schema.ts';
import { readRequestRef } from './limits.ts';
import { YamlSource, type Path } from './source.ts';
import { instant, readTimeLabel, TIME_LABEL_HELP } from './time.ts';

export { ID_PATTERN } from './schema.ts';

/**
 * An event while the corpus loads: a scenario event that can still say where a path inside its
 * payload is written (for payload errors). Only the loader holds these: `locate` keeps the file's
 * text and outline alive, so a loaded scenario's events (model.ts) are without it — they are
 * freed once the corpus is checked, not carried through the build.
 */
export interface WrittenEvent extends ScenarioEvent {
  locate(path: (string | number)[]): SourcePos;
}

export interface ScenarioDraft {
  file: string;
  stem: string;
  id?: string;
  idPos: SourcePos;
  title: string;
  intro: string;
  fold?: string;
  foldPos: SourcePos;
  options: Record<string, unknown>;
  optionsPos: SourcePos;
  /** Where a path inside `options:` is written (for fold option errors). */
  locateOption(path: (string | number)[]): SourcePos;
  base?: string;
  basePos: SourcePos;
  /** The events as written: one per entry, before the fold's `expand` and `derive` hooks. */
  events: WrittenEvent[];
  annotations: Annotation[];
  compare?: Comparison & { foldGiven: boolean; locate(path: (string | number)[]): SourcePos };
  expect?: Expectation;
  deploy?: Omit<Deployment, 'fold'> & { fold?: string; locate(path: (string | number)[]): SourcePos; atPos: SourcePos };
  sharesCache?: SharedCache;
  /** `startedAt:` the real instant the time labels count from (ISO, normalised to UTC). */
  startedAt?: string;
  opens?: number;
  opensPos?: SourcePos;
  pos: SourcePos;
}

export interface ParseOptions {
  timeZero: string;
}

/** "@N" → N, within the largest offset a scenario may use (limits.ts); else what is wrong. */
function refOf(text: string): { offset: number } | { problem: string } {
  return readRequestRef(text);
}

/** Parses one native YAML scenario file; returns the draft (undefined when it is unusable) and its errors. */
export function parseYamlScenario(file: string, stem: string, text: string, opts: ParseOptions): { draft?: ScenarioDraft; errors: InputError[] } {
  const errors: InputError[] = [];
  const src = new YamlSource(file, text);
  if (src.errors.length) return { errors: src.errors };
  const root = src.value;
  if (!isRecord(root)) {
    errors.push({
      pos: src.pos(),
      message: 'a scenario file must be a YAML mapping',
      fix: 'start the file with `id:`, `title:` and `events:` keys (see scenarios/ for examples)',
    });
    return { errors };
  }
  const draft = readDraft(src, scenarioFileSchema, 'the scenario', stem, opts, errors);
  draft.title = typeof root.title === 'string' ? root.title : '';
  draft.intro = typeof root.intro === 'string' ? root.intro : '';
  if (Array.isArray(root.annotations)) draft.annotations = readAnnotations(src, ['annotations'], errors);
  return { draft, errors };
}

/** A YAML mapping as JavaScript: an object that is not a list. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reports `schema`'s issues with the value at `path` at their positions in `src`. */
export function check(src: YamlSource, path: Path, schema: z.ZodType, where: string, errors: InputError[]): boolean {
  const issues = schemaIssues(schema, src.valueAt(path), { where });
  // A field-name problem points at the key (or, missing, at its mapping); a bad value at the value.
  for (const i of issues) errors.push({ pos: isFieldNameIssue(i) ? src.keyPos([...path, ...i.path]) : src.pos([...path, ...i.path]), message: i.message, fix: i.fix });
  return issues.length === 0;
}

/** The value at `path` unless it is absent or null. */
function given(src: YamlSource, path: Path): unknown {
  const v = src.valueAt(path);
  return v === null ? undefined : v;
}

/**
 * Fields both syntaxes share — id, fold, options, base, compare, expect, events — from a mapping
 * checked against `schema`. Well-formed fields are kept even when others are wrong, so one mistake
 * never hides the rest of the file's errors.
 */
export function readDraft(src: YamlSource, schema: z.ZodType, where: string, stem: string, opts: ParseOptions, errors: InputError[]): ScenarioDraft {
  const v = src.value as Record<string, unknown>;
  check(src, [], schema, where, errors);
  const str = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const posOf = (k: string): SourcePos => src.fieldPos([k]);
  const id = str('id');
  if (id !== undefined && !ID_PATTERN.test(id)) {
    // Suggest the id it was probably meant to be: lowercase, other characters as `-`.
    const fixed = id
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^[-_]+|-+$/g, '');
    const rule = 'ids use lowercase letters, digits, `-` and `_`, starting with a letter or digit';
    errors.push({
      pos: posOf('id'),
      message: `invalid id ${JSON.stringify(id)}`,
      fix: ID_PATTERN.test(fixed) ? `write \`id: ${fixed}\` (${rule})` : `${rule} (e.g. \`birth-window\`)`,
    });
  }
  const options = isRecord(v.options) ? v.options : {};
  const draft: ScenarioDraft = {
    file: src.file,
    stem,
    id: id !== undefined && ID_PATTERN.test(id) ? id : undefined,
    idPos: posOf('id'),
    title: '',
    intro: '',
    fold: str('fold'),
    foldPos: posOf('fold'),
    options,
    optionsPos: posOf('options'),
    locateOption: isRecord(v.options) ? locateIn(src, ['options']) : () => posOf('options'),
    base: str('base'),
    basePos: posOf('base'),
    events: [],
    annotations: [],
    pos: src.pos(),
  };
  if (given(src, ['compare']) !== undefined) draft.compare = readCompare(src, errors);
  if (given(src, ['expect']) !== undefined) draft.expect = readExpect(src, errors);
  if (given(src, ['deploy']) !== undefined) draft.deploy = readDeploy(src, errors);
  if (given(src, ['sharesCache']) !== undefined) draft.sharesCache = readSharesCache(src, errors);
  readOpens(src, draft, errors);
  const startedAt = readStartedAt(src, errors);
  if (startedAt) draft.startedAt = startedAt;
  // Without a usable id the events are still checked (under the file's stem), so a missing id never
  // hides the file's other errors.
  if (Array.isArray(v.events)) draft.events = readEvents(src, v.events, draft.id ?? stem, startedAt ? { ...opts, timeZero: startedAt } : opts, errors);
  return draft;
}

/**
 * Where a path inside the value at `at` is written (a fold option's or a payload's problem): the
 * value itself for the empty path, else the key the path ends on (or the mapping that lacks it).
 */
const locateIn =
  (src: YamlSource, at: Path) =>
  (path: (string | number)[]): SourcePos =>
    path.length ? src.keyPos([...at, ...path]) : src.pos(at);

function readCompare(src: YamlSource, errors: InputError[]): ScenarioDraft['compare'] {
  const at = ['compare'];
  if (!check(src, at, compareSchema, '`compare`', errors) || !isRecord(src.valueAt(at))) return undefined;
  const v = src.valueAt(at) as { label: string; fold?: string; options?: Record<string, unknown> | null };
  return {
    label: v.label,
    fold: v.fold ?? '',
    foldGiven: v.fold !== undefined,
    options: v.options ?? {},
    pos: src.pos(at),
    locate: isRecord(v.options) ? locateIn(src, ['compare', 'options']) : () => src.pos(at),
  };
}

/** `deploy: {at: "@N", options?, fold?}` — a fold change landing mid-stream. */
function readDeploy(src: YamlSource, errors: InputError[]): ScenarioDraft['deploy'] {
  const here = ['deploy'];
  if (!check(src, here, deploySchema, '`deploy`', errors) || !isRecord(src.valueAt(here))) return undefined;
  const v = src.valueAt(here) as { at: string; options?: Record<string, unknown> | null; fold?: string };
  const atPos = src.pos(['deploy', 'at']);
  const at = readAt(v.at, atPos, 'deploy', 'write e.g. `at: "@40"` (quoted: @ cannot start a plain YAML value)', errors);
  if (at === undefined) return undefined;
  return {
    at,
    options: v.options ?? {},
    ...(v.fold !== undefined && { fold: v.fold }),
    pos: src.pos(here),
    atPos,
    locate: isRecord(v.options) ? locateIn(src, ['deploy', 'options']) : () => src.pos(here),
  };
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `startedAt:` an ISO 8601 instant with its offset (a date alone or a local time would be read in the machine's zone). */
function readStartedAt(src: YamlSource, errors: InputError[]): string | undefined {
  const v = given(src, ['startedAt']);
  if (v === undefined) return undefined;
  const ms = typeof v === 'string' && INSTANT.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isFinite(ms)) return new Date(ms).toISOString();
  errors.push({
    pos: src.pos(['startedAt']),
    message: `\`startedAt\` must be an ISO 8601 instant with its offset, got ${JSON.stringify(typeof v === 'object' ? src.slice(['startedAt']) : v)}`,
    fix: "write the instant the first event happened, e.g. `startedAt: 2026-11-30T09:12:00Z` (Z, or an offset such as +01:00), or remove it to use the site's illustrative clock",
  });
  return undefined;
}

/** `sharesCache: {scenario, at: "@N"}` — whether the id and the event exist is checked with the whole corpus (load.ts). */
function readSharesCache(src: YamlSource, errors: InputError[]): SharedCache | undefined {
  const here = ['sharesCache'];
  if (!check(src, here, sharesCacheSchema, '`sharesCache`', errors) || !isRecord(src.valueAt(here))) return undefined;
  const v = src.valueAt(here) as { scenario: string; at: string };
  const atPos = src.pos([...here, 'at']);
  const scenarioPos = src.pos([...here, 'scenario']);
  const at = readAt(v.at, atPos, 'sharesCache', 'write e.g. `at: "@3"`: the event of the other scenario this one starts at (quoted: @ cannot start a plain YAML value)', errors);
  if (at === undefined) return undefined;
  return { scenario: v.scenario, at, pos: src.pos(here), scenarioPos, atPos };
}

/** The offset an `at: "@N"` field of `block` names; undefined after reporting what is wrong with it. */
function readAt(text: string, pos: SourcePos, block: string, fix: string, errors: InputError[]): number | undefined {
  const ref = refOf(text);
  if (!('problem' in ref)) return ref.offset;
  errors.push({
    pos,
    message: /^@\d+$/.test(text) ? `\`${block}.at\` ${ref.problem}` : `\`${block}.at\` must name an event as "@<offset>", got ${JSON.stringify(text)}`,
    fix,
  });
  return undefined;
}

/**
 * `opens: "@N"` — the request the scenario's page opens on (kept apart from the rest of
 * the parser). Whether @N is one of the scenario's own requests is checked when it is rendered.
 */
function readOpens(src: YamlSource, draft: ScenarioDraft, errors: InputError[]): void {
  const v = src.valueAt(['opens']);
  if (typeof v !== 'string') return; // the schema reports a non-string
  const ref = refOf(v);
  if ('problem' in ref) {
    errors.push({
      pos: src.pos(['opens']),
      message: `\`opens\` names a request as "@<offset>", got ${JSON.stringify(v)}`,
      fix: 'write e.g. `opens: "@42"` (quoted: @ cannot start a plain YAML value)',
    });
    return;
  }
  draft.opens = ref.offset;
  draft.opensPos = src.pos(['opens']);
}

/** A list of requests as "@N" strings (`busts:`, `cached:`): offsets and where each is written; undefined after an error. */
function readRequestList(src: YamlSource, list: Path, name: string, errors: InputError[]): { offsets: number[]; pos: SourcePos[] } | undefined {
  const offsets: number[] = [];
  const pos: SourcePos[] = [];
  for (const [k, value] of (src.valueAt(list) as unknown[]).entries()) {
    const item = [...list, k];
    const ref = typeof value === 'string' ? refOf(value) : { problem: '' };
    if ('problem' in ref) {
      const bad = typeof value !== 'string' || !/^@\d+$/.test(value);
      errors.push({
        pos: src.pos(item),
        message: bad ? `\`${name}\` entries name requests as "@<offset>", got ${JSON.stringify(value)}` : `\`${name}\` entry ${ref.problem}`,
        fix: `write e.g. \`${name}: ["@26"]\` (quoted: @ cannot start a plain YAML value)`,
      });
      return undefined;
    }
    offsets.push(ref.offset);
    pos.push(src.pos(item));
  }
  return { offsets, pos };
}

/** `expect: {busts: ["@N", …], maxInputTokens?: N, cached?: ["@N", …], maxMeasuredDiff?: {field: N | "N%"}}` — the scenario's promise about the cache. */
function readExpect(src: YamlSource, errors: InputError[]): Expectation | undefined {
  const here = ['expect'];
  if (!check(src, here, expectSchema, '`expect`', errors) || !isRecord(src.valueAt(here))) return undefined;
  const v = src.valueAt(here) as { busts: unknown[]; cached?: unknown[]; maxInputTokens?: number; maxMeasuredDiff?: Record<string, number | string> };
  const busts = readRequestList(src, [...here, 'busts'], 'busts', errors);
  if (!busts) return undefined;
  const cached = v.cached ? readRequestList(src, [...here, 'cached'], 'cached', errors) : undefined;
  if (v.cached && !cached) return undefined;
  const max = v.maxInputTokens;
  const diff = v.maxMeasuredDiff;
  const limits: MeasuredDiffLimit[] = [];
  if (isRecord(diff))
    for (const [key, value] of Object.entries(diff)) {
      const field = key as MeasuredDiffLimit['field'];
      const pos = src.pos([...here, 'maxMeasuredDiff', key]);
      limits.push(typeof value === 'number' ? { field, tokens: value, text: String(value), pos } : { field, percent: Number.parseFloat(value), text: value, pos });
    }
  return {
    busts: busts.offsets,
    bustPos: busts.pos,
    bustsPos: src.pos([...here, 'busts']),
    pos: src.pos(here),
    ...(max !== undefined && { maxInputTokens: max, maxInputTokensPos: src.pos([...here, 'maxInputTokens']) }),
    ...(diff !== undefined && { maxMeasuredDiff: limits, maxMeasuredDiffPos: src.pos([...here, 'maxMeasuredDiff']) }),
    ...(v.cached && cached && { cached: cached.offsets, cachedPos: cached.pos, cachedListPos: src.pos([...here, 'cached']) }),
  };
}

/** The events list, entry by entry: its values, and where each is written. */
function readEvents(src: YamlSource, values: unknown[], scenarioId: string, opts: ParseOptions, errors: InputError[]): WrittenEvent[] {
  const out: WrittenEvent[] = [];
  for (const [k, value] of values.entries()) {
    const item = ['events', k];
    if (!isRecord(value)) {
      errors.push({ pos: src.pos(item), message: 'an event must be a mapping', fix: 'write `- off: <offset>` then `t:`, `type:` and `payload:` on the following lines' });
      continue;
    }
    const e = value as unknown as EventEntry;
    if (!check(src, item, eventSchema, 'an event', errors)) continue;
    const at = (k: string): SourcePos => src.pos([...item, k]);
    const label = readTimeLabel(e.t);
    if (!('ms' in label)) {
      errors.push({ pos: at('t'), message: `unparseable time label ${JSON.stringify(e.t)}: ${label.problem}`, fix: TIME_LABEL_HELP });
      continue;
    }
    out.push({
      offset: e.off,
      type: e.type,
      t: e.t,
      elapsedMs: label.ms,
      createdAt: instant(opts.timeZero, label.ms),
      payload: e.payload ?? {},
      scenarioId,
      pos: src.pos(item),
      offPos: at('off'),
      tPos: at('t'),
      typePos: at('type'),
      source: src.slice(item),
      ...(e.note !== undefined && { note: e.note }),
      locate: e.payload == null ? () => src.pos(item) : locateIn(src, [...item, 'payload']),
    });
  }
  return out;
}

/** Annotation entries (the native `annotations:` list or the markdown `annotations.yaml` fence). */
export function readAnnotations(src: YamlSource, list: Path, errors: InputError[]): Annotation[] {
  const out: Annotation[] = [];
  for (const [k, value] of (src.valueAt(list) as unknown[]).entries()) {
    const item = [...list, k];
    if (!isRecord(value)) {
      errors.push({ pos: src.pos(item), message: 'an annotation must be a mapping', fix: 'write `- request: "@N"`, `find: "…"` and `comment: "…"`' });
      continue;
    }
    if (!check(src, item, annotationSchema, 'an annotation', errors)) continue;
    const a = value as unknown as AnnotationEntry;
    const at = (k: string): SourcePos => src.pos([...item, k]);
    const ref = refOf(a.request);
    if ('problem' in ref) {
      errors.push({
        pos: at('request'),
        message: /^@\d+$/.test(a.request) ? `\`request\` ${ref.problem}` : `\`request\` must name a request as "@<offset>", got ${JSON.stringify(a.request)}`,
        fix: 'write e.g. `request: "@26"` (quoted: @ cannot start a plain YAML value)',
      });
      continue;
    }
    out.push({ request: ref.offset, find: a.find, comment: a.comment, pos: at('request'), findPos: at('find'), ...(a.occurrence !== undefined && { occurrence: a.occurrence }) });
  }
  return out;
}
