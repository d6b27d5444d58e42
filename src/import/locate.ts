/**
 * Where a value sits in the trace file: a JSON text is scanned for the path (json-locate.ts); any
 * other text (JSON is YAML) goes through the yaml package's parser, whose source ranges give the
 * line and column of a path inside it — a field named by a validation
 * issue, a span inside a pretty-printed OTLP document. A path that does not exist points at its
 * deepest existing parent.
 */
import { isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import { jsonOffset } from './json-locate.ts';

export interface Pos {
  line: number;
  col: number;
}

/** The last text parsed: the positions of one line are asked for together (a secret, then a field). */
let last: { text: string; doc: ReturnType<typeof parseDocument>; lc: LineCounter } | undefined;
function parsed(text: string): { doc: ReturnType<typeof parseDocument>; lc: LineCounter } {
  if (last?.text !== text) {
    const lc = new LineCounter();
    last = { text, doc: parseDocument(text, { lineCounter: lc }), lc };
  }
  return last;
}

/**
 * Position of `path` in `text`, where `text` starts at `start` in the file: of the value there,
 * or with `key`, of the field's name (for "unknown field" messages).
 */
export function locate(text: string, path: readonly (string | number)[], start: Pos, opts: { key?: boolean } = {}): Pos {
  const json = locateJson(text, path, start, opts);
  if (json) return json;
  const { doc, lc } = parsed(text);
  if (doc.errors.length) return start;
  const at = (offset: number): Pos => {
    const p = lc.linePos(offset);
    return p.line === 1 ? { line: start.line, col: start.col + p.col - 1 } : { line: start.line + p.line - 1, col: p.col };
  };
  const last = path.at(-1);
  if (opts.key && typeof last === 'string') {
    const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
    const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === last) : undefined;
    if (pair && isScalar(pair.key) && pair.key.range) return at(pair.key.range[0]);
  }
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return at(node.range[0]);
  }
  return start;
}

/** The same, by one scan of a JSON text (json-locate.ts): no tree built, the common case of a trace line. */
function locateJson(text: string, path: readonly (string | number)[], start: Pos, opts: { key?: boolean }): Pos | undefined {
  if (!/^\s*[{[]/.test(text)) return undefined;
  const last = path.at(-1);
  if (opts.key && typeof last === 'string') {
    const off = jsonOffset(text, path, true);
    if (off !== undefined) return posAt(text, off, start);
  }
  for (let n = path.length; n >= 0; n--) {
    const off = jsonOffset(text, path.slice(0, n));
    if (off !== undefined) return posAt(text, off, start);
  }
  return undefined;
}

/** Line and column (1-based) of a character offset in `text`. */
export function posAt(text: string, offset: number, start: Pos = { line: 1, col: 1 }): Pos {
  const before = text.slice(0, offset).split('\n');
  return before.length === 1 ? { line: start.line, col: start.col + offset } : { line: start.line + before.length - 1, col: before.at(-1)!.length + 1 };
}
