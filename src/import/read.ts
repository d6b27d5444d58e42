/**
 * Reading a trace file into records: JSON Lines of request bodies (bare, or wrapped as
 * `{timestamp, headers, url, method, body, response | usage}`), JSON Lines of OTLP documents, or one JSON document
 * (an OTLP export, a HAR file, or a single body). Three more shapes other tools write: a JSON list of
 * objects (a Phoenix span export, `df.to_json(orient="records")`), one record per element;
 * pretty-printed JSON objects one after another (the OpenTelemetry Python SDK's
 * `ConsoleSpanExporter`, which writes `span.to_json()` — indented — per span), one record per
 * object; and a YAML document (a VCR / vcrpy cassette), one record. Each record keeps its source
 * text and position so any later problem names the line and column of the trace file. Problems are
 * collected, never thrown.
 */
import { parseDocument } from 'yaml';
import type { InputError } from '../scenarios/errors.ts';
import { encodingProblem, withoutBom } from '../scenarios/source.ts';
import { jsonError } from './json-error.ts';
import { locate, posAt, type Pos } from './locate.ts';

type Obj = Record<string, unknown>;
export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One JSON value of the trace: a line of JSON Lines, or the whole file. */
export interface Chunk {
  /** Its source text and where that starts in the file. */
  text: string;
  start: Pos;
  /** The line number that names it (its first line). */
  line: number;
  value: Obj;
  /** The file it was read from, when a capture joins several files (a folder: folder.ts); else the trace's own. */
  file?: string;
}

export const ENVELOPE_KEYS = ['timestamp', 'headers', 'url', 'method', 'model', 'body', 'response', 'usage'];

const NOT_JSON_FIX = 'write one complete JSON object per line (JSON Lines: a request body, or {"timestamp", "headers", "body"}), or one OTLP JSON document';

/**
 * How deep a record may nest objects and lists inside one another: far past any request body (a
 * tool's JSON Schema nests a few dozen levels), and shallow enough for every reader after this one
 * — the secrets scrubber, the adapters, the YAML the scenario is written in — which walk a record
 * recursively. A record nested 20,000 levels deep (JSON.parse reads it) overflowed the call stack.
 */
export const MAX_DEPTH = 256;

/** Whether `value` nests deeper than MAX_DEPTH (walked without recursion: the value is untrusted). */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v as Obj)) if (typeof x === 'object' && x !== null) stack.push([x, depth + 1]);
  }
  return false;
}

/** A record too deep to read (tooDeep), at its start. */
const deepRecord = (file: string, pos: Pos): InputError => ({
  pos: { file, ...pos },
  message: `this record nests objects and lists more than ${MAX_DEPTH} levels deep`,
  fix: 'no request body nests so deep: check what wrote this record (and import the others without it)',
});

/** The JSON values of a trace file, in file order (a record nested too deep: an error, left out). */
export function readChunks(raw: string, file: string, errors: InputError[]): Chunk[] {
  return chunksOf(raw, file, errors).filter((c) => {
    if (!tooDeep(c.value)) return true;
    errors.push(deepRecord(file, c.start));
    return false;
  });
}

function chunksOf(raw: string, file: string, errors: InputError[]): Chunk[] {
  const text = withoutBom(raw);
  const encoding = encodingProblem(text, file);
  if (encoding) {
    errors.push(encoding);
    return [];
  }
  if (text.trim() === '') {
    errors.push({ pos: { file, line: 1, col: 1 }, message: 'the trace is empty', fix: 'capture at least one request: one JSON request body per line' });
    return [];
  }
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const nonBlank = lines.filter((l) => l.trim() !== '').length;
  const head = lines[first]!.trim();
  // One document spread over several lines (a pretty-printed OTLP export or body), or a list of records on any number of lines?
  if (nonBlank > 1 || head.startsWith('[')) {
    try {
      const whole: unknown = JSON.parse(text);
      if (isObject(whole)) return [{ text, start: { line: 1, col: 1 }, line: first + 1, value: whole }];
      if (Array.isArray(whole) && whole.length && whole.every(isObject)) return elementChunks(text, whole);
      errors.push({
        pos: { file, line: first + 1, col: 1 },
        message: `the file is one JSON ${Array.isArray(whole) ? (whole.length ? 'list of values that are not all objects' : 'empty list') : 'value'}, not request bodies`,
        fix: NOT_JSON_FIX,
      });
      return [];
    } catch {
      // Not one document: JSON objects one after another (pretty-printed spans), or JSON Lines, read line by line below.
    }
  }
  // A line holding only `{` never starts JSON Lines: pretty-printed objects one after another.
  if (head === '{') {
    const objects = concatenated(text);
    if (objects) return objects;
  }
  // Not JSON at all: a YAML document (a cassette)?
  if (!/^[[{]/.test(head)) {
    const yaml = yamlChunk(text, first + 1);
    if (yaml) return [yaml];
  }
  const out: Chunk[] = [];
  lines.forEach((raw, i) => {
    const c = lineChunk(raw, i + 1, file, errors);
    if (c) out.push(c);
  });
  return out;
}

/**
 * The top-level values of `text` from `from`, as [start, end) offsets: objects and lists found by
 * matching brackets outside strings; undefined when something other than whitespace (or, inside a
 * list, commas) lies between them.
 */
function valueSpans(text: string, from: number, to: number, commas: boolean): [number, number][] | undefined {
  const out: [number, number][] = [];
  let i = from;
  while (i < to) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || (commas && ch === ',')) {
      i++;
      continue;
    }
    if (ch !== '{' && ch !== '[') return undefined;
    const start = i;
    let depth = 0;
    do {
      const c = text[i]!;
      if (c === '"') {
        for (i++; i < to && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      i++;
    } while (depth > 0 && i < to);
    if (depth !== 0) return undefined;
    out.push([start, i]);
  }
  return out;
}

const chunkAt = (text: string, [s, e]: [number, number], value: Obj): Chunk => {
  const start = posAt(text, s);
  return { text: text.slice(s, e), start, line: start.line, value };
};

/** A JSON list of objects → one chunk per element, each with its own text and position. */
function elementChunks(text: string, list: Obj[]): Chunk[] {
  const open = text.indexOf('[');
  const spans = valueSpans(text, open + 1, text.lastIndexOf(']'), true)!;
  return spans.map((span, i) => chunkAt(text, span, list[i]!));
}

/** Pretty-printed JSON objects one after another → one chunk each; undefined when the text is not that. */
function concatenated(text: string): Chunk[] | undefined {
  const spans = valueSpans(text, 0, text.length, false);
  if (!spans || spans.length < 2) return undefined;
  const out: Chunk[] = [];
  for (const span of spans) {
    try {
      const v: unknown = JSON.parse(text.slice(span[0], span[1]));
      if (!isObject(v)) return undefined;
      out.push(chunkAt(text, span, v));
    } catch {
      return undefined;
    }
  }
  return out;
}

/**
 * A YAML document whose top level is a mapping → one chunk (its positions are found by locate.ts's
 * YAML path); undefined when the text is not that. YAML 1.1, as PyYAML (vcrpy) and Ruby's Psych
 * (VCR) write it: `!!binary` bodies (gzip) read as bytes.
 */
function yamlChunk(text: string, line: number): Chunk | undefined {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length) return undefined;
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  return isObject(value) ? { text, start: { line: 1, col: 1 }, line, value } : undefined;
}

/** One line of JSON Lines as a chunk (blank: undefined; not a JSON object: an error, located). */
export function lineChunk(raw: string, line: number, file: string, errors: InputError[]): Chunk | undefined {
  const lineText = raw.replace(/\r$/, '');
  if (lineText.trim() === '') return undefined;
  const start = { line, col: 1 };
  let value: unknown;
  try {
    value = JSON.parse(lineText);
  } catch {
    const bad = jsonError(lineText);
    errors.push({ pos: { file, ...posAt(lineText, bad.offset, start) }, message: `not JSON: ${bad.problem}`, fix: NOT_JSON_FIX });
    return undefined;
  }
  if (!isObject(value)) {
    errors.push({ pos: { file, ...start }, message: `line ${line} is a JSON ${Array.isArray(value) ? 'list' : typeof value}, not an object`, fix: NOT_JSON_FIX });
    return undefined;
  }
  if (tooDeep(value)) {
    errors.push(deepRecord(file, start));
    return undefined;
  }
  return { text: lineText, start, line, value };
}

/** Where `path` (inside the chunk's value) is in the file; with `key`, where the field's name is. */
export function chunkPos(c: Chunk, path: readonly (string | number)[], file: string, key = false): InputError['pos'] {
  return { file: c.file ?? file, ...locate(c.text, path, c.start, { key }) };
}
