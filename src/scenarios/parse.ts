/**
 * One scenario's YAML → a draft scenario: its fields, its events as written (times resolved,
 * before the fold expands them), annotations, `compare` and `expect` — every file-local error
 * collected. The structure is checked by the zod schemas in schema.ts through the same
 * path → message → fix translation fold payloads use; this file adds the position of each
 * problem and the rules a schema cannot say. The markdown interop format (markdown.ts) reads its
 * events.yaml fence with readDraft too.
 * Checks that need the fold or the whole corpus (expansion, ids, bases) live in load.ts.
 */
import { isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
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
import { nodeAt, YamlSource } from './source.ts';
import { instant, readTimeLabel, TIME_LABEL_HELP } from './time.ts';

export { ID_PATTERN } from './schema.ts';

/**
 * An event while the corpus loads: a scenario event that can still say where a path inside its
 * payload is written (for payload errors). Only the loader holds these: `locate` keeps the file's
 * whole YAML tree alive, so a loaded scenario's events (model.ts) are without it — the trees are
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
  const root = src.doc.contents;
  if (!isMap(root)) {
    errors.push({
      pos: src.pos(root),
      message: 'a scenario file must be a YAML mapping',
      fix: 'start the file with `id:`, `title:` and `events:` keys (see scenarios/ for examples)',
    });
    return { errors };
  }
  const draft = readDraft(src, root, scenarioFileSchema, 'the scenario', stem, opts, errors);
  // The two strings, not the whole file as JS again (readDraft already made that once).
  const title = root.get('title');
  const intro = root.get('intro');
  draft.title = typeof title === 'string' ? title : '';
  draft.intro = typeof intro === 'string' ? intro : '';
  const annotations = child(root, 'annotations');
  if (annotations && isSeq(annotations)) draft.annotations = readAnnotations(src, annotations.items as Node[], errors);
  return { draft, errors };
}

/** Reports `schema`'s issues with `value` (the JS of `node`, made here unless the caller has it) at their positions in `src`. */
export function check(src: YamlSource, node: Node, schema: z.ZodType, where: string, errors: InputError[], value: unknown = node.toJS(src.doc)): boolean {
  const issues = schemaIssues(schema, value, { where });
  // A field-name problem points at the key (or, missing, at its mapping); a bad value at the value.
  const at = (i: (typeof issues)[number]): Node | undefined => (isFieldNameIssue(i) ? nodeAt(node, i.path) : ((node as YAMLMap).getIn?.(i.path, true) as Node | undefined));
  for (const i of issues) errors.push({ pos: src.pos(at(i) ?? nodeAt(node, i.path) ?? node), message: i.message, fix: i.fix });
  return issues.length === 0;
}

/** The value node under `key` of a mapping (undefined when absent or null). */
function child(map: YAMLMap, key: string): Node | undefined {
  const n = map.get(key, true) as Node | undefined;
  return n === undefined || n === null || (isScalar(n) && n.value === null) ? undefined : n;
}

/**
 * Fields both syntaxes share — id, fold, options, base, compare, expect, events — from a mapping
 * checked against `schema`. Well-formed fields are kept even when others are wrong, so one mistake
 * never hides the rest of the file's errors.
 */
export function readDraft(src: YamlSource, map: YAMLMap, schema: z.ZodType, where: string, stem: string, opts: ParseOptions, errors: InputError[]): ScenarioDraft {
  // The mapping as JS once, for the check and the fields (it is the whole file: every event).
  const v = map.toJS(src.doc) as Record<string, unknown>;
  check(src, map, schema, where, errors, v);
  const str = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const posOf = (k: string): SourcePos => src.pos(child(map, k) ?? nodeAt(map, [k]) ?? map);
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
  const optionsNode = child(map, 'options');
  const options = optionsNode && isMap(optionsNode) ? (optionsNode.toJS(src.doc) as Record<string, unknown>) : {};
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
    locateOption: (path) => (optionsNode ? src.pos(nodeAt(optionsNode, path)) : posOf('options')),
    base: str('base'),
    basePos: posOf('base'),
    events: [],
    annotations: [],
    pos: src.pos(map),
  };
  const cmp = child(map, 'compare');
  if (cmp) draft.compare = readCompare(src, cmp, errors);
  const exp = child(map, 'expect');
  if (exp) draft.expect = readExpect(src, exp, errors);
  const dep = child(map, 'deploy');
  if (dep) draft.deploy = readDeploy(src, dep, errors);
  const shared = child(map, 'sharesCache');
  if (shared) draft.sharesCache = readSharesCache(src, shared, errors);
  readOpens(src, child(map, 'opens'), draft, errors);
  const startedAt = readStartedAt(src, child(map, 'startedAt'), errors);
  if (startedAt) draft.startedAt = startedAt;
  const events = child(map, 'events');
  // Without a usable id the events are still checked (under the file's stem), so a missing id never
  // hides the file's other errors.
  if (events && isSeq(events))
    draft.events = readEvents(src, events.items as Node[], v.events as unknown[], draft.id ?? stem, startedAt ? { ...opts, timeZero: startedAt } : opts, errors);
  return draft;
}

function readCompare(src: YamlSource, node: Node, errors: InputError[]): ScenarioDraft['compare'] {
  if (!check(src, node, compareSchema, '`compare`', errors) || !isMap(node)) return undefined;
  const v = node.toJS(src.doc) as { label: string; fold?: string; options?: Record<string, unknown> | null };
  const optionsNode = child(node, 'options');
  return {
    label: v.label,
    fold: v.fold ?? '',
    foldGiven: v.fold !== undefined,
    options: v.options ?? {},
    pos: src.pos(node),
    locate: (path) => (optionsNode ? src.pos(nodeAt(optionsNode, path)) : src.pos(node)),
  };
}

/** `deploy: {at: "@N", options?, fold?}` — a fold change landing mid-stream. */
function readDeploy(src: YamlSource, node: Node, errors: InputError[]): ScenarioDraft['deploy'] {
  if (!check(src, node, deploySchema, '`deploy`', errors) || !isMap(node)) return undefined;
  const v = node.toJS(src.doc) as { at: string; options?: Record<string, unknown> | null; fold?: string };
  const atPos = src.pos(node.get('at', true) as Node);
  const at = readAt(v.at, atPos, 'deploy', 'write e.g. `at: "@40"` (quoted: @ cannot start a plain YAML value)', errors);
  if (at === undefined) return undefined;
  const optionsNode = child(node, 'options');
  return {
    at,
    options: v.options ?? {},
    ...(v.fold !== undefined && { fold: v.fold }),
    pos: src.pos(node),
    atPos,
    locate: (path) => (optionsNode ? src.pos(nodeAt(optionsNode, path)) : src.pos(node)),
  };
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `startedAt:` an ISO 8601 instant with its offset (a date alone or a local time would be read in the machine's zone). */
function readStartedAt(src: YamlSource, node: Node | undefined, errors: InputError[]): string | undefined {
  if (!node) return undefined;
  const v = isScalar(node) ? node.value : undefined;
  const ms = typeof v === 'string' && INSTANT.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isFinite(ms)) return new Date(ms).toISOString();
  errors.push({
    pos: src.pos(node),
    message: `\`startedAt\` must be an ISO 8601 instant with its offset, got ${JSON.stringify(isScalar(node) ? node.value : src.slice(node))}`,
    fix: "write the instant the first event happened, e.g. `startedAt: 2026-11-30T09:12:00Z` (Z, or an offset such as +01:00), or remove it to use the site's illustrative clock",
  });
  return undefined;
}

/** `sharesCache: {scenario, at: "@N"}` — whether the id and the event exist is checked with the whole corpus (load.ts). */
function readSharesCache(src: YamlSource, node: Node, errors: InputError[]): SharedCache | undefined {
  if (!check(src, node, sharesCacheSchema, '`sharesCache`', errors) || !isMap(node)) return undefined;
  const v = node.toJS(src.doc) as { scenario: string; at: string };
  const atPos = src.pos(node.get('at', true) as Node);
  const scenarioPos = src.pos(node.get('scenario', true) as Node);
  const at = readAt(v.at, atPos, 'sharesCache', 'write e.g. `at: "@3"`: the event of the other scenario this one starts at (quoted: @ cannot start a plain YAML value)', errors);
  if (at === undefined) return undefined;
  return { scenario: v.scenario, at, pos: src.pos(node), scenarioPos, atPos };
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
function readOpens(src: YamlSource, node: Node | undefined, draft: ScenarioDraft, errors: InputError[]): void {
  if (!node || !isScalar(node) || typeof node.value !== 'string') return; // the schema reports a non-string
  const ref = refOf(node.value);
  if ('problem' in ref) {
    errors.push({
      pos: src.pos(node),
      message: `\`opens\` names a request as "@<offset>", got ${JSON.stringify(node.value)}`,
      fix: 'write e.g. `opens: "@42"` (quoted: @ cannot start a plain YAML value)',
    });
    return;
  }
  draft.opens = ref.offset;
  draft.opensPos = src.pos(node);
}

/** A list of requests as "@N" strings (`busts:`, `cached:`): offsets and where each is written; undefined after an error. */
function readRequestList(src: YamlSource, listNode: Node & { items: Node[] }, name: string, errors: InputError[]): { offsets: number[]; pos: SourcePos[] } | undefined {
  const offsets: number[] = [];
  const pos: SourcePos[] = [];
  for (const item of listNode.items) {
    const value = item.toJS(src.doc);
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
function readExpect(src: YamlSource, node: Node, errors: InputError[]): Expectation | undefined {
  if (!check(src, node, expectSchema, '`expect`', errors) || !isMap(node)) return undefined;
  const bustsNode = node.get('busts', true) as Node & { items: Node[] };
  const busts = readRequestList(src, bustsNode, 'busts', errors);
  if (!busts) return undefined;
  const cachedNode = node.get('cached', true) as (Node & { items: Node[] }) | undefined;
  const cached = cachedNode ? readRequestList(src, cachedNode, 'cached', errors) : undefined;
  if (cachedNode && !cached) return undefined;
  const max = node.get('maxInputTokens') as number | undefined;
  const diffNode = node.get('maxMeasuredDiff', true) as Node | undefined;
  const limits: MeasuredDiffLimit[] = [];
  if (isMap(diffNode))
    for (const pair of diffNode.items) {
      const field = String((pair.key as Node & { value?: unknown }).value) as MeasuredDiffLimit['field'];
      const v = (pair.value as Node).toJS(src.doc) as number | string;
      const pos = src.pos(pair.value as Node);
      limits.push(typeof v === 'number' ? { field, tokens: v, text: String(v), pos } : { field, percent: Number.parseFloat(v), text: v, pos });
    }
  return {
    busts: busts.offsets,
    bustPos: busts.pos,
    bustsPos: src.pos(bustsNode),
    pos: src.pos(node),
    ...(max !== undefined && { maxInputTokens: max, maxInputTokensPos: src.pos(node.get('maxInputTokens', true) as Node) }),
    ...(diffNode && { maxMeasuredDiff: limits, maxMeasuredDiffPos: src.pos(diffNode) }),
    ...(cachedNode && cached && { cached: cached.offsets, cachedPos: cached.pos, cachedListPos: src.pos(cachedNode) }),
  };
}

/** The events list: its nodes (for positions) and, item by item, their JS (made once, with the whole mapping's, by readDraft). */
function readEvents(src: YamlSource, items: Node[], values: unknown[], scenarioId: string, opts: ParseOptions, errors: InputError[]): WrittenEvent[] {
  const out: WrittenEvent[] = [];
  for (const [k, item] of items.entries()) {
    if (!isMap(item)) {
      errors.push({ pos: src.pos(item), message: 'an event must be a mapping', fix: 'write `- off: <offset>` then `t:`, `type:` and `payload:` on the following lines' });
      continue;
    }
    const e = values[k] as EventEntry;
    if (!check(src, item, eventSchema, 'an event', errors, e)) continue;
    const at = (k: string): SourcePos => src.pos(item.get(k, true) as Node);
    const label = readTimeLabel(e.t);
    if (!('ms' in label)) {
      errors.push({ pos: at('t'), message: `unparseable time label ${JSON.stringify(e.t)}: ${label.problem}`, fix: TIME_LABEL_HELP });
      continue;
    }
    const payloadNode = child(item, 'payload');
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
      locate: (path) => src.pos(nodeAt(payloadNode ?? item, path) ?? item),
    });
  }
  return out;
}

/** Annotation entries (the native `annotations:` list or the markdown `annotations.yaml` fence). */
export function readAnnotations(src: YamlSource, items: Node[], errors: InputError[]): Annotation[] {
  const out: Annotation[] = [];
  for (const item of items) {
    if (!isMap(item)) {
      errors.push({ pos: src.pos(item), message: 'an annotation must be a mapping', fix: 'write `- request: "@N"`, `find: "…"` and `comment: "…"`' });
      continue;
    }
    if (!check(src, item, annotationSchema, 'an annotation', errors)) continue;
    const a = item.toJS(src.doc) as AnnotationEntry;
    const at = (k: string): SourcePos => src.pos(item.get(k, true) as Node);
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
