/**
 * Source text with positions: a YAML document's values and where each node is written (read by
 * outline.ts: js-yaml's events for a well-formed file, the `yaml` package's document for one with
 * a problem, whose errors this file says in the author's terms), and the markdown interop format
 * split into its title, intro and ```yaml (path) fences. Everything downstream asks a YamlSource
 * for the file:line:column of a path instead of counting itself. Also text as other tools write
 * it, before any of that: a byte order mark read past, and a file that is not UTF-8 text said to
 * be so (scenario files here; traces and expectations files use the same).
 */
import { LineCounter, parseDocument, visit, type Document, type Scalar, type YAMLError } from 'yaml';
import type { InputError, SourcePos } from './errors.ts';
import { fromDocument, nearest, nodeAt, type Outline, type Path, readFast } from './outline.ts';

export type { Path } from './outline.ts';

/**
 * The text without a leading byte order mark (U+FEFF), which editors and tools on Windows write
 * before UTF-8 text. Not part of what was written: a markdown scenario's `# Title` line starting
 * with one was "missing", and a trace's first JSON line "not JSON" at an invisible character
 * (RFC 8259 lets a JSON parser ignore it: rfc-editor.org/rfc/rfc8259#section-8.1).
 */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * Compressed files, by their format's first bytes as they read decoded as UTF-8 (a byte past ASCII
 * alone becomes U+FFFD): gzip's 1F 8B (RFC 1952) and zstd's 28 B5 2F FD (RFC 8878). A trace file is
 * decompressed as it is read (import/trace-file.ts); what still arrives compressed here — a
 * scenario or expectations file, a zstd trace on a Node without zstd — is said to be so.
 */
const COMPRESSED: readonly (readonly [string, string, (name: string) => string])[] = [
  ['\u001f\ufffd', 'gzip', (name) => `gunzip -k ${name}`],
  ['(\ufffd/\ufffd', 'zstd', (name) => `zstd -d ${name}`],
];

/**
 * A file that is not UTF-8 text. A compressed one, by its first bytes (COMPRESSED). Else one
 * holding NUL characters, which neither YAML nor JSON allows unescaped: most often UTF-16 — what
 * Windows PowerShell 5.1's `>` and `Out-File` write by default (PowerShell 6 and later write UTF-8:
 * learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_character_encoding,
 * read 2026-12-07) — which read as UTF-8 is a NUL after every letter: a scenario read "must be a
 * YAML mapping" and a trace one JSON error per line. One problem says what it is, at the first NUL.
 * `firstLine`: the text's first line in its file (a log is read line by line).
 */
export function encodingProblem(text: string, file: string, firstLine = 1): InputError | undefined {
  const name = (): string => file.replace(/^.*[\\/]/, '');
  const packed = firstLine === 1 ? COMPRESSED.find(([magic]) => text.startsWith(magic)) : undefined;
  if (packed)
    return {
      pos: { file, line: 1, col: 1 },
      message: `the file is ${packed[1]}-compressed, not text`,
      fix: `decompress it first — \`${packed[2](name())}\` — and give the decompressed file`,
    };
  const at = text.indexOf('\u0000');
  if (at < 0) return undefined;
  const before = text.slice(0, at);
  const line = firstLine + (before.match(/\n/g)?.length ?? 0);
  return {
    pos: { file, line, col: at - before.lastIndexOf('\n') },
    message: 'the file holds a NUL character here: it is UTF-16 text (what Windows PowerShell’s `>` and `Out-File` write) or not text at all',
    fix: `save it as UTF-8 — in PowerShell, \`(Get-Content ${name()}) | Set-Content -Encoding utf8 ${name()}\``,
  };
}

export class YamlSource {
  readonly errors: InputError[] = [];
  readonly file: string;
  readonly text: string;
  /** The document as JavaScript values (null after an error). */
  readonly value: unknown = null;
  private readonly outline: Outline = { start: 0, end: 0 };
  private readonly lineOffset: number;
  private lines?: LineCounter;

  /** `lineOffset`: lines before this text in its file (a fence body inside markdown). */
  constructor(file: string, text: string, lineOffset = 0) {
    this.file = file;
    this.text = text;
    this.lineOffset = lineOffset;
    const fast = readFast(text);
    if (fast) {
      this.value = fast.value;
      this.outline = fast.outline;
      return;
    }
    const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, strict: true });
    // Warnings too (an unresolved `!tag` would otherwise silently turn into a plain string).
    const problems = [...doc.errors, ...doc.warnings].sort((x, y) => x.pos[0] - y.pos[0]);
    if (problems.length) {
      // After a syntax error the parser's further complaints are mostly echoes of it: report the
      // first one, and say how many more there are (they show up again if they are real).
      const first = this.yamlError(problems[0]!, doc);
      const more = problems.length - 1;
      if (more) first.detail = [`(${more} more YAML error${more === 1 ? '' : 's'} after this one, likely caused by it: fix this one first)`];
      this.errors.push(first);
      return;
    }
    // Anchors and aliases would make an event read differently from how it is written (and an alias
    // where a mapping belongs gives a misleading "must be a mapping"): every value is written out.
    // An alias is written `*name`: a text without a `*` has none, and is not walked node by node.
    if (text.includes('*'))
      visit(doc, {
        Alias: (_, n) => {
          this.errors.push({
            pos: this.posAt(n.range?.[0] ?? 0),
            message: `YAML alias \`*${n.source}\` is not supported in scenario files`,
            fix: `write the value out here instead of referring to the \`&${n.source}\` anchor (each event reads as it is written)`,
          });
        },
      });
    if (this.errors.length) return;
    this.value = doc.toJS();
    this.outline = fromDocument(doc);
  }

  /** A yaml package error as an input error, re-pointed where the reader can act on it. */
  private yamlError(err: YAMLError, doc: Document.Parsed): InputError {
    const first = err.message.split('\n')[0]!;
    if (err.code === 'MISSING_CHAR' && /closing .?quote/i.test(first)) {
      // The parser notices at the end of the text; the fix belongs where the string was opened.
      const open = unclosedString(doc, err.pos[0]);
      if (open) {
        const q = open.type === 'QUOTE_DOUBLE' ? '"' : "'";
        return {
          pos: this.posAt(open.range![0]),
          message: `malformed YAML: the ${q}-quoted string that starts here is never closed (it swallows the text up to line ${this.posAt(err.pos[0]).line})`,
          fix: `add the closing ${q} at the end of this value (or write long text as a block scalar: \`>-\` and the text indented on the next lines)`,
        };
      }
    }
    if (err.code === 'DUPLICATE_KEY') {
      const key = /^[^:\n]*/.exec(this.text.slice(err.pos[0]))![0].trim();
      return {
        pos: this.posAt(err.pos[0]),
        message: `malformed YAML: duplicate key \`${key}\` in this mapping`,
        fix: 'remove or rename the repeated key (a mapping holds each key once)',
      };
    }
    if (err.code === 'MULTIPLE_DOCS') {
      return {
        pos: this.posAt(err.pos[0]),
        message: 'malformed YAML: a second YAML document starts here (`---`)',
        fix: 'a scenario is one YAML document: remove the `---` line, or move the second document to a file of its own',
      };
    }
    if (/Maximum call stack size exceeded/.test(first)) {
      // The parser ran out of stack inside lists or mappings nested thousands deep (what it says is JavaScript's own words).
      return {
        pos: this.posAt(err.pos[0]),
        message: 'malformed YAML: lists or mappings nest too deep here for the parser to read',
        fix: 'write the value with fewer levels inside one another (a scenario payload never needs more than a few dozen)',
      };
    }
    if (err.code === 'TAG_RESOLVE_FAILED') {
      return {
        pos: this.posAt(err.pos[0]),
        message: `malformed YAML: ${first}`,
        fix: 'remove the `!tag` (scenario files use plain YAML values), or quote the value if the `!` is part of the text',
      };
    }
    return this.translated(err) ?? { pos: this.posAt(err.pos[0]), message: `malformed YAML: ${first}`, fix: 'fix the YAML syntax here (check indentation, quoting and colons)' };
  }

  /** The 0-based line index of a text index, and that line's text. */
  private lineAt(index: number): { n: number; text: string; start: number } {
    const start = this.text.lastIndexOf('\n', index - 1) + 1;
    const end = this.text.indexOf('\n', start);
    return { n: this.text.slice(0, start).split('\n').length - 1, text: this.text.slice(start, end < 0 ? undefined : end), start };
  }

  /** The line after line `n` that holds something (not blank, not a comment). */
  private nextContentLine(n: number): { n: number; text: string; start: number } | undefined {
    const lines = this.text.split('\n');
    let start = lines.slice(0, n + 1).reduce((a, l) => a + l.length + 1, 0);
    for (let i = n + 1; i < lines.length; i++) {
      if (lines[i]!.trim() && !lines[i]!.trim().startsWith('#')) return { n: i, text: lines[i]!, start };
      start += lines[i]!.length + 1;
    }
    return undefined;
  }

  /**
   * The parser's complaint in the author's terms, pointing at the line to change, with a fix that
   * fits the case; undefined when the case is not recognised (the parser's own words are used).
   */
  private translated(err: YAMLError): InputError | undefined {
    const at = err.pos[0];
    const line = this.lineAt(at);
    const indent = (t: string): number => t.length - t.trimStart().length;
    const ch = this.text[at];
    if (err.code === 'BAD_SCALAR_START' && ch !== undefined) {
      // `request: @21`, `find: \`x\``: a plain value cannot start with @ or a backtick.
      const key = /^\s*(?:-\s+)?([^\s:#][^:#]*):\s/.exec(line.text)?.[1]?.trim();
      const value = line.text
        .slice(at - line.start)
        .replace(/\s+#.*$/, '')
        .trimEnd();
      const quoted = JSON.stringify(value);
      return {
        pos: this.posAt(at),
        message: `malformed YAML: a value cannot start with \`${ch}\` unless it is quoted`,
        fix: key ? `quote it: ${key}: ${quoted}` : `quote the value: ${quoted}`,
      };
    }
    if (err.code === 'TAB_AS_INDENT') {
      return { pos: this.posAt(at), message: 'malformed YAML: this line is indented with a tab', fix: 'indent with spaces (YAML does not allow tabs for indentation)' };
    }
    if (err.code === 'MULTILINE_IMPLICIT_KEY' || err.code === 'BLOCK_AS_IMPLICIT_KEY') {
      const next = this.nextContentLine(line.n);
      const keyed = /^\s*(?:-\s+)?([^\s:#][^:#]*):(\s|$)/.exec(line.text);
      // The line below is indented further than this `key: value` line: it is read as part of this
      // value, and the parser complains here — the line to fix is the next one.
      if (keyed && next && indent(next.text) > indent(line.text) && line.text.trimEnd().length > keyed[0].trimEnd().length) {
        const keyCol = line.text.indexOf(keyed[1]!);
        const nextKey = /^\s*(?:-\s+)?([^\s:#][^:#]*):/.exec(next.text)?.[1]?.trim();
        return {
          pos: this.posAt(next.start + indent(next.text)),
          message: `malformed YAML: this line is indented more than \`${keyed[1]!.trim()}:\` above it, so it reads as part of that value`,
          fix: nextKey ? `indent \`${nextKey}:\` by ${keyCol} spaces, like \`${keyed[1]!.trim()}:\`` : `indent it by ${keyCol} spaces, like the line above`,
        };
      }
      if (keyed && / [^\s'"][^#]*: /.test(line.text.slice(line.text.indexOf(':') + 1))) {
        const value = line.text.slice(line.text.indexOf(':') + 1).trim();
        return {
          pos: this.posAt(at),
          message: 'malformed YAML: this value contains `: `, which YAML reads as a nested key',
          fix: `quote it: ${keyed[1]!.trim()}: ${JSON.stringify(value)}`,
        };
      }
      const bare = line.text.trim();
      const noSpace = /^(-\s+)?([\w./-]+):(\S.*)$/.exec(bare);
      if (noSpace)
        return {
          pos: this.posAt(line.start + indent(line.text)),
          message: `malformed YAML: \`${bare}\` has no space after the colon`,
          fix: `write \`${noSpace[1] ?? ''}${noSpace[2]}: ${noSpace[3]}\``,
        };
      if (!bare.includes(':'))
        return {
          pos: this.posAt(line.start + indent(line.text)),
          message: `malformed YAML: \`${bare}\` is not a \`key: value\` line (it has no colon)`,
          fix: 'write the key, a colon and a space, then the value — e.g. `id: my-scenario`',
        };
    }
    if (err.code === 'MISSING_CHAR' && /without - indicator/.test(err.message)) {
      const prev = this.text
        .slice(0, line.start)
        .split('\n')
        .slice(0, -1)
        .reverse()
        .find((l) => l.trim() && !l.trim().startsWith('#'));
      const want = prev ? indent(prev) + (prev.trimStart().startsWith('- ') ? 2 : 0) : undefined;
      const key = /^\s*([^\s:#][^:#]*):/.exec(line.text)?.[1]?.trim();
      return {
        pos: this.posAt(line.start + indent(line.text)),
        message: 'malformed YAML: this line is not indented like the lines of its list entry',
        fix:
          want !== undefined
            ? `indent ${key ? `\`${key}:\`` : 'it'} by ${want} spaces, like the line above (or start a new list entry with \`- \`)`
            : 'indent it like the other lines of its entry',
      };
    }
    if (err.code === 'BAD_INDENT' && /Flow map/.test(err.message)) {
      const open = this.text.lastIndexOf('{', at);
      return {
        pos: this.posAt(open >= 0 ? open : at),
        message: 'malformed YAML: a `{…}` mapping that starts here is not closed',
        fix: 'add the closing `}` at the end of the mapping (on the same line, or indent its continuation lines)',
      };
    }
    if (err.code === 'BAD_INDENT' && /Flow sequence/.test(err.message)) {
      const open = this.text.lastIndexOf('[', at);
      return { pos: this.posAt(open >= 0 ? open : at), message: 'malformed YAML: a `[…]` list that starts here is not closed', fix: 'add the closing `]` at the end of the list' };
    }
    return undefined;
  }

  /** The file:line:column of a text index. */
  posAt(index: number): SourcePos {
    if (!this.lines) {
      this.lines = new LineCounter();
      this.lines.addNewLine(0);
      for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n', i + 1)) this.lines.addNewLine(i + 1);
    }
    const { line, col } = this.lines.linePos(index);
    return { file: this.file, line: line + this.lineOffset, col };
  }

  /** The value written at `path` — or, where nothing is, the nearest node on the way (see `keyPos`). */
  pos(path: Path = []): SourcePos {
    return this.posAt((nodeAt(this.outline, path) ?? nearest(this.outline, path)).start);
  }

  /**
   * Where a problem with the field `path` names is shown: its key when it is written, else the
   * mapping that lacks it (an unknown field, a missing one).
   */
  keyPos(path: Path): SourcePos {
    return this.posAt(nearest(this.outline, path).start);
  }

  /** The value at `path` when it is written and not null, else its key (or the mapping that lacks it). */
  fieldPos(path: Path): SourcePos {
    const v = nodeAt(this.outline, path);
    return v && valueIn(this.value, path) != null ? this.posAt(v.start) : this.keyPos(path);
  }

  /** The value at `path` as JavaScript (undefined when absent). */
  valueAt(path: Path): unknown {
    return valueIn(this.value, path);
  }

  /** The text of the node at `path` as written (with a comment on its last line), dedented: an event shown as it was written. */
  slice(path: Path): string {
    const node = nodeAt(this.outline, path) ?? this.outline;
    let end = node.end;
    while (this.text[end] === ' ' || this.text[end] === '\t') end++;
    if (this.text[end] !== '#') end = node.end;
    else {
      const nl = this.text.indexOf('\n', end);
      end = nl < 0 ? this.text.length : nl;
    }
    const col = this.posAt(node.start).col - 1;
    const lines = (' '.repeat(col) + this.text.slice(node.start, end)).trimEnd().split('\n'); // trimEnd, not /\s+$/: the regex retries at every whitespace run (quadratic in long texts)
    const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
    return lines.map((l) => l.slice(indent)).join('\n');
  }
}

/** The value at `path` inside `value` (undefined when the path leads nowhere). */
function valueIn(value: unknown, path: Path): unknown {
  let cur = value;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return cur;
}

/** The quoted scalar that runs up to `end` without its closing quote. */
function unclosedString(doc: Document.Parsed, end: number): Scalar | undefined {
  let hit: Scalar | undefined;
  visit(doc, {
    Scalar: (_, n) => {
      if ((n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE') && n.range && n.range[0] < end && n.range[1] >= end) hit = n;
    },
  });
  return hit;
}

export interface Fence {
  lang: string;
  path: string;
  body: string;
  /** 0-based index of the fence's opening line; the body starts on the next line. */
  line: number;
  /** False when no closing ``` line follows (the body then runs to the end of the file). */
  closed: boolean;
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
  const lines = text.split(/\r?\n/); // CRLF files read like LF ones (line numbers are the same)
  const titleLine = lines.findIndex((l) => l.startsWith('# '));
  const title = titleLine >= 0 ? lines[titleLine]!.slice(2).trim() : '';
  const detailsLine = lines.findIndex((l, i) => i > titleLine && l.trimStart().startsWith('<details'));
  const intro = lines
    .slice(titleLine + 1, detailsLine < 0 ? lines.length : detailsLine)
    .join('\n')
    .trim();
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE_OPEN.exec(lines[i]!);
    if (!m) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    fences.push({ lang: m[1]!, path: m[2]!, body: lines.slice(i + 1, end).join('\n'), line: i, closed: end < lines.length });
    i = end;
  }
  return { title, titleLine, intro, fences };
}
