/**
 * The playground editor's YAML highlighting: a small line tokenizer for CodeMirror's StreamLanguage
 * (comments, keys, quoted and plain values, block scalars, anchors, aliases, tags, flow brackets).
 * It replaces @codemirror/lang-yaml, whose full incremental parser (@lezer/lr + @lezer/yaml, about
 * 14 KB gzip) the playground never needs: the editor only colours text, and the worker's loader is
 * what parses and validates it. Token names are highlight tags; the editor maps them to the `tok-*`
 * classes the site's CSS colours. Newlines keep the previous line's indentation (no `indent`).
 */
import type { StreamParser, StringStream } from '@codemirror/language';

export interface YamlState {
  /** While in a block scalar's text: the indentation of the line that opened it; else -1. */
  block: number;
  /** Depth of open flow collections (`[`/`{`), which may span lines. */
  flow: number;
  /** Indentation of the current line. */
  indent: number;
}

const BLOCK_INDICATOR = /^[|>][-+0-9]*(?=[ \t]*(?:#.*)?$)/;
const KEY_FOLLOWS = /^[ \t]*:(?=[ \t]|$)/;
const FLOW_KEY_FOLLOWS = /^[ \t]*:/;

/** The tag of a plain scalar's text. */
function plainTag(text: string): string {
  if (/^(?:true|false|null|~|yes|no|on|off)$/i.test(text)) return 'keyword';
  if (/^[-+]?(?:\d[\d_]*(?:\.\d*)?(?:e[-+]?\d+)?|\.inf|\.nan|0x[\da-f]+|0o[0-7]+)$/i.test(text)) return 'number';
  return 'string';
}

/** A quoted scalar from its opening quote (to the line's end if it is not closed on this line). */
function quoted(stream: StringStream, quote: string): void {
  stream.next();
  while (!stream.eol()) {
    const ch = stream.next();
    if (quote === '"' && ch === '\\') stream.next();
    else if (ch === quote) {
      // '' is an escaped single quote
      if (quote === "'" && stream.peek() === "'") stream.next();
      else return;
    }
  }
}

export const yamlMode: StreamParser<YamlState> = {
  name: 'yaml',
  startState: () => ({ block: -1, flow: 0, indent: 0 }),
  token(stream, state) {
    if (stream.sol()) {
      state.indent = stream.indentation();
      if (state.block >= 0) {
        // A block scalar goes on over blank lines and lines indented deeper than its key's line.
        if (!stream.string.trim() || state.indent > state.block) {
          stream.skipToEnd();
          return null;
        }
        state.block = -1;
      }
    }
    if (stream.eatSpace()) return null;
    const ch = stream.peek()!;
    const after = stream.pos === 0 || /\s/.test(stream.string.charAt(stream.pos - 1));
    if (ch === '#' && after) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.sol() && stream.match(/^(?:---|\.\.\.)(?=\s|$)/)) return 'meta';
    if (stream.match(/^[-?](?=[ \t]|$)/)) return 'punctuation';
    if (stream.match(/^[[{]/)) {
      state.flow++;
      return 'punctuation';
    }
    if (stream.match(/^[\]}]/)) {
      state.flow = Math.max(0, state.flow - 1);
      return 'punctuation';
    }
    if (state.flow > 0 && stream.eat(',')) return 'punctuation';
    if (stream.match(/^:(?=[ \t]|$)/) || (state.flow > 0 && stream.eat(':'))) return 'punctuation';
    if (stream.match(/^[&*][^\s,[\]{}]+/)) return 'labelName';
    if (stream.match(/^![^\s,[\]{}]*/)) return 'typeName';
    if (stream.match(BLOCK_INDICATOR)) {
      state.block = state.indent;
      return 'keyword';
    }
    const keyFollows = state.flow > 0 ? FLOW_KEY_FOLLOWS : KEY_FOLLOWS;
    if (ch === '"' || ch === "'") {
      quoted(stream, ch);
      return stream.match(keyFollows, false) ? 'propertyName' : 'string';
    }
    // A plain scalar: up to a `: ` (then it is a key), a ` #` comment, or in flow a `,`, `]` or `}`.
    const start = stream.pos;
    const stop = state.flow > 0 ? /[,[\]{}]|:(?=[\s,[\]{}]|$)| #/ : /:(?=[ \t]|$)| #/;
    const rest = stream.string.slice(start);
    const end = rest.search(stop);
    stream.pos = start + (end < 0 ? rest.length : Math.max(1, end));
    stream.pos = start + Math.max(1, stream.current().trimEnd().length);
    const text = stream.current();
    return stream.match(keyFollows, false) ? 'propertyName' : plainTag(text);
  },
  languageData: { commentTokens: { line: '#' } },
};
