/**
 * The playground page: the scenario text beside the request pane of the scenario pages. Each edit
 * (debounced) goes to the worker, which loads, validates and folds; the page shows the pane of the
 * selected event, the errors as the CLI prints them (and at their lines), and keeps the last good
 * pane marked stale while the text has errors. The state is kept in the URL fragment.
 *
 * The text opens in the source view (source-view.ts: plain DOM that looks like the editor, coloured
 * from the worker), and the CodeMirror editor (editor.ts, most of the page's JavaScript) is a chunk
 * of its own, imported on the reader's first intent to edit — a pointerdown, focus or key in the
 * source view, a "Go to line" button — or at once when the opened text has errors (fixing them is
 * the obvious next step). Keys typed while it loads are applied when it is ready; until then the
 * Open and Fold selects and links set the text and the source view shows it.
 */
import type { EditorView } from '@codemirror/view';
import { linkOffset, titleProvenanceLink } from '../components/pane-lines.ts';
import type { YamlRange } from '../components/yaml-tokens.ts';
import type { CorpusFile, EngineResult, PlaygroundError } from './engine.ts';
import { morphInto } from './morph.ts';
import { playgroundPaneHtml } from './pane.ts';
import { MAX_CHARS, MAX_LINE, overLimits, WORKER_TIMEOUT_MS, type FoldInfo, type FromWorker, type ToWorker, type WorkerResult } from './protocol.ts';
import type { EconomicsConfig } from '../economics/profiles.ts';
import { positionAt, renderSource, type TokenTags } from './source-view.ts';
import { decodeHash, encodeState, forDownload, idOf, setFold } from './state.ts';

type EditorModule = typeof import('./editor.ts');

interface SiteCorpus {
  scenarios: (CorpusFile & { title: string })[];
  defaultFold: string;
  timeZero: string;
  yamlTags: TokenTags;
  /** The site's provider profiles: the pane's tokens, cost and cache break (src/playground/economics.ts). */
  economics?: EconomicsConfig;
}

const DEBOUNCE_MS = 200;
const NEW_FILE = 'scenarios/playground.yaml';
const LOADING_EDITOR = 'Loading the editor…';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export async function initPlayground(): Promise<void> {
  const root = document.querySelector<HTMLElement>('.playground');
  if (!root) return;
  const status = $('pg-status');
  const errorsBox = $('pg-errors');
  const paneBox = $('pg-pane');
  const openSelect = $<HTMLSelectElement>('pg-open');
  const foldSelect = $<HTMLSelectElement>('pg-fold');
  const eventSelect = $<HTMLSelectElement>('pg-event');
  const fileLabel = $('pg-file');
  const editorBox = $('pg-editor');
  const sourceBox = $('pg-source');
  const say = (text: string): void => {
    status.textContent = text;
  };

  let site: SiteCorpus;
  try {
    const res = await fetch(root.dataset.corpus!);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    site = (await res.json()) as SiteCorpus;
  } catch (err) {
    say(`The site's scenarios could not be loaded (${(err as Error).message}); reload the page.`);
    return;
  }
  const ids = new Set(site.scenarios.map((s) => s.id));
  for (const s of site.scenarios) openSelect.add(new Option(`${s.id} — ${s.title}`, s.id));

  // What to open: a shared state, a scenario of the site, or the first scenario.
  let file = site.scenarios[0]?.file ?? NEW_FILE;
  let text = site.scenarios[0]?.text ?? '';
  let selected: number | undefined;
  const request = decodeHash(location.hash);
  if (request.kind === 'state') {
    const problem = overLimits(request.state.text);
    if (problem) say(`Could not open the link: ${problem}. Opened the first scenario instead.`);
    else ({ file, text, selected } = request.state);
  } else if (request.kind === 'open') {
    const s = site.scenarios.find((c) => c.id === request.id);
    if (s) ({ file, text } = s);
    else say(`No scenario "${request.id}" on this site; opened the first scenario.`);
    selected = request.selected;
  } else if (request.kind === 'bad') say(`Could not open the link: ${request.reason}. Opened the first scenario.`);
  openSelect.value = site.scenarios.find((s) => s.file === file)?.id ?? '';

  // The worker: restarted when it takes too long (an input that would hang the page).
  let worker: Worker;
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  /** The cards of the worker's last view (it sends them only when they change). */
  let cards: NonNullable<EngineResult['view']>['cards'] = [];
  /** When the current run was sent to the worker (playground:answer spans from here to the rendered pane). */
  let sentAt = 0;
  let lastGood: NonNullable<EngineResult['view']> | undefined;
  const startWorker = (): void => {
    // No extension: Vite finds worker.ts here and the compiled worker.js in the installed package.
    worker = new Worker(new URL('./worker', import.meta.url), { type: 'module' });
    worker.onmessage = (ev: MessageEvent<FromWorker>) => onMessage(ev.data);
    worker.onerror = (ev) => {
      ev.preventDefault();
      fail(`The playground's worker failed (${ev.message || 'unknown error'}); it was restarted.`);
    };
    post({
      kind: 'init',
      corpus: site.scenarios.map(({ file, id, text }) => ({ file, id, text })),
      defaultFold: site.defaultFold,
      timeZero: site.timeZero,
      ...(site.economics && { economics: site.economics }),
    });
  };
  /** The text of the run last sent to the worker (its answer's ranges and error lines are for it). */
  let sentText: string | undefined;
  const post = (m: ToWorker): void => worker.postMessage(m);
  const fail = (message: string): void => {
    clearTimeout(watchdog);
    worker.terminate();
    startWorker();
    setTimeout(writeUrl, 0);
    render({
      errors: [
        {
          file,
          line: 1,
          col: 1,
          message,
          fix: 'simplify the input (very large or deeply nested YAML)',
          detail: [],
          formatted: `${file}:1:1 error: ${message}\n  fix: simplify the input (very large or deeply nested YAML)`,
        },
      ],
      warnings: [],
      timings: { load: 0, fold: 0 },
    });
  };

  // The source view until the editor is loaded: the text, its colours (once the worker sent the
  // ranges of this text) and the lines of the last answer's errors (when it was for this text).
  let editor: EditorView | undefined;
  let cm: EditorModule | undefined;
  let tokens: { text: string; ranges: YamlRange[] } | undefined;
  let ownErrors: PlaygroundError[] = [];
  let shownKey = '';
  const showSource = (): void => {
    const ranges = tokens?.text === text ? tokens.ranges : undefined;
    const lines = new Set(sentText === text ? ownErrors.map((e) => e.line) : []);
    const key = `${text}\n${ranges ? 'coloured' : 'plain'}\n${[...lines].join(' ')}`;
    if (key === shownKey) return;
    shownKey = key;
    const t0 = performance.now();
    renderSource(sourceBox, text, ranges, site.yamlTags, lines);
    void sourceBox.getBoundingClientRect().height; // style and layout, inside the measure
    performance.measure('playground:source', { start: t0, duration: performance.now() - t0 });
  };

  /** Sets the whole text: in the editor (undoable) once it is loaded, else in the source view. */
  function setText(t: string): void {
    if (editor && cm) {
      cm.replaceText(editor, t); // its change handler re-runs
      return;
    }
    text = t;
    showSource();
    schedule(0);
  }

  // The editor, loaded once on the first intent to edit. `target`: where its cursor goes;
  // `wantsFocus`: the reader asked for it (an eager load on errors does not take the focus);
  // `typed`: keys pressed in the source view meanwhile.
  let loading: Promise<void> | undefined;
  let target: { line: number; col: number } | undefined;
  let wantsFocus = false;
  const typed: string[] = [];
  function openEditor(at: { line: number; col: number } | undefined, focus: boolean): Promise<void> {
    if (at) target = at;
    wantsFocus ||= focus;
    if (editor && cm && at) {
      editor.dispatch({ selection: { anchor: cm.positionOf(editor, at.line, at.col).from }, scrollIntoView: true });
      editor.focus();
    }
    return (loading ??= loadEditor());
  }
  async function loadEditor(): Promise<void> {
    sourceBox.setAttribute('aria-busy', 'true');
    say(LOADING_EDITOR);
    try {
      cm = await import('./editor.ts');
    } catch (err) {
      loading = undefined; // the next intent to edit tries again
      typed.length = 0;
      wantsFocus = false;
      sourceBox.removeAttribute('aria-busy');
      say(`The editor could not be loaded (${(err as Error).message}); the text stays readable here. Click it to try again, or reload the page.`);
      return;
    }
    const focus = wantsFocus || document.activeElement === sourceBox;
    sourceBox.remove();
    editor = cm.createEditor(editorBox, text, editorHooks, 'Scenario YAML');
    if (sentText === text) cm.showErrors(editor, ownErrors);
    const at = target ?? { line: 1, col: 1 };
    editor.dispatch({ selection: { anchor: cm.positionOf(editor, at.line, at.col).from }, scrollIntoView: focus });
    if (focus) editor.focus();
    cm.typeKeys(editor, typed.splice(0));
    if (status.textContent === LOADING_EDITOR) say(summary);
  }
  const editorHooks = {
    onChange: (t: string): void => {
      text = t;
      schedule(DEBOUNCE_MS);
    },
    onRefused: (n: number, line: number): void =>
      say(
        n > MAX_CHARS
          ? `Not inserted: the text would be ${n.toLocaleString('en')} characters; the playground takes at most ${MAX_CHARS.toLocaleString('en')}.`
          : `Not inserted: a line would be ${line.toLocaleString('en')} characters long; the playground takes lines of at most ${MAX_LINE.toLocaleString('en')} (break long text into a block scalar, \`|-\`).`,
      ),
  };

  // Intents to edit in the source view. A click puts the cursor where it was; keys are kept.
  sourceBox.addEventListener('pointerdown', (e) => {
    if (e.button === 0) void openEditor(positionAt(sourceBox, e.clientX, e.clientY), true);
  });
  sourceBox.addEventListener('focus', () => void openEditor(undefined, true));
  sourceBox.addEventListener('keydown', (e) => {
    if (['Tab', 'Shift', 'Control', 'Alt', 'Meta', 'Escape'].includes(e.key) || e.isComposing) return;
    if (([...e.key].length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) || e.key === 'Enter' || e.key === 'Backspace') {
      typed.push(e.key);
      e.preventDefault();
    }
    void openEditor(undefined, true);
  });

  function schedule(delay: number): void {
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  }

  function run(): void {
    clearTimeout(watchdog);
    seq++;
    root!.setAttribute('aria-busy', 'true');
    sentAt = performance.now();
    sentText = text;
    const wantTokens = !editor && tokens?.text !== text;
    post({ kind: 'run', seq, file, text, ...(selected !== undefined && { selected }), ...(wantTokens && { tokens: true }) });
    watchdog = setTimeout(() => fail(`processing stopped after ${WORKER_TIMEOUT_MS / 1000} s`), WORKER_TIMEOUT_MS);
    fileLabel.textContent = file;
    nameTheEdit();
  }

  /**
   * The Open list names what is in the editor: a site scenario as it is, or "(your edit: <id>)"
   * once the text differs from it — a link to an edited scenario reopens under its edited name,
   * not as the scenario it started from.
   */
  function nameTheEdit(): void {
    const s = site.scenarios.find((c) => c.file === file);
    const edited = !s || s.text !== text;
    const id = idOf(text);
    openSelect.options[0]!.text = edited && id ? `(your edit: ${id})` : '(your edit)';
    openSelect.value = edited ? '' : s.id;
  }

  /**
   * The address bar holds the edit. Written after each answer is shown (and before a link is
   * copied): compressing a long text and replacing a long URL cost the page several ms, which must
   * not delay the worker's answer or the pane.
   */
  function writeUrl(): void {
    history.replaceState(null, '', encodeState({ file, text, ...(selected !== undefined && { selected }) }));
  }

  function onMessage(m: FromWorker): void {
    if (m.kind === 'ready') {
      foldSelect.replaceChildren(...m.folds.map((f: FoldInfo) => new Option(`${f.id} — ${f.title}`, f.id)));
      return;
    }
    if (m.kind === 'tokens') {
      if (m.seq === seq && sentText === text && !editor) {
        tokens = { text, ranges: m.ranges };
        showSource();
      }
      return;
    }
    // Cards come only when they change (protocol.ts); keep them even from a superseded answer.
    if (m.view?.cards) cards = m.view.cards;
    if (m.seq !== seq) return; // an answer to an edit that has been superseded
    clearTimeout(watchdog);
    const { view, ...rest } = m;
    render(view ? { ...rest, view: { ...view, cards } } : rest);
    // Errors in the opened text: fixing them is the obvious next step, so the editor comes at once.
    if (!answered++ && ownErrors.length) void openEditor(undefined, false);
    // The whole round trip: the worker's queue, load, fold, the message both ways, and the render.
    performance.measure('playground:answer', { start: sentAt, duration: performance.now() - sentAt });
    setTimeout(writeUrl, 0);
  }

  let answered = 0;
  /** What the status said about the last answer (said again when the editor has loaded). */
  let summary = '';
  function render(r: EngineResult): void {
    root!.removeAttribute('aria-busy');
    ownErrors = r.errors.filter((e) => e.file === file);
    if (editor && cm) cm.showErrors(editor, ownErrors);
    else showSource();
    renderErrors(r.errors);
    performance.measure('playground:load', { start: performance.now() - r.timings.load, duration: r.timings.load });
    performance.measure('playground:fold', { start: performance.now() - r.timings.fold, duration: r.timings.fold });
    if (r.view) {
      // playground:render spans everything the page does with the answer — highlight and markup
      // (playground:markup), the DOM update, and the style and layout it causes (forced at the end,
      // where the browser would do it before the next frame anyway), so it is what a reader waits for.
      const t0 = performance.now();
      lastGood = r.view;
      selected = r.view.selected;
      const html = playgroundPaneHtml(r.view.pane, r.view.cards, site.yamlTags, (r.view as WorkerResult['view'])?.econ);
      performance.measure('playground:markup', { start: t0, duration: performance.now() - t0 });
      morphInto(paneBox, html); // only the rows that changed are replaced (and laid out again)
      paneBox.removeAttribute('data-stale');
      renderEvents(r.view);
      if ([...foldSelect.options].some((o) => o.value === r.view!.fold)) foldSelect.value = r.view.fold;
      say(
        (summary = `${r.view.id}: ${r.view.cards.filter((c) => !c.shared).length} events, fold ${r.view.fold}${r.warnings.length ? ` — ${r.warnings.length} warning(s): ${r.warnings.map((w) => `line ${w.line}: ${w.message}`).join('; ')}` : ''}.`),
      );
      void paneBox.getBoundingClientRect().height; // style and layout, inside the measure
      performance.measure('playground:render', { start: t0, duration: performance.now() - t0 });
    } else {
      if (lastGood) paneBox.dataset.stale = '';
      say((summary = `${r.errors.length} error${r.errors.length === 1 ? '' : 's'}${lastGood ? ' — the pane shows the last good render (stale)' : ''}.`));
    }
  }

  function renderErrors(errors: readonly PlaygroundError[]): void {
    errorsBox.replaceChildren();
    if (!errors.length) return;
    const h = errorsBox.appendChild(document.createElement('h3'));
    h.textContent = `${errors.length} error${errors.length === 1 ? '' : 's'}`;
    const list = errorsBox.appendChild(document.createElement('ul'));
    for (const e of errors) {
      const li = list.appendChild(document.createElement('li'));
      if (e.file === file) {
        const go = li.appendChild(document.createElement('button'));
        go.type = 'button';
        go.className = 'pg-goto';
        go.textContent = `Go to line ${e.line}`;
        go.addEventListener('click', () => void openEditor({ line: e.line, col: e.col }, true));
      }
      const pre = li.appendChild(document.createElement('pre'));
      pre.textContent = e.formatted; // exactly what `npm run check` prints
    }
  }

  let eventsKey = '';
  let eventsOf: unknown;
  function renderEvents(v: NonNullable<EngineResult['view']>): void {
    // The same cards as last time (the worker did not resend them): only the selection moves.
    if (v.cards === eventsOf) {
      eventSelect.value = String(v.selected);
      return;
    }
    eventsOf = v.cards;
    const key = v.cards.map((c) => `${c.offset} ${c.type} ${c.request ?? ''} ${c.shared} ${c.preview}`).join('\n');
    if (key === eventsKey) {
      eventSelect.value = String(v.selected);
      return;
    }
    eventsKey = key;
    eventSelect.replaceChildren(
      ...v.cards.map((c) => {
        const label = `@${c.offset} ${c.type}${c.request === 'accepted' ? ' (request)' : ''}${c.shared ? ' — base' : ''} — ${c.preview}`;
        return new Option(label.length > 140 ? `${label.slice(0, 139)}…` : label, String(c.offset), false, c.offset === v.selected);
      }),
    );
  }

  const selectEvent = (off: number): void => {
    selected = off;
    schedule(0);
  };
  eventSelect.addEventListener('change', () => selectEvent(Number(eventSelect.value)));
  // Provenance links in the pane select the event that produced the line (the hash holds the state).
  paneBox.addEventListener('click', (e) => {
    const a = (e.target as HTMLElement).closest<HTMLAnchorElement>('a.prov, .gutter > a');
    const off = a && linkOffset(a);
    if (!off) return;
    e.preventDefault();
    selectEvent(Number(off));
    eventSelect.focus();
  });
  // Their titles ("from @3 user/said") are written when pointed at or focused, from the events of
  // the view the pane shows (pane-lines.ts).
  const typeOf = (off: string): string => lastGood?.cards.find((c) => String(c.offset) === off)?.type ?? '';
  for (const type of ['mouseover', 'focusin'] as const) paneBox.addEventListener(type, (e) => titleProvenanceLink(e.target, typeOf));
  openSelect.addEventListener('change', () => {
    const s = site.scenarios.find((c) => c.id === openSelect.value);
    if (!s) return;
    file = s.file;
    selected = undefined;
    lastGood = undefined;
    setText(s.text); // undoable in the editor: Ctrl+Z brings the edit back
  });
  foldSelect.addEventListener('change', () => setText(setFold(text, foldSelect.value)));
  $('pg-download').addEventListener('click', () => {
    const d = forDownload(text, ids);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([d.text], { type: 'application/yaml' }));
    a.download = d.name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    say(
      `Downloaded ${d.name}${d.id && d.id !== idOf(text) ? ` (id changed to ${d.id}: the site already has ${idOf(text)})` : ''}. Put it in scenarios/ and run ${root.dataset.check ?? 'npm run check'}.`,
    );
  });
  $('pg-link').addEventListener('click', async () => {
    writeUrl();
    try {
      await navigator.clipboard.writeText(location.href);
      say('Link copied: it reopens this exact edit.');
    } catch {
      say('Copy the address bar: it holds this exact edit.');
    }
  });
  window.addEventListener('hashchange', () => {
    const r = decodeHash(location.hash);
    if (r.kind === 'open') {
      const s = site.scenarios.find((c) => c.id === r.id);
      if (!s) return;
      file = s.file;
      selected = r.selected;
      openSelect.value = s.id;
      setText(s.text);
    } else if (r.kind === 'state' && r.state.text !== text && !overLimits(r.state.text)) {
      ({ file, selected } = r.state);
      setText(r.state.text);
    }
  });

  showSource();
  startWorker();
  run();
}
