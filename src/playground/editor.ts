/**
 * The playground's editor: CodeMirror 6 with YAML mode, history, line numbers and lint markers,
 * themed with the site's colour tokens (light and dark follow the page). Tab is left to the browser
 * so keyboard users can move on from the editor (indent with spaces). Changes that would grow the
 * text or one line past the playground's limits are refused here, before anything is parsed or drawn.
 */
import { defaultKeymap, deleteCharBackward, history, historyKeymap, insertNewlineAndIndent } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import type { PlaygroundError } from './engine.ts';
import { MAX_CHARS, MAX_LINE } from './protocol.ts';

export interface EditorHooks {
  onChange: (text: string) => void;
  /** A change was refused: the text would be longer than MAX_CHARS or a line longer than MAX_LINE. */
  onRefused: (chars: number, longestLine: number) => void;
}

const theme = EditorView.theme({
  '&': { color: 'var(--pfe-fg)', backgroundColor: 'var(--pfe-bg)', border: '1px solid var(--pfe-border)', borderRadius: '8px', fontSize: '13px' },
  '&.cm-focused': { outline: '3px solid var(--pfe-focus)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace", lineHeight: '1.45' },
  // Plain YAML values have no token class (lang-yaml tags them `content`): the text's own colour is
  // the string colour, as in the source view and the site's printed YAML.
  '.cm-content': { caretColor: 'var(--pfe-fg)', color: 'light-dark(var(--yaml-string-light), var(--yaml-string-dark))' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--pfe-fg)' },
  '.cm-gutters': { backgroundColor: 'var(--pfe-panel)', color: 'var(--pfe-muted)', borderRight: '1px solid var(--pfe-border)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--pfe-accent-bg)', color: 'var(--pfe-fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--pfe-mark)' },
  '.cm-tooltip': { backgroundColor: 'var(--pfe-panel)', color: 'var(--pfe-fg)', border: '1px solid var(--pfe-border)' },
  '.cm-diagnostic': { whiteSpace: 'pre-wrap', fontFamily: 'ui-monospace, monospace', fontSize: '12px' },
  '.cm-diagnostic-error': { borderLeft: '4px solid var(--pfe-removed-bar)' },
});

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
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        yaml(),
        syntaxHighlighting(classHighlighter),
        lintGutter(),
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

/**
 * Applies keys the reader typed before the editor was ready (main.ts queues them while this module
 * loads): characters are inserted at the cursor, Enter and Backspace do what they do in the editor.
 */
export function typeKeys(view: EditorView, keys: readonly string[]): void {
  for (const key of keys) {
    if (key === 'Enter') insertNewlineAndIndent(view);
    else if (key === 'Backspace') deleteCharBackward(view);
    else view.dispatch(view.state.replaceSelection(key), { scrollIntoView: true, userEvent: 'input.type' });
  }
}

/** The document position of a 1-based line:column, clamped into the document. */
export function positionOf(view: EditorView, line: number, col: number): { from: number; to: number } {
  const doc = view.state.doc;
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  const from = Math.min(l.from + Math.max(0, col - 1), l.to);
  return { from, to: Math.max(from, l.to) };
}

/** Shows the errors of the edited file as lint diagnostics at their lines. */
export function showErrors(view: EditorView, errors: readonly PlaygroundError[]): void {
  const diagnostics: Diagnostic[] = errors.map((e) => ({
    ...positionOf(view, e.line, e.col),
    severity: 'error',
    source: `${e.file}:${e.line}:${e.col}`,
    message: [e.message, ...e.detail, `fix: ${e.fix}`].join('\n'),
  }));
  view.dispatch(setDiagnostics(view.state, diagnostics));
}
