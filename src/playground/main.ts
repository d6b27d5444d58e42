/**
 * The playground page: the scenario text beside the request pane of the scenario pages. Each edit
 * (debounced) goes to the worker (worker-client.ts), which loads, validates and folds; the page
 * shows the pane of the selected event (`<pf-pg-pane>`, PlaygroundPane/pf-pg-pane.ts), the errors
 * as the CLI prints them (`<pf-pg-errors>`, PlaygroundErrors/pf-pg-errors.ts) and at their lines in
 * the text (`<pf-pg-editor>`, PlaygroundEditor/pf-pg-editor.ts: the source view, then the
 * CodeMirror editor on the first intent to edit), and
 * keeps the last good pane marked stale while the text has errors. The state is kept in the URL
 * fragment; the page's own state is the fields of Playground: the file, the selected event, what
 * the status said.
 */
import { readCorpusJson, scenarioText, type PlaygroundCorpus, type SiteScenario } from './corpus-json.ts';
import { LOADING_EDITOR, PlaygroundEditor } from './PlaygroundEditor/pf-pg-editor.ts';
import type { EngineResult } from './engine.ts';
import { PlaygroundErrors, type GotoDetail } from './PlaygroundErrors/pf-pg-errors.ts';
import { PlaygroundPane, type View } from './PlaygroundPane/pf-pg-pane.ts';
import { overLimits, type FoldInfo } from './protocol.ts';
import { decodeHash, encodeState, forDownload, idOf, setFold } from './state.ts';
import { WorkerClient } from './worker-client.ts';

const NEW_FILE = 'scenarios/playground.yaml';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export class Playground {
  readonly root: HTMLElement;
  readonly site: PlaygroundCorpus;
  readonly editor: PlaygroundEditor;
  readonly pane: PlaygroundPane;
  readonly errors: PlaygroundErrors;
  private readonly status = $('pg-status');
  private readonly openSelect = $<HTMLSelectElement>('pg-open');
  private readonly foldSelect = $<HTMLSelectElement>('pg-fold');
  private readonly eventSelect = $<HTMLSelectElement>('pg-event');
  private readonly worker: WorkerClient;
  file: string;
  selected: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private answered = 0;
  /** What the status said about the last answer (said again when the editor has loaded). */
  private summary = '';
  /** The events list shown, and the cards it was made from. */
  private eventsKey = '';
  private eventsOf: unknown;

  constructor(root: HTMLElement, site: PlaygroundCorpus, editor: PlaygroundEditor, pane: PlaygroundPane, errors: PlaygroundErrors) {
    this.root = root;
    this.site = site;
    this.editor = editor;
    this.pane = pane;
    this.errors = errors;
    for (const s of site.scenarios) this.openSelect.add(new Option(`${s.id} — ${s.title}`, s.id));
    this.file = this.opened();
    editor.configure(site.yamlTags, {
      changed: (delay) => this.schedule(delay),
      say: (t) => this.say(t),
      loaded: () => {
        if (this.status.textContent === LOADING_EDITOR) this.say(this.summary);
      },
    });
    this.worker = new WorkerClient(
      {
        kind: 'init',
        // The long ones fetched on opening are linked from no other scenario: the worker never needs them.
        corpus: site.scenarios.flatMap(({ file, id, text }) => (text === undefined ? [] : [{ file, id, text }])),
        defaultFold: site.defaultFold,
        timeZero: site.timeZero,
        ...(site.economics && { economics: site.economics }),
      },
      {
        ready: (folds) => this.foldSelect.replaceChildren(...folds.map((f: FoldInfo) => new Option(`${f.id} — ${f.title}`, f.id))),
        tokens: (ranges) => {
          if (this.worker.sentText === editor.text) editor.setTokens(ranges);
        },
        answer: (r) => this.answer(r),
        // Only the pane changes: the status, the events and the errors are the answer's.
        figures: (v) => this.pane.show(v, this.site.yamlTags),
        failed: (message) => this.failed(message),
      },
    );
  }

  say(text: string): void {
    this.status.textContent = text;
  }

  /** What to open: a shared state, a scenario of the site, or the first scenario (its file; the text goes to the editor). */
  private opened(): string {
    const first = this.site.scenarios[0];
    let file = first?.file ?? NEW_FILE;
    let text = first?.text ?? '';
    const request = decodeHash(location.hash);
    if (request.kind === 'state') {
      const problem = overLimits(request.state.text);
      if (problem) this.say(`Could not open the link: ${problem}. Opened the first scenario instead.`);
      else ({ file, text, selected: this.selected } = request.state);
    } else if (request.kind === 'open') {
      const s = this.site.scenarios.find((c) => c.id === request.id);
      // A long one was fetched before the page started (initPlayground).
      if (s?.text !== undefined) ({ file, text } = s as { file: string; text: string });
      else this.say(`No scenario "${request.id}" on this site; opened the first scenario.`);
      this.selected = request.selected;
    } else if (request.kind === 'bad') this.say(`Could not open the link: ${request.reason}. Opened the first scenario.`);
    this.editor.startWith(text);
    this.openSelect.value = this.site.scenarios.find((s) => s.file === file)?.id ?? '';
    return file;
  }

  schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), delay);
  }

  run(): void {
    this.root.setAttribute('aria-busy', 'true');
    const text = this.editor.text;
    this.worker.run({ file: this.file, text, ...(this.selected !== undefined && { selected: this.selected }), ...(this.editor.wantsTokens && { tokens: true }) });
    $('pg-file').textContent = this.file;
    this.nameTheEdit();
  }

  /**
   * The Open list names what is in the editor: a site scenario as it is, or "(your edit: <id>)"
   * once the text differs from it — a link to an edited scenario reopens under its edited name,
   * not as the scenario it started from.
   */
  private nameTheEdit(): void {
    const text = this.editor.text;
    const s = this.site.scenarios.find((c) => c.file === this.file);
    const edited = !s || s.text !== text;
    const id = idOf(text);
    this.openSelect.options[0]!.text = edited && id ? `(your edit: ${id})` : '(your edit)';
    this.openSelect.value = edited ? '' : s.id;
  }

  /**
   * The address bar holds the edit. Written after each answer is shown (and before a link is
   * copied): compressing a long text and replacing a long URL cost the page several ms, which must
   * not delay the worker's answer or the pane.
   */
  writeUrl(): void {
    history.replaceState(null, '', encodeState({ file: this.file, text: this.editor.text, ...(this.selected !== undefined && { selected: this.selected }) }));
  }

  private answer(r: EngineResult): void {
    this.render(r);
    // Errors in the opened text: fixing them is the obvious next step, so the editor comes at once.
    if (!this.answered++ && r.errors.some((e) => e.file === this.file)) void this.editor.open(undefined, false);
    setTimeout(() => this.writeUrl(), 0);
  }

  private failed(message: string): void {
    setTimeout(() => this.writeUrl(), 0);
    const fix = 'simplify the input (very large or deeply nested YAML)';
    const file = this.file;
    this.render({
      errors: [{ file, line: 1, col: 1, message, fix, detail: [], formatted: `${file}:1:1 error: ${message}\n  fix: ${fix}` }],
      warnings: [],
      timings: { load: 0, fold: 0 },
    });
  }

  render(r: EngineResult): void {
    this.root.removeAttribute('aria-busy');
    this.editor.showErrors(
      r.errors.filter((e) => e.file === this.file),
      this.worker.sentText,
    );
    this.errors.show(r.errors, this.file);
    performance.measure('playground:load', { start: performance.now() - r.timings.load, duration: r.timings.load });
    performance.measure('playground:fold', { start: performance.now() - r.timings.fold, duration: r.timings.fold });
    const v = r.view;
    if (v) {
      this.selected = v.selected;
      this.pane.show(v, this.site.yamlTags);
      this.renderEvents(v);
      if ([...this.foldSelect.options].some((o) => o.value === v.fold)) this.foldSelect.value = v.fold;
      const warnings = r.warnings.length ? ` — ${r.warnings.length} warning(s): ${r.warnings.map((w) => `line ${w.line}: ${w.message}`).join('; ')}` : '';
      this.say((this.summary = `${v.id}: ${v.cards.filter((c) => !c.shared).length} events, fold ${v.fold}${warnings}.`));
    } else {
      const stale = this.pane.stale();
      this.say((this.summary = `${r.errors.length} error${r.errors.length === 1 ? '' : 's'}${stale ? ' — the pane shows the last good render (stale)' : ''}.`));
    }
  }

  private renderEvents(v: View): void {
    const select = this.eventSelect;
    // The same cards as last time (the worker did not resend them): only the selection moves.
    const key = v.cards === this.eventsOf ? this.eventsKey : v.cards.map((c) => `${c.offset} ${c.type} ${c.request ?? ''} ${c.shared} ${c.preview}`).join('\n');
    this.eventsOf = v.cards;
    if (key === this.eventsKey) {
      select.value = String(v.selected);
      return;
    }
    this.eventsKey = key;
    select.replaceChildren(
      ...v.cards.map((c) => {
        const label = `@${c.offset} ${c.type}${c.request === 'accepted' ? ' (request)' : ''}${c.shared ? ' — base' : ''} — ${c.preview}`;
        return new Option(label.length > 140 ? `${label.slice(0, 139)}…` : label, String(c.offset), false, c.offset === v.selected);
      }),
    );
  }

  selectEvent(off: number): void {
    this.selected = off;
    this.schedule(0);
  }

  /**
   * Opens a site scenario (undoable in the editor: Ctrl+Z brings the edit back); from the Open list,
   * the last pane no longer stands for it. A long one is fetched first (corpus-json.ts).
   */
  private openScenario(id: string, selected: number | undefined, fresh: boolean): void {
    const s = this.site.scenarios.find((c) => c.id === id);
    if (!s) return;
    if (s.text === undefined) {
      void this.fetchThen(s, () => this.openScenario(id, selected, fresh));
      return;
    }
    this.file = s.file;
    this.selected = selected;
    this.openSelect.value = s.id;
    if (fresh) this.pane.forget();
    this.editor.setText(s.text);
  }

  /** Fetches a long scenario's text, saying so, then `then()`; a failed fetch is said in the status. */
  private async fetchThen(s: SiteScenario, then: () => void): Promise<void> {
    this.say(`Loading ${s.id} (${Math.round((s.bytes ?? 0) / 1024)} KB)…`);
    try {
      await scenarioText(s, this.root.dataset.corpus!);
    } catch (err) {
      this.say(`${s.id} could not be loaded (${(err as Error).message}); try again.`);
      return;
    }
    then();
  }

  private download(): void {
    const text = this.editor.text;
    const d = forDownload(text, new Set(this.site.scenarios.map((s) => s.id)));
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([d.text], { type: 'application/yaml' }));
    a.download = d.name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    this.say(
      `Downloaded ${d.name}${d.id && d.id !== idOf(text) ? ` (id changed to ${d.id}: the site already has ${idOf(text)})` : ''}. Put it in scenarios/ and run ${this.root.dataset.check ?? 'npm run check'}.`,
    );
  }

  private async copyLink(): Promise<void> {
    this.writeUrl();
    try {
      await navigator.clipboard.writeText(location.href);
      this.say('Link copied: it reopens this exact edit.');
    } catch {
      this.say('Copy the address bar: it holds this exact edit.');
    }
  }

  private onHashChange(): void {
    const r = decodeHash(location.hash);
    if (r.kind === 'open') this.openScenario(r.id, r.selected, false);
    else if (r.kind === 'state' && r.state.text !== this.editor.text && !overLimits(r.state.text)) {
      ({ file: this.file, selected: this.selected } = r.state);
      this.editor.setText(r.state.text);
    }
  }

  /** Listens to the page's controls, shows the text and sends the first run. */
  start(): void {
    this.eventSelect.addEventListener('change', () => this.selectEvent(Number(this.eventSelect.value)));
    // Provenance links in the pane select the event that produced the line (the hash holds the state).
    this.pane.addEventListener('pf-select', (e) => {
      this.selectEvent((e as CustomEvent<number>).detail);
      this.eventSelect.focus();
    });
    this.errors.addEventListener('pf-goto', (e) => void this.editor.open((e as CustomEvent<GotoDetail>).detail, true));
    this.openSelect.addEventListener('change', () => this.openScenario(this.openSelect.value, undefined, true));
    this.foldSelect.addEventListener('change', () => this.editor.setText(setFold(this.editor.text, this.foldSelect.value)));
    $('pg-download').addEventListener('click', () => this.download());
    $('pg-link').addEventListener('click', () => void this.copyLink());
    window.addEventListener('hashchange', () => this.onHashChange());
    this.editor.showSource();
    this.run();
  }
}

export async function initPlayground(): Promise<void> {
  const root = document.querySelector<HTMLElement>('.playground');
  if (!root) return;
  const [editor, pane, errors] = [$('pg-editor'), $('pg-pane'), $('pg-errors')];
  if (!(editor instanceof PlaygroundEditor) || !(pane instanceof PlaygroundPane) || !(errors instanceof PlaygroundErrors)) return;
  let site: PlaygroundCorpus;
  try {
    site = await readCorpusJson(root.dataset.corpus!);
  } catch (err) {
    $('pg-status').textContent = `The site's scenarios could not be loaded (${(err as Error).message}); reload the page.`;
    return;
  }
  // A long scenario the address opens (or the first one, if long) is fetched before the page starts.
  const request = decodeHash(location.hash);
  const opens = (request.kind === 'open' && site.scenarios.find((s) => s.id === request.id)) || site.scenarios[0];
  if (opens && opens.text === undefined) {
    $('pg-status').textContent = `Loading ${opens.id}…`;
    try {
      await scenarioText(opens, root.dataset.corpus!);
    } catch (err) {
      $('pg-status').textContent = `${opens.id} could not be loaded (${(err as Error).message}); reload the page.`;
      return;
    }
  }
  new Playground(root, site, editor, pane, errors).start();
}
