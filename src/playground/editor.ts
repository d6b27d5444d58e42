/**
 * The playground's editor: CodeMirror 6 with YAML highlighting (yaml-mode.ts), history, line
 * numbers and error markers, themed with the site's colour tokens (light and dark follow the page).
 * Tab is left to the browser so keyboard users can move on from the editor (indent with spaces).
 * Changes that would grow the text or one line past the playground's limits are refused here,
 * before anything is parsed or drawn.
 *
 * Errors are shown by a small extension of our own (a gutter marker whose title is the message, and
 * the erroneous range underlined) rather than @codemirror/lint: its lint sources, panel and hover
 * tooltips weigh about 11 KB gzip, and the page lists every error in full under the editor anyway,
 * each with a "Go to line" button (the keyboard path). Only the pieces used are imported, so the
 * editor's JavaScript stays small (`npm run bench:playground`).
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { EditorState, RangeSet, StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, gutter, GutterMarker, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import type { PlaygroundError } from './engine.ts';
import { MAX_CHARS, MAX_LINE } from './protocol.ts';
import { yamlMode } from './yaml-mode.ts';

export interface EditorHooks {
  onChange: (text: string) => void;
  /** A change was refused: the text would be longer than MAX_CHARS or a line longer than MAX_LINE. */
  onRefused: (chars: number, longestLine: number) => void;
}

const theme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--bg)', border: '1px solid var(--border)', borderRadius: '8px', fontSize: '13px' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace", lineHeight: '1.45' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--accent-bg)', color: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--mark)' },
  '.cm-lintRange-error': { textDecoration: 'underline wavy var(--removed-bar)', textDecorationSkipInk: 'none', textUnderlineOffset: '3px' },
  '.cm-gutter-lint': { width: '1.1em' },
  '.cm-lint-marker-error': { display: 'inline-block', width: '0.7em', height: '0.7em', borderRadius: '50%', backgroundColor: 'var(--removed-bar)', cursor: 'help' },
});

/** The errors shown in the editor: underlined ranges and the lines that have them. */
interface Shown {
  ranges: DecorationSet;
  lines: RangeSet<GutterMarker>;
}

class ErrorMarker extends GutterMarker {
  readonly message: string;
  constructor(message: string) {
    super();
    this.message = message;
  }
  override eq(other: ErrorMarker): boolean {
    return other.message === this.message;
  }
  override toDOM(): Node {
    const el = document.createElement('span');
    el.className = 'cm-lint-marker cm-lint-marker-error';
    el.title = this.message; // the full message is in the error list under the editor too
    el.setAttribute('aria-hidden', 'true');
    return el;
  }
}

const setErrors = StateEffect.define<Shown>();
const errorsField = StateField.define<Shown>({
  create: () => ({ ranges: Decoration.none, lines: RangeSet.empty }),
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setErrors)) return e.value;
    return tr.docChanged ? { ranges: value.ranges.map(tr.changes), lines: value.lines.map(tr.changes) } : value;
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.ranges),
});
const errorGutter = gutter({ class: 'cm-gutter-lint', markers: (view) => view.state.field(errorsField).lines });

export function createEditor(parent: HTMLElement, text: string, hooks: EditorHooks, label: string): EditorView {
  const refuse = EditorState.changeFilter.of((tr) => {
    let longest = 0;
    tr.changes.iterChangedRanges((_a, _b, from, to) => {
      for (let pos = from; pos <= to; ) {
        const line = tr.newDoc.lineAt(pos);
        longest = Math.max(longest, line.length);
        pos = line.to + 1;
      }
    });
    if (tr.newDoc.length <= MAX_CHARS && longest <= MAX_LINE) return true;
    queueMicrotask(() => hooks.onRefused(tr.newDoc.length, longest));
    return false;
  });
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        refuse,
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        StreamLanguage.define(yamlMode),
        syntaxHighlighting(classHighlighter),
        errorsField,
        errorGutter,
        keymap.of([...defaultKeymap, ...historyKeymap]),
        theme,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((u) => u.docChanged && hooks.onChange(u.state.doc.toString())),
      ],
    }),
  });
}

/** Replaces the whole text (undoable). */
export function replaceText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** The document position of a 1-based line:column, clamped into the document. */
export function positionOf(view: EditorView, line: number, col: number): { from: number; to: number } {
  const doc = view.state.doc;
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  const from = Math.min(l.from + Math.max(0, col - 1), l.to);
  return { from, to: Math.max(from, l.to) };
}

/** Shows the errors of the edited file in the editor: a marker at each line, the range underlined. */
export function showErrors(view: EditorView, errors: readonly PlaygroundError[]): void {
  const current = view.state.field(errorsField);
  if (!errors.length && current.lines.size === 0) return;
  const byLine = new Map<number, { from: number; to: number; messages: string[] }>();
  const doc = view.state.doc;
  for (const e of errors) {
    const at = positionOf(view, e.line, e.col);
    const line = doc.lineAt(at.from).from;
    const entry = byLine.get(line) ?? { from: at.from, to: at.to, messages: [] };
    entry.messages.push(`${e.file}:${e.line}:${e.col} ${[e.message, ...e.detail, `fix: ${e.fix}`].join('\n')}`);
    byLine.set(line, entry);
  }
  const lines = [...byLine].sort((a, b) => a[0] - b[0]);
  const mark = Decoration.mark({ class: 'cm-lintRange cm-lintRange-error' });
  view.dispatch({
    effects: setErrors.of({
      ranges: Decoration.set(
        lines.filter(([, e]) => e.to > e.from).map(([, e]) => mark.range(e.from, e.to)),
        true,
      ),
      lines: RangeSet.of(lines.map(([line, e]) => new ErrorMarker(e.messages.join('\n\n')).range(line))),
    }),
  });
}
