/**
 * The playground's engine gives the same pane as the site's page model for the same scenario and
 * event (it folds one event instead of all), the same error messages as the CLI, finds bases in
 * the corpus, and turns pathological input (an alias bomb, an exception) into an error, never a
 * throw.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { resolveOptions } from '../integration/options.ts';
import { renderCorpus } from '../corpus/check.ts';
import { scenarioView } from '../prompt/view.ts';
import { formatError } from '../scenarios/errors.ts';
import { DEFAULT_ECONOMICS } from '../economics/profiles.ts';
import { economicsOf } from './economics.ts';
import { load, prepare, run, type CorpusFile, type EngineInput } from './engine.ts';
import { CORPUS_TIMEOUT } from '../../tests/support/timeouts.ts';

const config = await resolveOptions(process.cwd());
const site = await renderCorpus(config, { everyEvent: true });
const corpus: CorpusFile[] = readdirSync('scenarios')
  // Scenario files only (an import writes its traffic summary, `<id>.traffic.json`, beside them).
  .filter((n) => n.endsWith('.yaml'))
  .sort()
  .map((n) => {
    const file = `scenarios/${n}`;
    return { file, id: site.scenarios.find((s) => s.scenario.file === file)!.scenario.id, text: readFileSync(file, 'utf8') };
  });
const input = (id: string, over: Partial<EngineInput> = {}): EngineInput => {
  const c = corpus.find((s) => s.id === id)!;
  return { file: c.file, text: c.text, corpus, folds: BUILTIN_FOLDS, defaultFold: config.defaultFold, timeZero: config.timeZero, ...over };
};

describe('playground engine', () => {
  it('builds the same pane as the scenario page, for every event of a scenario with a base', async () => {
    const page = await scenarioView(site.scenarios.find((s) => s.scenario.id === 'sent-re-add')!);
    for (const expected of page.panes) {
      const r = await run(input('sent-re-add', { selected: expected.offset }));
      expect(r.errors).toEqual([]);
      expect(r.view!.selected).toBe(expected.offset);
      expect(r.view!.pane).toEqual(expected);
    }
    const first = await run(input('sent-re-add'));
    expect(first.view!.selected).toBe(page.requests[0]);
    expect(first.view!.cards).toEqual(page.cards.map((c) => ({ ...c, badges: expect.any(Array) })));
  });

  it('builds the same pane as the scenario page for every event of a scenario with a `deploy:`, under the rule in force at it', async () => {
    const id = site.scenarios.find((s) => s.scenario.deploy)!.scenario.id;
    const page = await scenarioView(site.scenarios.find((s) => s.scenario.id === id)!);
    for (const expected of page.panes) {
      const r = await run(input(id, { selected: expected.offset }));
      expect(r.errors).toEqual([]);
      expect(r.view!.pane, `${id} @${expected.offset}`).toEqual(expected);
    }
  });

  it(
    'computes the same economics as the build for every scenario, naming the same event for each cache break',
    async () => {
      const econ = config.economics ?? DEFAULT_ECONOMICS;
      let named = 0;
      for (const c of corpus) {
        const errors: Parameters<typeof prepare>[2] = [];
        const loaded = await load(input(c.id));
        expect(loaded.errors, c.file).toEqual([]);
        // The every-profile table and the never-asks-for-caching finding are the page's lede, which the playground does not show.
        const { byProfile: _pages, unasked: _lede, ...want } = site.economics.get(c.id)!;
        expect(economicsOf(await prepare(loaded.scenario!, BUILTIN_FOLDS, errors, loaded.linked), econ), c.file).toEqual(want);
        expect(errors, c.file).toEqual([]);
        named += want.chain.filter((q) => q.cacheBreak?.events.length).length;
      }
      // The comparison covers breaks whose named event is not a request (what a requests-only fold missed).
      expect(named).toBeGreaterThan(0);
    },
    CORPUS_TIMEOUT,
  );

  it('reports errors exactly as the CLI formats them, and renders nothing', async () => {
    // Corrupt the offset of event @31 to 3, below the event before it; the error points at the value.
    const original = input('sent-re-add').text;
    const lines = original.split('\n');
    const at = lines.findIndex((l) => /^\s*- off: 31\s*$/.test(l));
    expect(at, 'scenarios/02-sent-re-add.yaml has an event `off: 31`').toBeGreaterThan(0);
    const previous = lines
      .slice(0, at)
      .map((l) => /^\s*- off: (\d+)\s*$/.exec(l)?.[1])
      .filter((o) => o !== undefined)
      .at(-1);
    expect(previous, 'an event comes before @31').toBeDefined();
    const pos = { file: 'scenarios/02-sent-re-add.yaml', line: at + 1, col: lines[at]!.indexOf('31') + 1 };
    const text = [...lines.slice(0, at), lines[at]!.replace('off: 31', 'off: 3'), ...lines.slice(at + 1)].join('\n');
    const r = await run(input('sent-re-add', { text }));
    expect(r.view).toBeUndefined();
    expect(r.errors.map((e) => e.formatted)).toEqual([
      formatError({
        pos,
        message: `offset @3 is not after @${previous}, the previous event`,
        fix: `give this event an offset greater than ${previous} — offsets strictly increase (a batch takes one offset per item)`,
      }),
    ]);
    expect(r.errors[0]).toMatchObject({ line: pos.line, col: pos.col });
  });

  it('lists every scenario of the site when the base is unknown', async () => {
    const r = await run(input('sent-re-add', { text: input('sent-re-add').text.replace('base: birth-window', 'base: nope') }));
    expect(r.errors[0]!.message).toBe('unknown base `nope`');
    expect(r.errors[0]!.fix).toContain('birth-window, whole-prompt-key');
  });

  it('loads the scenario a `sharesCache:` names (the subagent and its parent), and lists every id when it names none', async () => {
    const ok = await run(input('lifecycle-subagent'));
    expect(ok.errors).toEqual([]);
    const flow = input('lifecycle-subagent').text.replace(/sharesCache:\n {2}scenario: (\S+)\n {2}at: "@2"\n/, 'sharesCache: {scenario: $1, at: "@2"}\n');
    expect(flow).toContain('sharesCache: {scenario: lifecycle-subagent-parent');
    expect((await run(input('lifecycle-subagent', { text: flow }))).errors).toEqual([]);
    const bad = await run(
      input('lifecycle-subagent', { text: input('lifecycle-subagent').text.replace('scenario: lifecycle-subagent-parent', 'scenario: lifecycle-subagent-parnt') }),
    );
    expect(bad.errors.map((e) => e.message)).toEqual([
      '`sharesCache.scenario` names `lifecycle-subagent-parnt`, which is not a scenario id — did you mean `lifecycle-subagent-parent`?',
    ]);
  });

  it('turns an alias bomb into an error at line 1, not an exception', async () => {
    const bomb = ['id: bomb', 'title: t', 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 12; i++)
      bomb.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(',')}]`,
      );
    bomb.push('events:', '  - off: 1', '    t: 0s', '    type: agents/context-added', '    payload: {role: user, content: *m}');
    const r = await run({ ...input('birth-window'), file: 'scenarios/bomb.yaml', text: bomb.join('\n') });
    expect(r.view).toBeUndefined();
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors.every((e) => e.file === 'scenarios/bomb.yaml' && e.formatted.includes('fix:'))).toBe(true);
  });

  it('keeps going with a file that is not YAML at all', async () => {
    const r = await run({ ...input('birth-window'), file: 'scenarios/x.yaml', text: '\u0000<script>'.repeat(1000) });
    expect(r.view).toBeUndefined();
    expect(r.errors[0]!.formatted).toMatch(/^scenarios\/x\.yaml:\d+:\d+ error: /);
  });
});
