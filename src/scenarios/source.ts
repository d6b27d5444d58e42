/**
 * Source text with positions: YAML documents parsed by the yaml package (keeping every node's
 * range), and the markdown interop format split into its title, intro and ```yaml (path) fences.
 * Everything downstream asks a YamlSource for file:line:column instead of counting itself.
 */
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import type { InputError, SourcePos } from './errors.ts';

export class YamlSource {
  readonly doc: Document.Parsed;
  readonly errors: InputError[] = [];
  readonly file: string;
  readonly text: string;
  private readonly lineOffset: number;
  private readonly lines = new LineCounter();

  /** `lineOffset`: lines before this text in its file (a fence body inside markdown). */
  constructor(file: string, text: string, lineOffset = 0) {
    this.file = file;
    this.text = text;
    this.lineOffset = lineOffset;
    this.doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true, strict: true });
    for (const err of [...this.doc.errors]) {
      this.errors.push({
        pos: this.posAt(err.pos[0]),
        message: `malformed YAML: ${err.message.split('\n')[0]}`,
        fix: err.code === 'DUPLICATE_KEY' ? 'remove or rename the repeated key' : 'fix the YAML syntax here (check indentation, quoting and colons)',
      });
    }
  }

  posAt(index: number): SourcePos {
    const { line, col } = this.lines.linePos(index);
    return { file: this.file, line: line + this.lineOffset, col };
  }

  /** Position of a node (its first character); the document start when absent. */
  pos(node: Node | null | undefined): SourcePos {
    return this.posAt(node?.range?.[0] ?? 0);
  }

  /** Position of the key of `key` in `map`, for "unknown field" and "missing value" errors. */
  keyPos(map: YAMLMap, key: string): SourcePos {
    const pair = pairOf(map, key);
    return this.pos((pair?.key as Node | undefined) ?? map);
  }

  /** The node's source text, dedented, for showing an event as it was written. */
  slice(node: Node): string {
    const [start, , end] = node.range!;
    const col = this.lines.linePos(start).col - 1;
    const lines = (' '.repeat(col) + this.text.slice(start, end)).replace(/\s+$/, '').split('\n');
    const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
    return lines.map((l) => l.slice(indent)).join('\n');
  }
}

export function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key) as Pair | undefined;
}

/** The value node under `key`, or undefined. */
export function valueOf(map: YAMLMap, key: string): Node | undefined {
  return (pairOf(map, key)?.value ?? undefined) as Node | undefined;
}

/** Keys of a map as strings (non-scalar keys become their source text). */
export function keysOf(map: YAMLMap): { key: string; node: Node }[] {
  return map.items.map((p) => ({ key: isScalar(p.key) ? String(p.key.value) : String(p.key), node: p.key as Node }));
}

/** Walks `path` from `node` and returns the deepest node reached (keys point at the key itself). */
export function nodeAt(node: Node | undefined, path: (string | number)[]): Node | undefined {
  let cur = node;
  for (let i = 0; i < path.length; i++) {
    if (!cur) return undefined;
    const k = path[i]!;
    if (isMap(cur)) {
      const pair = pairOf(cur, String(k));
      if (!pair) return cur;
      if (i === path.length - 1) return (pair.key as Node) ?? cur;
      cur = (pair.value as Node) ?? cur;
    } else if ('items' in cur && Array.isArray((cur as { items: unknown[] }).items) && typeof k === 'number') {
      cur = ((cur as { items: Node[] }).items[k] as Node) ?? cur;
    } else {
      return cur;
    }
  }
  return cur;
}

export interface Fence {
  lang: string;
  path: string;
  body: string;
  /** 0-based index of the fence's opening line; the body starts on the next line. */
  line: number;
}

export interface MarkdownScenario {
  title: string;
  titleLine: number;
  intro: string;
  fences: Fence[];
}

const FENCE_OPEN = /^```(\w+)\s+\(([^)]+)\)\s*$/;

/** Splits a markdown interop file: `# Title`, intro prose up to the first `<details>`, fences. */
export function readMarkdown(text: string): MarkdownScenario {
  const lines = text.split('\n');
  const titleLine = lines.findIndex((l) => l.startsWith('# '));
  const title = titleLine >= 0 ? lines[titleLine]!.slice(2).trim() : '';
  const detailsLine = lines.findIndex((l, i) => i > titleLine && l.trimStart().startsWith('<details'));
  const intro = lines.slice(titleLine + 1, detailsLine < 0 ? lines.length : detailsLine).join('\n').trim();
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE_OPEN.exec(lines[i]!);
    if (!m) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    fences.push({ lang: m[1]!, path: m[2]!, body: lines.slice(i + 1, end).join('\n'), line: i });
    i = end;
  }
  return { title, titleLine, intro, fences };
}
