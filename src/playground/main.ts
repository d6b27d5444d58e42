/**
 * The playground page: a CodeMirror editor beside the request pane of the scenario pages. Each edit
 * (debounced) goes to the worker, which loads, validates and folds; the page shows the pane of the
 * selected event, the errors as editor diagnostics and as the CLI prints them, and keeps the last
 * good pane marked stale while the text has errors. The state is kept in the URL fragment.
 */
import type { EditorView } from '@codemirror/view';
import type { CorpusFile, EngineResult, PlaygroundError } from './engine.ts';
import { createEditor, positionOf, replaceText, showErrors } from './editor.ts';
import { morphInto } from './morph.ts';
import { playgroundPaneHtml } from './pane.ts';
import { MAX_CHARS, MAX_LINE, overLimits, WORKER_TIMEOUT_MS, type FoldInfo, type FromWorker, type ToWorker } from './protocol.ts';
import { decodeHash, encodeState, forDownload, idOf, setFold } from './state.ts';

interface SiteCorpus {
  scenarios: (CorpusFile & { title: string })[];
  defaultFold: string;
  timeZero: string;
}

const DEBOUNCE_MS = 200;
const NEW_FILE = 'scenarios/playground.yaml';

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
    worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (ev: MessageEvent<FromWorker>) => onMessage(ev.data);
    worker.onerror = (ev) => {
      ev.preventDefault();
      fail(`The playground's worker failed (${ev.message || 'unknown error'}); it was restarted.`);
    };
    post({ kind: 'init', corpus: site.scenarios.map(({ file, id, text }) => ({ file, id, text })), defaultFold: site.defaultFold, timeZero: site.timeZero });
  };
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

  const editor: EditorView = createEditor(
    $('pg-editor'),
    text,
    {
      onChange: (t) => {
        text = t;
        schedule(DEBOUNCE_MS);
      },
      onRefused: (n, line) =>
        say(
          n > MAX_CHARS
            ? `Not inserted: the text would be ${n.toLocaleString('en')} characters; the playground takes at most ${MAX_CHARS.toLocaleString('en')}.`
            : `Not inserted: a line would be ${line.toLocaleString('en')} characters long; the playground takes lines of at most ${MAX_LINE.toLocaleString('en')} (break long text into a block scalar, \`|-\`).`,
        ),
    },
    'Scenario YAML',
  );

  function schedule(delay: number): void {
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  }

  function run(): void {
    clearTimeout(watchdog);
    seq++;
    root!.setAttribute('aria-busy', 'true');
    sentAt = performance.now();
    post({ kind: 'run', seq, file, text, ...(selected !== undefined && { selected }) });
    watchdog = setTimeout(() => fail(`processing stopped after ${WORKER_TIMEOUT_MS / 1000} s`), WORKER_TIMEOUT_MS);
    fileLabel.textContent = file;
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
    // Cards come only when they change (protocol.ts); keep them even from a superseded answer.
    if (m.view?.cards) cards = m.view.cards;
    if (m.seq !== seq) return; // an answer to an edit that has been superseded
    clearTimeout(watchdog);
    const { view, ...rest } = m;
    render(view ? { ...rest, view: { ...view, cards } } : rest);
    // The whole round trip: the worker's queue, load, fold, the message both ways, and the render.
    performance.measure('playground:answer', { start: sentAt, duration: performance.now() - sentAt });
    setTimeout(writeUrl, 0);
  }

  function render(r: EngineResult): void {
    root!.removeAttribute('aria-busy');
    const own = r.errors.filter((e) => e.file === file);
    showErrors(editor, own);
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
      const html = playgroundPaneHtml(r.view.pane, r.view.cards);
      performance.measure('playground:markup', { start: t0, duration: performance.now() - t0 });
      morphInto(paneBox, html); // only the rows that changed are replaced (and laid out again)
      paneBox.removeAttribute('data-stale');
      renderEvents(r.view);
      if ([...foldSelect.options].some((o) => o.value === r.view!.fold)) foldSelect.value = r.view.fold;
      say(
        `${r.view.id}: ${r.view.cards.filter((c) => !c.shared).length} events, fold ${r.view.fold}${r.warnings.length ? ` — ${r.warnings.length} warning(s): ${r.warnings.map((w) => `line ${w.line}: ${w.message}`).join('; ')}` : ''}.`,
      );
      void paneBox.getBoundingClientRect().height; // style and layout, inside the measure
      performance.measure('playground:render', { start: t0, duration: performance.now() - t0 });
    } else {
      if (lastGood) paneBox.dataset.stale = '';
      say(`${r.errors.length} error${r.errors.length === 1 ? '' : 's'}${lastGood ? ' — the pane shows the last good render (stale)' : ''}.`);
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
        go.addEventListener('click', () => {
          const { from } = positionOf(editor, e.line, e.col);
          editor.dispatch({ selection: { anchor: from }, scrollIntoView: true });
          editor.focus();
        });
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
    const a = (e.target as HTMLElement).closest<HTMLAnchorElement>('a.prov');
    if (!a) return;
    e.preventDefault();
    selectEvent(Number(a.dataset.off));
    eventSelect.focus();
  });
  openSelect.addEventListener('change', () => {
    const s = site.scenarios.find((c) => c.id === openSelect.value);
    if (!s) return;
    file = s.file;
    selected = undefined;
    lastGood = undefined;
    replaceText(editor, s.text); // undoable: Ctrl+Z brings the edit back
  });
  foldSelect.addEventListener('change', () => replaceText(editor, setFold(text, foldSelect.value)));
  $('pg-download').addEventListener('click', () => {
    const d = forDownload(text, ids);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([d.text], { type: 'application/yaml' }));
    a.download = d.name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    say(`Downloaded ${d.name}${d.id && d.id !== idOf(text) ? ` (id changed to ${d.id}: the site already has ${idOf(text)})` : ''}. Put it in scenarios/ and run npm run check.`);
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
      replaceText(editor, s.text);
    } else if (r.kind === 'state' && r.state.text !== text && !overLimits(r.state.text)) {
      ({ file, selected } = r.state);
      replaceText(editor, r.state.text);
    }
  });

  startWorker();
  run();
}
