/**
 * One scenario file → a draft scenario: top-level fields, events (sections batches expanded, time
 * labels resolved, derived expiresAt), annotations — with every file-local error collected.
 * Both syntaxes end here: native YAML is one document; the markdown interop format contributes its
 * title and intro from markdown and its `events.yaml` / `annotations.yaml` fences.
 * Checks that need the whole corpus (ids, bases, folds) live in load.ts.
 */
import { isMap, isScalar, isSeq, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import type { InputError, SourcePos } from './errors.ts';
import type { Annotation, Comparison, Expectation, ScenarioEvent } from './model.ts';
import { instant, readTimeLabel, TIME_LABEL_HELP } from './time.ts';
import { batchEndProblem, readRequestRef, wholeNumberProblem } from './limits.ts'; // harden (issue 17): numeric bounds
import { keysOf, nodeAt, readMarkdown, valueOf, YamlSource, type Fence } from './source.ts';

export const ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
/** Event types whose payload gets a derived `expiresAt` (time zero + elapsed + 30 s) when absent. */
const EXPIRING_TYPES = new Set(['agent/llm-request-requested', 'capability-host/script-run-requested']);
const EXPIRY_MS = 30_000;
/** The only event type whose payload may carry a `sections:` batch. */
const BATCH_TYPE = 'agents/context-added';

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
  events: ScenarioEvent[];
  annotations: Annotation[];
  compare?: Comparison & { foldGiven: boolean; locate(path: (string | number)[]): SourcePos };
  expect?: Expectation;
  pos: SourcePos;
}

const NATIVE_KEYS = ['id', 'title', 'intro', 'fold', 'options', 'base', 'events', 'annotations', 'compare', 'expect'];
const FENCE_KEYS = ['id', 'fold', 'options', 'base', 'events', 'compare', 'expect'];
const EXPECT_KEYS = ['busts', 'maxInputTokens'];
const EVENT_KEYS = ['off', 't', 'type', 'payload', 'note'];
const ANNOTATION_KEYS = ['request', 'find', 'comment', 'occurrence'];
const COMPARE_KEYS = ['label', 'fold', 'options'];

/** Typed access to one YAML mapping, reporting every problem into `errors`. */
class Fields {
  private readonly src: YamlSource;
  readonly map: YAMLMap;
  private readonly errors: InputError[];
  private readonly what: string;

  constructor(src: YamlSource, map: YAMLMap, errors: InputError[], what: string) {
    this.src = src;
    this.map = map;
    this.errors = errors;
    this.what = what;
  }

  allow(keys: string[]): void {
    for (const { key, node } of keysOf(this.map)) {
      if (!keys.includes(key)) {
        this.errors.push({ pos: this.src.pos(node), message: `unknown key \`${key}\` in ${this.what}`, fix: `remove it or fix its spelling; allowed: ${keys.join(', ')}` });
      }
    }
  }

  node(key: string): Node | undefined {
    return valueOf(this.map, key);
  }

  pos(key: string): SourcePos {
    const n = this.node(key);
    return n ? this.src.pos(n) : this.src.keyPos(this.map, key);
  }

  private missing(key: string, hint: string): undefined {
    this.errors.push({ pos: this.src.pos(this.map), message: `missing \`${key}\` in ${this.what}`, fix: `add \`${key}: ${hint}\`` });
    return undefined;
  }

  private wrong(key: string, want: string, hint: string): undefined {
    this.errors.push({ pos: this.pos(key), message: `\`${key}\` must be ${want}`, fix: `write \`${key}: ${hint}\`` });
    return undefined;
  }

  str(key: string, hint: string, required = false): string | undefined {
    const n = this.node(key);
    if (n === undefined || (isScalar(n) && n.value === null && !required)) return required ? this.missing(key, hint) : undefined;
    if (!isScalar(n) || typeof n.value !== 'string') return this.wrong(key, 'a string', hint);
    return n.value;
  }

  int(key: string, hint: string, required = false): number | undefined {
    const n = this.node(key);
    if (n === undefined) return required ? this.missing(key, hint) : undefined;
    if (!isScalar(n) || typeof n.value !== 'number' || !Number.isInteger(n.value) || n.value < 0) return this.wrong(key, 'a whole number ≥ 0', hint);
    // harden (issue 17): beyond 2^53 − 1 neighbouring values collapse into one.
    const tooBig = wholeNumberProblem(n.value);
    if (tooBig) {
      this.errors.push({ pos: this.pos(key), message: `\`${key}\` ${tooBig}`, fix: `write a smaller number, e.g. \`${key}: ${hint}\`` });
      return undefined;
    }
    return n.value;
  }

  mapping(key: string, hint: string): YAMLMap | undefined {
    const n = this.node(key);
    if (n === undefined || (isScalar(n) && n.value === null)) return undefined;
    if (!isMap(n)) return this.wrong(key, 'a mapping', hint);
    return n;
  }

  seq(key: string, hint: string, required = false): YAMLSeq | undefined {
    const n = this.node(key);
    if (n === undefined) return required ? this.missing(key, hint) : undefined;
    if (!isSeq(n)) return this.wrong(key, 'a list', hint);
    return n;
  }
}

const toJS = (src: YamlSource, n: Node | undefined): Record<string, unknown> => (n ? (n.toJS(src.doc) as Record<string, unknown>) : {});

export interface ParseOptions {
  timeZero: string;
}

/** Parses one scenario file; returns the draft (undefined when it is unusable) and its errors. */
export function parseScenarioFile(file: string, text: string, opts: ParseOptions): { draft?: ScenarioDraft; errors: InputError[] } {
  const errors: InputError[] = [];
  const stem = file.replace(/^.*\//, '').replace(/\.(ya?ml|md)$/, '');
  if (file.endsWith('.md')) return parseMarkdown(file, stem, text, opts, errors);
  const src = new YamlSource(file, text);
  if (src.errors.length) return { errors: src.errors };
  const root = src.doc.contents;
  if (!isMap(root)) {
    errors.push({ pos: src.pos(root), message: 'a scenario file must be a YAML mapping', fix: 'start the file with `id:`, `title:` and `events:` keys (see scenarios/ for examples)' });
    return { errors };
  }
  const f = new Fields(src, root, errors, 'the scenario');
  f.allow(NATIVE_KEYS);
  const title = f.str('title', '"What this scenario shows"', true) ?? '';
  const intro = f.str('intro', '|\n  Markdown prose…') ?? '';
  const draft = common(src, f, file, stem, title, intro, opts, errors);
  draft.annotations = parseAnnotations(src, f.seq('annotations', '[{request: "@N", find: "…", comment: "…"}]'), errors);
  return { draft, errors };
}

function parseMarkdown(file: string, stem: string, text: string, opts: ParseOptions, errors: InputError[]): { draft?: ScenarioDraft; errors: InputError[] } {
  const md = readMarkdown(text);
  const at = (line: number): SourcePos => ({ file, line: line + 1, col: 1 });
  if (!md.title) errors.push({ pos: at(0), message: 'missing `# Title` line', fix: 'start the file with a `# <title>` heading' });
  errors.push(...fenceErrors(file, text, md.fences));
  const eventsFence = md.fences.find((x) => x.path === 'events.yaml');
  if (!eventsFence) {
    errors.push({ pos: at(Math.max(md.titleLine, 0)), message: 'missing the ```yaml (events.yaml) fence', fix: 'add a <details> block holding a ```yaml (events.yaml) fence with `id:` and `events:`' });
    return { errors };
  }
  // An unclosed fence is already an error; its body (the rest of the file) is not worth parsing.
  if (!eventsFence.closed) return { errors };
  const src = new YamlSource(file, eventsFence.body, eventsFence.line + 1);
  if (src.errors.length) return { errors: [...errors, ...src.errors] };
  const root = src.doc.contents;
  if (!isMap(root)) {
    errors.push({ pos: src.pos(root), message: 'the events.yaml fence must be a YAML mapping', fix: 'give it `id:` and `events:` keys' });
    return { errors };
  }
  const f = new Fields(src, root, errors, 'events.yaml');
  f.allow(FENCE_KEYS);
  const draft = common(src, f, file, stem, md.title, md.intro, opts, errors);
  draft.pos = at(Math.max(md.titleLine, 0));
  const annFence = md.fences.find((x) => x.path === 'annotations.yaml');
  if (annFence?.closed) {
    const asrc = new YamlSource(file, annFence.body, annFence.line + 1);
    errors.push(...asrc.errors);
    const root = asrc.doc.contents;
    if (!asrc.errors.length && root && !(isScalar(root) && root.value === null)) {
      if (!isSeq(root)) errors.push({ pos: asrc.pos(root), message: 'annotations.yaml must be a list', fix: 'write one `- request: "@N"` entry per annotation' });
      else draft.annotations = parseAnnotations(asrc, root, errors);
    }
  }
  return { draft, errors };
}

const INPUT_FENCES = ['events.yaml', 'annotations.yaml'];
const OUTPUT_FENCE = /^request@\d+\.yaml$/;

/** Fences that would be silently ignored or would swallow the rest of the file. */
function fenceErrors(file: string, text: string, fences: Fence[]): InputError[] {
  const errors: InputError[] = [];
  const lines = text.split('\n');
  const first = new Map<string, Fence>();
  for (const x of fences) {
    const open = `\`\`\`${x.lang} (${x.path})`;
    if (!x.closed) {
      errors.push({ pos: { file, line: x.line + 1, col: 1 }, message: `the ${open} fence is never closed: it runs to the end of the file`, fix: 'add a line holding exactly ``` (three backticks, nothing else, at column 1) after its body' });
    }
    const pathPos: SourcePos = { file, line: x.line + 1, col: lines[x.line]!.indexOf('(') + 2 };
    if (!INPUT_FENCES.includes(x.path) && !OUTPUT_FENCE.test(x.path)) {
      errors.push({
        pos: pathPos,
        message: `unknown fence \`(${x.path})\`: it would be ignored`,
        fix: 'scenarios read `(events.yaml)` and `(annotations.yaml)` fences (`(request@N.yaml)` blocks are generated output): fix the name, or remove the fence',
      });
      continue;
    }
    const earlier = first.get(x.path);
    if (earlier && INPUT_FENCES.includes(x.path)) {
      errors.push({ pos: pathPos, message: `a second \`(${x.path})\` fence (the first is on line ${earlier.line + 1}): it would be ignored`, fix: `merge it into the first \`(${x.path})\` fence` });
    }
    if (!earlier) first.set(x.path, x);
  }
  return errors;
}

/** Fields shared by both syntaxes: id, fold, options, base, compare, events. */
function common(src: YamlSource, f: Fields, file: string, stem: string, title: string, intro: string, opts: ParseOptions, errors: InputError[]): ScenarioDraft {
  const id = f.str('id', 'my-scenario', true);
  if (id !== undefined && !ID_PATTERN.test(id)) {
    errors.push({ pos: f.pos('id'), message: `invalid id ${JSON.stringify(id)}`, fix: 'use lowercase letters, digits, `-` and `_`, starting with a letter or digit (e.g. `birth-window`)' });
  }
  const options = f.mapping('options', '{metadataLines: every-item}');
  const draft: ScenarioDraft = {
    file, stem, id: id !== undefined && ID_PATTERN.test(id) ? id : undefined, idPos: f.pos('id'), title, intro,
    fold: f.str('fold', 'context-protocol'), foldPos: f.pos('fold'),
    options: toJS(src, options), optionsPos: f.pos('options'),
    locateOption: (path) => (options ? src.pos(nodeAt(options, path)) : f.pos('options')),
    base: f.str('base', '<id of another scenario>'), basePos: f.pos('base'),
    events: [], annotations: [], pos: src.pos(f.map),
  };
  const cmp = f.mapping('compare', '{label: "…", options: {…}}');
  if (cmp) {
    const cf = new Fields(src, cmp, errors, '`compare`');
    cf.allow(COMPARE_KEYS);
    const label = cf.str('label', '"every-item (before)"', true);
    const fold = cf.str('fold', 'context-protocol');
    const cmpOptions = cf.mapping('options', '{metadataLines: every-item}');
    if (label !== undefined) {
      draft.compare = {
        label, fold: fold ?? '', foldGiven: fold !== undefined, options: toJS(src, cmpOptions), pos: src.pos(cmp),
        locate: (path) => (cmpOptions ? src.pos(nodeAt(cmpOptions, path)) : src.pos(cmp)),
      };
    }
  }
  const exp = f.mapping('expect', '{busts: []}');
  if (exp) draft.expect = parseExpect(src, exp, errors);
  const events = f.seq('events', '[{off: 1, t: 0ms, type: …, payload: {…}}]', true);
  if (events && events.items.length === 0) {
    errors.push({ pos: src.pos(events), message: '`events` is empty', fix: 'add at least one event — a scenario shows what its own events do to the prompt' });
  }
  // Without a usable id the events are still checked (under the file's stem), so a missing id never
  // hides the file's other errors.
  if (events) draft.events = parseEvents(src, events, draft.id ?? stem, opts, errors);
  return draft;
}

function parseEvents(src: YamlSource, seq: YAMLSeq, scenarioId: string, opts: ParseOptions, errors: InputError[]): ScenarioEvent[] {
  const out: ScenarioEvent[] = [];
  for (const item of seq.items as Node[]) {
    if (!isMap(item)) {
      errors.push({ pos: src.pos(item), message: 'an event must be a mapping', fix: 'write `- off: <offset>` then `t:`, `type:` and `payload:` on the following lines' });
      continue;
    }
    const f = new Fields(src, item, errors, 'an event');
    f.allow(EVENT_KEYS);
    const off = f.int('off', '<stream offset>', true);
    const t = f.str('t', '0ms', true);
    const type = f.str('type', 'agents/context-added', true);
    const note = f.str('note', '"caption shown beside the event"');
    const payloadNode = f.mapping('payload', '{…}');
    if (off === undefined || t === undefined || type === undefined) continue;
    const payloadGiven = f.node('payload');
    if (payloadGiven && !payloadNode && !(isScalar(payloadGiven) && payloadGiven.value === null)) continue; // not a mapping: reported above
    const label = readTimeLabel(t);
    if (!('ms' in label)) {
      errors.push({ pos: f.pos('t'), message: `unparseable time label ${JSON.stringify(t)}: ${label.problem}`, fix: TIME_LABEL_HELP });
      continue;
    }
    const elapsedMs = label.ms;
    const createdAt = instant(opts.timeZero, elapsedMs);
    const payload = toJS(src, payloadNode);
    const source = src.slice(item);
    const base = { type, createdAt, t, elapsedMs, scenarioId, pos: src.pos(item), offPos: f.pos('off'), tPos: f.pos('t'), typePos: f.pos('type'), source, ...(note !== undefined && { note }) };
    const sectionsNode = payloadNode && valueOf(payloadNode, 'sections');
    if (sectionsNode !== undefined && type !== BATCH_TYPE) {
      errors.push({
        pos: src.keyPos(payloadNode!, 'sections'),
        message: `\`sections\` batches are for \`${BATCH_TYPE}\` events; this one is \`${type}\``,
        fix: `write one event per item instead, or change \`type:\` to ${BATCH_TYPE}`,
      });
      continue;
    }
    if (sectionsNode === undefined) {
      if (EXPIRING_TYPES.has(type) && payload.expiresAt === undefined) payload.expiresAt = instant(opts.timeZero, elapsedMs + EXPIRY_MS);
      out.push({ ...base, offset: off, payload, locate: (path) => src.pos(nodeAt(payloadNode ?? item, path) ?? item) });
      continue;
    }
    out.push(...expandSections(src, payloadNode!, sectionsNode, payload, off, base, errors));
  }
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1]!, e = out[i]!;
    if (e.batch && e.batch.index > 0) continue; // inside one batch offsets and times are right by construction
    const offsetError = checkOrder(prev, e);
    if (offsetError) errors.push(offsetError);
    const timeError = checkTime(prev, e);
    if (timeError) errors.push(timeError);
  }
  return out;
}

/** How the event an offset must follow is named in ordering errors (a batch: its last offset). */
function previousEvent(prev: ScenarioEvent, baseId: string | undefined): string {
  const span = prev.batch ? `${prev.batch.size} sections: @${prev.batch.first}–@${prev.offset}` : '';
  if (baseId === undefined) return prev.batch ? `@${prev.offset}, the last offset of the previous event's \`sections\` batch (${span})` : `@${prev.offset}, the previous event`;
  return prev.batch ? `@${prev.offset}, the last offset of base \`${baseId}\` (its final \`sections\` batch takes ${span.replace(/^\d+ sections: /, '')})` : `@${prev.offset}, the last event of base \`${baseId}\``;
}

/** Offsets strictly increase: `e` must come after `prev` (the event before it, or a base's last event). */
export function checkOrder(prev: ScenarioEvent, e: ScenarioEvent, baseId?: string): InputError | undefined {
  if (e.offset > prev.offset) return undefined;
  return {
    pos: e.offPos,
    message: `offset @${e.offset} is not after ${previousEvent(prev, baseId)}`,
    fix: baseId === undefined
      ? `give this event an offset greater than ${prev.offset} — offsets strictly increase (a \`sections\` batch takes one offset per section)`
      : `start this scenario's offsets above ${prev.offset} — offsets strictly increase across the base chain`,
  };
}

/** Time never runs backwards: a stream stamps createdAt as it appends. */
export function checkTime(prev: ScenarioEvent, e: ScenarioEvent, baseId?: string): InputError | undefined {
  if (e.elapsedMs >= prev.elapsedMs) return undefined;
  const where = baseId === undefined ? 'the previous event' : `the last event of base \`${baseId}\``;
  return {
    pos: e.tPos,
    message: `time ${JSON.stringify(e.t)} is before ${JSON.stringify(prev.t)} of @${prev.offset} (${where}) — createdAt would run backwards`,
    fix: `give this event a time of ${prev.t} or later: events are appended in time order`,
  };
}

/** `sections: [{key, content}, …]` → one keyed event per section at off, off+1, … */
function expandSections(src: YamlSource, payloadNode: YAMLMap, sectionsNode: Node, payload: Record<string, unknown>, off: number,
  base: Omit<ScenarioEvent, 'offset' | 'payload' | 'locate'>, errors: InputError[]): ScenarioEvent[] {
  if (!isSeq(sectionsNode) || sectionsNode.items.length === 0) {
    errors.push({ pos: src.pos(sectionsNode), message: '`sections` must be a non-empty list', fix: 'write one `- key: …` / `content: …` entry per section' });
    return [];
  }
  for (const k of ['key', 'content']) {
    if (valueOf(payloadNode, k) !== undefined) {
      errors.push({ pos: src.keyPos(payloadNode, k), message: `a \`sections\` batch cannot also have \`${k}\``, fix: `move \`${k}:\` into each section entry, or drop \`sections:\`` });
    }
  }
  const { sections: _s, ...shared } = payload;
  const out: ScenarioEvent[] = [];
  const size = sectionsNode.items.length;
  // harden (issue 17): the batch's last offset must still be exact.
  const pastEnd = batchEndProblem(off, size);
  if (pastEnd) {
    errors.push({ pos: src.pos(sectionsNode), message: `this \`sections\` batch starts at @${off}: ${pastEnd}`, fix: 'give the event a smaller `off:`' });
    return [];
  }
  sectionsNode.items.forEach((entry, index) => {
    if (!isMap(entry)) {
      errors.push({ pos: src.pos(entry as Node), message: 'a section must be a mapping with `key` and `content`', fix: 'write `- key: <key>` and `content: <text>`' });
      return;
    }
    const f = new Fields(src, entry, errors, 'a section');
    f.allow(['key', 'content']);
    const key = f.str('key', 'identity', true);
    const content = f.str('content', '"…"', true);
    if (key === undefined || content === undefined) return;
    out.push({
      ...base, offset: off + index, payload: { ...shared, key, content }, batch: { first: off, size, index },
      locate: (path) => src.pos(path[0] === 'key' || path[0] === 'content' ? nodeAt(entry, path) : nodeAt(payloadNode, path) ?? payloadNode),
    });
  });
  return out;
}

/** `expect: {busts: ["@N", …], maxInputTokens?: N}` — the scenario's promise about the cache. */
function parseExpect(src: YamlSource, map: YAMLMap, errors: InputError[]): Expectation | undefined {
  const f = new Fields(src, map, errors, '`expect`');
  f.allow(EXPECT_KEYS);
  const seq = f.seq('busts', '[]   # or ["@42"]: the own requests expected to bust the cache', true);
  const maxInputTokens = f.int('maxInputTokens', '20000');
  if (!seq) return undefined;
  const busts: number[] = [];
  const bustPos: SourcePos[] = [];
  let ok = true;
  for (const item of seq.items as Node[]) {
    const m = isScalar(item) && typeof item.value === 'string' ? /^@(\d+)$/.exec(item.value) : null;
    // harden (issue 17): "@N" past 2^53 − 1 is an error, not a rounded offset.
    const ref = m ? readRequestRef(m.input) : undefined;
    if (ref && 'problem' in ref) {
      errors.push({ pos: src.pos(item), message: `\`busts\` entry ${ref.problem}`, fix: 'name one of this scenario\'s own requests, e.g. `busts: ["@26"]`' });
      ok = false;
      continue;
    }
    if (!m) {
      errors.push({ pos: src.pos(item), message: `\`busts\` entries name requests as "@<offset>", got ${JSON.stringify(isScalar(item) ? item.value : src.slice(item))}`, fix: 'write e.g. `busts: ["@26"]` (quoted: @ cannot start a plain YAML value)' });
      ok = false;
      continue;
    }
    busts.push(Number(m[1]));
    bustPos.push(src.pos(item));
  }
  if (!ok) return undefined;
  return { busts, bustPos, bustsPos: src.pos(seq), pos: src.pos(map), ...(maxInputTokens !== undefined && { maxInputTokens, maxInputTokensPos: f.pos('maxInputTokens') }) };
}

function parseAnnotations(src: YamlSource, seq: YAMLSeq | undefined, errors: InputError[]): Annotation[] {
  const out: Annotation[] = [];
  for (const item of (seq?.items ?? []) as Node[]) {
    if (!isMap(item)) {
      errors.push({ pos: src.pos(item), message: 'an annotation must be a mapping', fix: 'write `- request: "@N"`, `find: "…"` and `comment: "…"`' });
      continue;
    }
    const f = new Fields(src, item, errors, 'an annotation');
    f.allow(ANNOTATION_KEYS);
    const request = f.str('request', '"@<offset of one of this scenario\'s requests>"', true);
    const find = f.str('find', '"text that appears in the rendered request"', true);
    const comment = f.str('comment', '"what the reader should notice"', true);
    const occurrence = f.int('occurrence', '2');
    if (request === undefined || find === undefined || comment === undefined) continue;
    const m = /^@(\d+)$/.exec(request);
    if (!m) {
      errors.push({ pos: f.pos('request'), message: `\`request\` must name a request as "@<offset>", got ${JSON.stringify(request)}`, fix: 'write e.g. `request: "@26"` (quoted: @ cannot start a plain YAML value)' });
      continue;
    }
    // harden (issue 17): "@N" past 2^53 − 1 is an error, not a rounded offset.
    const ref = readRequestRef(request);
    if ('problem' in ref) {
      errors.push({ pos: f.pos('request'), message: `\`request\` ${ref.problem}`, fix: 'name one of this scenario\'s own requests, e.g. `request: "@26"`' });
      continue;
    }
    if (find === '') {
      errors.push({ pos: f.pos('find'), message: '`find` is empty', fix: 'quote a piece of text that appears in the rendered request' });
      continue;
    }
    if (occurrence === 0) {
      errors.push({ pos: f.pos('occurrence'), message: '`occurrence` counts from 1', fix: 'use `occurrence: 1` for the first match (or omit it)' });
      continue;
    }
    out.push({ request: Number(m[1]), find, comment, pos: f.pos('request'), findPos: f.pos('find'), ...(occurrence !== undefined && { occurrence }) });
  }
  return out;
}
