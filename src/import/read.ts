/**
 * Reading a trace file into records: JSON Lines of request bodies (bare, or wrapped as
 * `{timestamp, headers, url, method, body, response | usage}`), JSON Lines of OTLP documents, or one JSON document
 * (an OTLP export, or a single body). Each record keeps its source text and position so any later
 * problem names the line and column of the trace file. Problems are collected, never thrown.
 */
import type { InputError } from '../scenarios/errors.ts';
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
}

export const ENVELOPE_KEYS = ['timestamp', 'headers', 'url', 'method', 'body', 'response', 'usage'];

const NOT_JSON_FIX = 'write one complete JSON object per line (JSON Lines: a request body, or {"timestamp", "headers", "body"}), or one OTLP JSON document';

/** The JSON values of a trace file, in file order. */
export function readChunks(text: string, file: string, errors: InputError[]): Chunk[] {
  if (text.trim() === '') {
    errors.push({ pos: { file, line: 1, col: 1 }, message: 'the trace is empty', fix: 'capture at least one request: one JSON request body per line' });
    return [];
  }
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const nonBlank = lines.filter((l) => l.trim() !== '').length;
  // One document spread over several lines (a pretty-printed OTLP export or body)?
  if (nonBlank > 1) {
    try {
      const whole: unknown = JSON.parse(text);
      if (isObject(whole)) return [{ text, start: { line: 1, col: 1 }, line: first + 1, value: whole }];
      errors.push({ pos: { file, line: first + 1, col: 1 }, message: `the file is one JSON ${Array.isArray(whole) ? 'list' : 'value'}, not request bodies`, fix: NOT_JSON_FIX });
      return [];
    } catch {
      // Not one document: JSON Lines, read line by line below.
    }
  }
  const out: Chunk[] = [];
  lines.forEach((raw, i) => {
    const c = lineChunk(raw, i + 1, file, errors);
    if (c) out.push(c);
  });
  return out;
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
  return { text: lineText, start, line, value };
}

/** Where `path` (inside the chunk's value) is in the file; with `key`, where the field's name is. */
export function chunkPos(c: Chunk, path: readonly (string | number)[], file: string, key = false): InputError['pos'] {
  return { file, ...locate(c.text, path, c.start, { key }) };
}
