/**
 * `<pf-pg-editor>`: the playground's scenario text (PlaygroundEditor.astro, beside it, writes it
 * around the source view and imports this file in its `<script>`). It opens as the source view
 * (../source-view.ts: plain DOM that looks like the editor, coloured from the worker's token
 * ranges, error lines marked), and loads the CodeMirror editor (../editor.ts, most of the page's
 * JavaScript, a chunk of its own) on the reader's first intent to edit — a pointerdown, focus or
 * key in the source view, a "Go to line" — or when the page asks (`open`); after a failed fetch,
 * the next intent fetches it again (client/lazy-chunk.ts). Keys typed while it loads are applied
 * when it is ready. Its state is its private fields: the text, the editor once loaded, the load
 * under way, where the cursor goes, the keys typed meanwhile, the colours and error lines shown.
 */
import type { EditorView } from '@codemirror/view';
import type { YamlRange } from '../../render/yaml-tokens.ts';
import { lazyChunk } from '../../client/lazy-chunk.ts';
import type { PlaygroundError } from '../engine.ts';
import { MAX_CHARS, MAX_LINE } from '../protocol.ts';
import { positionAt, renderSource, type TokenTags } from '../source-view.ts';

type EditorModule = typeof import('../editor.ts');

export const LOADING_EDITOR = 'Loading the editor…';

export interface EditorHooks {
  /** The text changed (`delay`: how long to wait for more before running it). */
  changed(delay: number): void;
  /** A status line for the reader. */
  say(text: string): void;
  /** The editor has loaded (the page says again what it said before "Loading the editor…"). */
  loaded(): void;
}

const DEBOUNCE_MS = 200;
/** The editor's chunk; after a failed fetch the next intent to edit fetches it again (lazy-chunk.ts). */
const editorChunk = lazyChunk(() => import('../editor.ts'));

export class PlaygroundEditor extends HTMLElement {
  #text = '';
  #tags: TokenTags = {};
  #hooks: EditorHooks | undefined;
  #source: HTMLElement | null = null;
  #editor: EditorView | undefined;
  #cm: EditorModule | undefined;
  #loading: Promise<void> | undefined;
  /** Where the cursor goes when the editor opens. */
  #target: { line: number; col: number } | undefined;
  /** The reader asked for the editor (an eager load on errors does not take the focus). */
  #wantsFocus = false;
  /** Keys pressed in the source view while the editor loads. */
  readonly #typed: string[] = [];
  /** The colours of a text (the worker's ranges), and the errors of the text they were found in. */
  #tokens: { text: string; ranges: YamlRange[] } | undefined;
  #errors: { text: string; list: PlaygroundError[] } = { text: '', list: [] };
  #shownKey = '';

  /** The scenario text as last edited. */
  get text(): string {
    return this.#text;
  }

  /** The text the page opens with, before anything runs (setText is an edit: it runs it). */
  startWith(text: string): void {
    this.#text = text;
  }

  /** The highlight classes of YAML token kinds (the site's, from the corpus file), and what the page wants to hear. */
  configure(tags: TokenTags, hooks: EditorHooks): void {
    this.#tags = tags;
    this.#hooks = hooks;
  }

  connectedCallback(): void {
    const box = this.querySelector<HTMLElement>('#pg-source');
    if (!box || this.#source) return;
    this.#source = box;
    box.addEventListener('pointerdown', (e) => {
      if (e.button === 0) void this.open(positionAt(box, e.clientX, e.clientY), true);
    });
    box.addEventListener('focus', () => void this.open(undefined, true));
    box.addEventListener('keydown', (e) => {
      if (['Tab', 'Shift', 'Control', 'Alt', 'Meta', 'Escape'].includes(e.key) || e.isComposing) return;
      if (([...e.key].length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) || e.key === 'Enter' || e.key === 'Backspace') {
        this.#typed.push(e.key);
        e.preventDefault();
      }
      void this.open(undefined, true);
    });
  }

  /** Whether the CodeMirror editor has replaced the source view. */
  get loaded(): boolean {
    return this.#editor !== undefined;
  }

  /** Whether the source view still waits for the colours of the current text. */
  get wantsTokens(): boolean {
    return !this.#editor && this.#tokens?.text !== this.#text;
  }

  /** Sets the whole text: in the editor (undoable) once it is loaded, else in the source view. */
  setText(t: string): void {
    if (this.#editor && this.#cm) {
      this.#cm.replaceText(this.#editor, t); // its change handler re-runs
      return;
    }
    this.#text = t;
    this.showSource();
    this.#hooks?.changed(0);
  }

  /** The colours of the current text, from the worker. */
  setTokens(ranges: YamlRange[]): void {
    if (this.#editor) return;
    this.#tokens = { text: this.#text, ranges };
    this.showSource();
  }

  /** The errors of the edited file, found in `forText`. */
  showErrors(list: PlaygroundError[], forText: string | undefined): void {
    this.#errors = { text: forText ?? '', list };
    if (this.#editor && this.#cm) this.#cm.showErrors(this.#editor, list);
    else this.showSource();
  }

  /** The source view: the text, its colours (once the worker sent them for this text), the lines of its errors. */
  showSource(): void {
    if (!this.#source || this.#editor) return;
    const ranges = this.#tokens?.text === this.#text ? this.#tokens.ranges : undefined;
    const lines = new Set(this.#errors.text === this.#text ? this.#errors.list.map((e) => e.line) : []);
    const key = `${this.#text}\n${ranges ? 'coloured' : 'plain'}\n${[...lines].join(' ')}`;
    if (key === this.#shownKey) return;
    this.#shownKey = key;
    const t0 = performance.now();
    renderSource(this.#source, this.#text, ranges, this.#tags, lines);
    void this.#source.getBoundingClientRect().height; // style and layout, inside the measure
    performance.measure('playground:source', { start: t0, duration: performance.now() - t0 });
  }

  /** Opens the editor (loaded once); `at`: where its cursor goes; `focus`: the reader asked for it. */
  open(at: { line: number; col: number } | undefined, focus: boolean): Promise<void> {
    if (at) this.#target = at;
    this.#wantsFocus ||= focus;
    if (this.#editor && this.#cm && at) {
      this.#editor.dispatch({ selection: { anchor: this.#cm.positionOf(this.#editor, at.line, at.col).from }, scrollIntoView: true });
      this.#editor.focus();
    }
    return (this.#loading ??= this.load());
  }

  private async load(): Promise<void> {
    const box = this.#source!;
    box.setAttribute('aria-busy', 'true');
    this.#hooks?.say(LOADING_EDITOR);
    try {
      this.#cm = await editorChunk();
    } catch (err) {
      this.#loading = undefined; // the next intent to edit tries again
      this.#typed.length = 0;
      this.#wantsFocus = false;
      box.removeAttribute('aria-busy');
      this.#hooks?.say(`The editor could not be loaded (${(err as Error).message}); the text stays readable here. Click it to try again, or reload the page.`);
      return;
    }
    const cm = this.#cm;
    const focus = this.#wantsFocus || document.activeElement === box;
    box.remove();
    const editor = cm.createEditor(this, this.#text, this.editorHooks(), 'Scenario YAML');
    this.#editor = editor;
    if (this.#errors.text === this.#text) cm.showErrors(editor, this.#errors.list);
    const at = this.#target ?? { line: 1, col: 1 };
    editor.dispatch({ selection: { anchor: cm.positionOf(editor, at.line, at.col).from }, scrollIntoView: focus });
    if (focus) editor.focus();
    cm.typeKeys(editor, this.#typed.splice(0));
    this.#hooks?.loaded();
  }

  private editorHooks() {
    return {
      onChange: (t: string): void => {
        this.#text = t;
        this.#hooks?.changed(DEBOUNCE_MS);
      },
      onRefused: (n: number, line: number): void =>
        this.#hooks?.say(
          n > MAX_CHARS
            ? `Not inserted: the text would be ${n.toLocaleString('en')} characters; the playground takes at most ${MAX_CHARS.toLocaleString('en')}.`
            : `Not inserted: a line would be ${line.toLocaleString('en')} characters long; the playground takes lines of at most ${MAX_LINE.toLocaleString('en')} (break long text into a block scalar, \`|-\`).`,
        ),
    };
  }
}

if (!customElements.get('pf-pg-editor')) customElements.define('pf-pg-editor', PlaygroundEditor);
