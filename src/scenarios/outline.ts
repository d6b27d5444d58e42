/**
 * Where each node of a YAML text is written — its first character, where its text ends, and its
 * children — which is all the scenario parser needs of a YAML tree besides the values themselves.
 *
 * A scenario file is read once per build, and the build reads thousands of events: so a file is
 * read by js-yaml's event stream (offsets into the text, no node tree: five times less time and
 * memory than a document with every node's range), and the outline is built from those events.
 * A file js-yaml refuses, or one with an anchor, an alias or a tag (which scenario files do not
 * use, and which the two parsers could read differently), is read by the `yaml` package's
 * document instead: its errors are the ones source.ts explains, and its outline is built from the
 * document's node ranges. The two outlines agree node for node (outline.test.ts compares them on
 * every bundled scenario and on generated and mutated texts), so a position reads the same
 * whichever parser read the file.
 */
import { constructFromEvents, EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, type Event, type ScalarEvent } from 'js-yaml';
import { isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';

/** A path into a document: mapping keys and sequence indexes from its root. */
export type Path = readonly (string | number)[];

export interface Outline {
  /** The node's first character (a quoted scalar's quote, a block scalar's `|` or `>`). */
  start: number;
  /** Just past the node's last character — a comment after it on its line is not included. */
  end: number;
  /** A mapping: its keys as written (decoded), in order; `kids` holds each key's outline, then its value's. */
  keys?: string[];
  /** A mapping's keys and values in turn, or a sequence's items. */
  kids?: Outline[];
}

/** A text read by js-yaml: its one document's value and outline; undefined where the `yaml` package must read it. */
export function readFast(text: string): { value: unknown; outline: Outline } | undefined {
  let events: Event[];
  let docs: unknown[];
  try {
    events = parseEvents(text, {});
    docs = constructFromEvents(events, { source: text });
  } catch {
    return undefined; // the `yaml` package reads it again, and says what is wrong in the author's terms
  }
  // Empty, or more than one document — or a `...` line, which the `yaml` package reads as ending one (it is never needed).
  if (docs.length !== 1 || DOCUMENT_END.test(text)) return undefined;
  const outline = fromEvents(text, events);
  return outline && { value: docs[0], outline };
}

/** A plain scalar the YAML 1.2 core schema reads as null, a boolean or a number (yaml.org/spec/1.2.2/#1032-tag-resolution). */
const NOT_TEXT =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** A `...` line: the end of a document. */
const DOCUMENT_END = /^\.\.\.(?:[ \t\r\n#]|$)/m;

interface Open {
  node: Outline;
  flow: boolean;
  map: boolean;
}

/** The outline of the one document in `events`; undefined at an anchor, an alias, a tag or a key that is not a scalar. */
function fromEvents(text: string, events: Event[]): Outline | undefined {
  const stack: Open[] = [];
  let root: Outline | undefined;
  let prevEnd = 0;
  const attach = (node: Outline, key?: string): boolean => {
    const parent = stack[stack.length - 1];
    if (!parent) {
      root = node;
      return true;
    }
    const kids = parent.node.kids!;
    if (parent.map && kids.length % 2 === 0) {
      if (key === undefined) return false; // a collection as a key
      parent.node.keys!.push(key);
    }
    kids.push(node);
    return true;
  };
  for (const e of events) {
    switch (e.type) {
      case EVENT_ID.DOCUMENT:
        break;
      case EVENT_ID.SCALAR: {
        if (e.anchorStart !== -1 || e.tagStart !== -1) return undefined;
        const node = scalarOutline(text, e, prevEnd);
        if (!node) return undefined;
        const parent = stack[stack.length - 1];
        if (parent?.map === true && parent.node.kids!.length % 2 === 0) {
          // A key read as something other than text (`1:`, `true:`, an empty key) is named differently by the two parsers' values.
          const key = e.valueStart === -1 ? '' : getScalarValue(text, e);
          if (e.style === SCALAR_STYLE.PLAIN && (key === '' || NOT_TEXT.test(key))) return undefined;
          attach(node, key);
        } else attach(node);
        prevEnd = node.end;
        break;
      }
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING: {
        if (e.anchorStart !== -1 || e.tagStart !== -1) return undefined;
        const map = e.type === EVENT_ID.MAPPING;
        const node: Outline = { start: e.start, end: e.start, kids: [], ...(map && { keys: [] }) };
        if (!attach(node)) return undefined;
        stack.push({ node, flow: e.style === 2, map });
        prevEnd = e.start + (e.style === 2 ? 1 : 0);
        break;
      }
      case EVENT_ID.POP: {
        const open = stack.pop();
        if (!open) break; // the document's end
        const last = open.node.kids![open.node.kids!.length - 1];
        const end = last ? last.end : open.node.start;
        open.node.end = open.flow ? flowEnd(text, end === open.node.start ? end + 1 : end) : end;
        if (open.node.end < 0) return undefined;
        prevEnd = open.node.end;
        break;
      }
      default:
        return undefined; // an alias
    }
  }
  return root;
}

/** A scalar's outline; undefined where its header cannot be found (the `yaml` package reads the file instead). */
function scalarOutline(text: string, e: ScalarEvent, prevEnd: number): Outline | undefined {
  switch (e.style) {
    case SCALAR_STYLE.SINGLE_QUOTED:
    case SCALAR_STYLE.DOUBLE_QUOTED:
      return { start: e.valueStart - 1, end: e.valueEnd + 1 };
    case SCALAR_STYLE.LITERAL_BLOCK:
    case SCALAR_STYLE.FOLDED_BLOCK: {
      // The event gives the content; the node starts at its `|` or `>` header, the first thing after what came before.
      const start = skipSeparation(text, prevEnd);
      if (text[start] !== '|' && text[start] !== '>') return undefined;
      return { start, end: Math.max(blockEnd(text, e), start + 1) };
    }
    default: {
      if (e.valueStart !== -1) return { start: e.valueStart, end: e.valueEnd };
      // An empty value (null): where the value would start — past its key's `:` or its item's `-` and
      // the spaces after it, as the `yaml` package places it.
      let at = prevEnd;
      while (text[at] === ' ' || text[at] === '\t' || text[at] === '\r' || text[at] === '\n') at++;
      if (text[at] === ':' || text[at] === '-') {
        at++;
        while (text[at] === ' ' || text[at] === '\t') at++;
      } else at = prevEnd;
      return { start: at, end: at };
    }
  }
}

/**
 * Where a block scalar's text ends: the event's range runs on over the blank lines after it, and
 * over comment lines indented less than its content — which are not part of it.
 */
function blockEnd(text: string, e: ScalarEvent): number {
  let end = e.valueEnd;
  for (;;) {
    while (end > e.valueStart && (text[end - 1] === ' ' || text[end - 1] === '\t' || text[end - 1] === '\r' || text[end - 1] === '\n')) end--;
    const lineStart = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(Math.max(lineStart, e.valueStart), end);
    const indent = line.length - line.trimStart().length;
    if (lineStart > e.valueStart && line.trimStart().startsWith('#') && indent < e.indent) end = lineStart;
    else return end;
  }
}

/** The first character at or after `at` that is not whitespace, a comment, or an indicator between nodes (`:`, `-`, `?`, `,`). */
export function skipSeparation(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === ':' || c === '-' || c === '?' || c === ',') i++;
    else if (c === '#') {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return text.length;
      i = nl;
    } else return i;
  }
}

/** Just past the `]` or `}` closing a flow collection whose last item ends at `at`; −1 when none follows. */
function flowEnd(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === ',') i++;
    else if (c === '#') {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return -1;
      i = nl;
    } else return c === ']' || c === '}' ? i + 1 : -1;
  }
}

/**
 * The outline of a document the `yaml` package parsed, from its nodes' ranges. A block
 * collection ends where its last item does, as in the outline from events: the `yaml` package's
 * range sometimes runs on over comment lines after it, and an event's text must read the same
 * whichever parser read its file.
 */
export function fromDocument(doc: Document.Parsed): Outline {
  const ended = (valueEnd: number, flow: boolean, kids: Outline[]): number => (flow || kids.length === 0 ? valueEnd : kids[kids.length - 1]!.end);
  const walk = (n: Node): Outline => {
    const [start, valueEnd] = n.range!;
    if (isMap(n)) {
      const keys: string[] = [];
      const kids: Outline[] = [];
      for (const p of n.items) {
        if (!isPair(p)) continue;
        const k = p.key as Node | null;
        keys.push(isScalar(k) ? String(k.value) : '');
        kids.push(k ? walk(k) : { start, end: start });
        const v = p.value as Node | null;
        kids.push(v ? walk(v) : { start: kids[kids.length - 1]!.end, end: kids[kids.length - 1]!.end });
      }
      return { start, end: ended(valueEnd, n.flow === true, kids), keys, kids };
    }
    if (isSeq(n)) {
      const kids = (n.items as Node[]).map(walk);
      return { start, end: ended(valueEnd, n.flow === true, kids), kids };
    }
    return { start, end: valueEnd };
  };
  const root = doc.contents as Node | null;
  return root ? walk(root) : { start: 0, end: 0 };
}

/** The outline of the node at `path` (a key's value, an item); undefined when the path leads nowhere. */
export function nodeAt(node: Outline, path: Path): Outline | undefined {
  let cur: Outline | undefined = node;
  for (const k of path) {
    if (!cur?.kids) return undefined;
    if (cur.keys) {
      const i = cur.keys.indexOf(String(k));
      cur = i < 0 ? undefined : cur.kids[2 * i + 1];
    } else cur = typeof k === 'number' ? cur.kids[k] : undefined;
  }
  return cur;
}

/**
 * The deepest node `path` reaches from `node`, its last step naming a key pointing at the key
 * itself — where a problem with a field's name (unknown, missing) is shown.
 */
export function nearest(node: Outline, path: Path): Outline {
  let cur = node;
  for (const [i, k] of path.entries()) {
    if (!cur.kids) return cur;
    if (cur.keys) {
      const at = cur.keys.indexOf(String(k));
      if (at < 0) return cur;
      if (i === path.length - 1) return cur.kids[2 * at]!;
      cur = cur.kids[2 * at + 1]!;
    } else {
      const item = typeof k === 'number' ? cur.kids[k] : undefined;
      if (!item) return cur;
      cur = item;
    }
  }
  return cur;
}
