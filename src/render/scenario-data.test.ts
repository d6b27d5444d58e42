import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderTexts } from '../corpus/check.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import type { SiteCorpus } from '../integration/site.ts';
import { scenarioView } from '../prompt/view.ts';
import { pageParts, partData, partRefs, scenarioData, scenarioDataFiles, type ScenarioData } from './scenario-data.ts';
import { mergePaneData, paneDecoder, WIRE_ID_SLOT, wireMarkupOf, type PaneData } from './pane-codec.ts';
import { shownLines } from './pane-data.ts';
import { mergeWire, unpackWire } from '../wire/pack.ts';

const ROOT = join(import.meta.dirname, '../..');
const FILE = 'scenarios/30-imported-trace.yaml';

/** The bundled imported trace (5 requests, ≈ 70,000 characters printed), its page model and its parts under `pageWindow`. */
async function page(pageWindow?: number) {
  const corpus = await renderTexts(
    [{ file: FILE, text: readFileSync(join(ROOT, FILE), 'utf8') }],
    { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests' },
    { everyEvent: true },
  );
  expect(corpus.errors).toEqual([]);
  const site = { corpus, config: { economics: { profiles: {} }, ...(pageWindow !== undefined && { pageWindow }) } } as unknown as SiteCorpus;
  const view = scenarioView(corpus.scenarios[0]!);
  return { view, parts: pageParts(site, view) };
}

describe('a scenario page’s data files', () => {
  it('is one data.json when the page is not windowed (the default window holds every bundled page)', async () => {
    const { view, parts } = await page();
    expect(parts.plan.windowed).toBe(false);
    expect(view.panes.every((p) => parts.inPage(p.offset, p.kind) === (p.offset === view.opens || p.kind === 'request'))).toBe(true);
    expect(partRefs(view, parts)).toEqual([]);
    const files = await scenarioDataFiles(view, parts);
    expect(files).toEqual([{ path: `scenarios/${view.id}/data.json`, body: await scenarioData(view, parts) }]);
    expect(Object.keys((JSON.parse(files[0]!.body) as ScenarioData).events.sources).map(Number)).toEqual(view.cards.map((c) => c.offset));
  });

  it('windowed: the HTML keeps the opening request, every other request is in exactly one part, and every event’s YAML too', async () => {
    const { view, parts } = await page(20_000);
    expect(parts.plan.windowed).toBe(true);
    const offsets = view.cards.map((c) => c.offset);
    const printed = offsets.filter((o) => parts.inPage(o, 'request'));
    expect(printed).toContain(view.opens);
    expect(printed.length).toBeLessThan(offsets.length);
    const files = await scenarioDataFiles(view, parts);
    const refs = partRefs(view, parts);
    expect(files.map((f) => f.path)).toEqual(refs.map((r) => r[2]));
    expect(refs.map((r) => r[2])).toEqual(parts.plan.parts.map((p) => `scenarios/${view.id}/part-${p[0]}.json`));
    const datas = files.map((f) => JSON.parse(f.body) as ScenarioData);
    const panes = datas.flatMap((d) => Object.keys(d.panes.panes).map(Number));
    const yaml = datas.flatMap((d) => Object.keys(d.events.sources).map(Number));
    // Each event not printed is in one part's panes; each card's YAML in one part, as written.
    expect(panes.sort((a, b) => a - b)).toEqual(offsets.filter((o) => !printed.includes(o)));
    expect(yaml.sort((a, b) => a - b)).toEqual(offsets);
    datas.forEach((d, i) => {
      for (const o of Object.keys(d.panes.panes)) expect(parts.plan.parts[i]).toContain(Number(o));
      for (const [o, source] of Object.entries(d.events.sources)) {
        expect(parts.plan.parts[i]).toContain(Number(o));
        expect(source).toBe(view.cards.find((c) => c.offset === Number(o))!.source);
      }
    });
    // A request built from a part carries what a printed one does: its wire views (and their data in
    // the same part), the bill beside the model's figures, the linter's findings.
    // (A part that continues the one before is read on top of it, as the page does.)
    const whole = merge(datas, parts.plan.parts);
    const built = datas.flatMap((d, i) => Object.entries(d.panes.panes).map(([o, p]) => ({ o: Number(o), p, d: { ...d, panes: whole[i]!.panes } })));
    expect(built.length).toBeGreaterThan(0);
    for (const { o, p, d } of built) {
      expect(wireMarkupOf(d.panes, p, o)).toContain(`data-wire="pane-${o}-wire"`);
      expect(wireMarkupOf(d.panes, p, o)).toContain(`name="pane-${o}-wire-formats"`);
      expect(wireMarkupOf(d.panes, p, o)).not.toContain(WIRE_ID_SLOT);
      expect(Object.keys(d.wire?.requests ?? {}).map(Number)).toContain(o);
      expect(p.billed?.text).toMatch(/^billed: cached [\d,]+ · writes [\d,]+ · [\d,]+ tokens · output /);
      expect(p.lint).toEqual(parts.lintByOffset.get(o));
    }
    // Deterministic: the same page model writes the same bytes.
    expect(await scenarioDataFiles(view, parts)).toEqual(files);
  });
});

/** Each part read on top of the parts it continues (what client/page-data.ts does). */
function merge(datas: readonly ScenarioData[], plan: readonly number[][]): { panes: PaneData; wire: ScenarioData['wire'] }[] {
  const merged: { panes: PaneData; wire: ScenarioData['wire'] }[] = [];
  datas.forEach((d, i) => {
    const at = d.base === undefined ? -1 : plan.findIndex((p) => p[0] === d.base);
    if (d.base !== undefined) expect(at).toBe(i - 1);
    const base = merged[at];
    merged.push(base ? { panes: mergePaneData(base.panes, d.panes), wire: d.wire ? mergeWire(base.wire, d.wire) : base.wire } : { panes: d.panes, wire: d.wire });
  });
  return merged;
}

/** What a part's pane reads as once decoded: each line's HTML (or its reference to a line the page shows), provenance and mark, and the rest of the pane. */
function decoded(data: PaneData, offset: number) {
  const lists = paneDecoder(data)(offset)!;
  const enc = data.panes[offset]!;
  const { lines: _l, from: _f, prev: _p, wire: _w, removed, abridged, old, tools: _t, bp, ...rest } = enc;
  const t = (id: number) => data.text[id];
  const h = (id: number) => data.html[id];
  return {
    lines: lists.ids.map(h),
    from: lists.from.map((id) => data.from[id]),
    marks: lists.marks,
    removed: removed.map(([i, ...ids]) => [i, ...ids.map(t)]),
    abridged: abridged?.map(([i, id]) => [i, t(id!)]),
    old: old.map((v, k) => (k % 2 ? h(v) : v)),
    tools: lists.tools.map((v, k) => (k % 2 ? h(v) : v)),
    wireHtml: wireMarkupOf(data, enc, offset),
    bp: bp?.map((v, k) => (k % 2 ? t(v) : v)),
    ...rest,
    removedAtEnd: rest.removedAtEnd.map(t),
  };
}

/** A `requests` scenario of one conversation, stored as the capture importer writes it: request k keeps every message of request k − 1 and adds the answer and a user turn. */
function conversation(requests: number): string {
  const events: string[] = [];
  const question = (k: number) => `{role: user, content: ${JSON.stringify(`Question ${k}: ${'what does the CSV export do with currencies? '.repeat(20)}`)}}`;
  const answer = (k: number) => `{role: assistant, content: ${JSON.stringify(`Answer ${k}: ${'the invoice export streams rows.\\n'.repeat(40)}`)}}`;
  for (let k = 1; k <= requests; k++) {
    const payload =
      k === 1
        ? `{format: anthropic, body: {model: claude-sonnet-4-5, max_tokens: 1024, system: "You are a careful agent.", messages: [${question(1)}]}}`
        : `{format: anthropic, extends: {keep: ${2 * k - 3}, append: [${answer(k - 1)}, ${question(k)}]}}`;
    events.push(`  - {off: ${k}, t: ${k}s, type: request/sent, payload: ${payload}}`);
  }
  return `id: talk\ntitle: A talk\nfold: requests\nevents:\n${events.join('\n')}\n`;
}

describe('a long page’s parts, each continuing the part before', () => {
  async function talk(requests: number, pageWindow: number) {
    const corpus = await renderTexts(
      [{ file: 'scenarios/talk.yaml', text: conversation(requests) }],
      { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests' },
      { everyEvent: true },
    );
    expect(corpus.errors).toEqual([]);
    const site = { corpus, config: { economics: { profiles: {} }, pageWindow } } as unknown as SiteCorpus;
    const view = scenarioView(corpus.scenarios[0]!);
    return { view, parts: pageParts(site, view) };
  }

  it('reads back, on top of the parts it continues, exactly as the part written alone', async () => {
    const { view, parts } = await talk(24, 6000);
    expect(parts.plan.windowed).toBe(true);
    const files = await scenarioDataFiles(view, parts);
    const datas = files.map((f) => JSON.parse(f.body) as ScenarioData);
    expect(datas.filter((d) => d.base !== undefined).length).toBeGreaterThan(datas.length / 2);
    expect(datas[0]!.base).toBeUndefined();
    // The page lists the part each one continues, as its data says (so the browser fetches a chain at once);
    // without the files (`astro dev`, whose parts stand alone) it lists none.
    expect(files.map((f) => f.base)).toEqual(datas.map((d) => d.base));
    expect(partRefs(view, parts, files).map((r) => r[3])).toEqual(datas.map((d) => d.base));
    expect(partRefs(view, parts, files).map((r) => r.length)).toEqual(datas.map((d) => (d.base === undefined ? 3 : 4)));
    expect(partRefs(view, parts).every((r) => r.length === 3)).toBe(true);
    const shown = await shownLines(view.panes.filter((p) => parts.inPage(p.offset, p.kind)));
    const merged = merge(datas, parts.plan.parts);
    for (const [i, offs] of parts.plan.parts.entries()) {
      const alone = JSON.parse(await partData(view, parts, offs, shown)) as ScenarioData;
      expect(alone.base).toBeUndefined();
      expect(Object.keys(merged[i]!.panes.panes).filter((o) => offs.includes(Number(o)))).toEqual(Object.keys(alone.panes.panes));
      for (const o of Object.keys(alone.panes.panes).map(Number)) expect(decoded(merged[i]!.panes, o), `@${o}`).toEqual(decoded(alone.panes, o));
      for (const o of Object.keys(alone.wire?.requests ?? {}).map(Number)) expect(unpackWire(merged[i]!.wire!, o), `wire @${o}`).toEqual(unpackWire(alone.wire!, o));
      expect(datas[i]!.events).toEqual(alone.events);
    }
  });

  it('grows with what the conversation adds: a fresh part now and then, each pane fetched at about twice its own size at most', async () => {
    const { view, parts } = await talk(40, 6000);
    const files = await scenarioDataFiles(view, parts);
    const datas = files.map((f) => JSON.parse(f.body) as ScenarioData);
    const shown = await shownLines(view.panes.filter((p) => parts.inPage(p.offset, p.kind)));
    const alone = await Promise.all(parts.plan.parts.map((offs) => partData(view, parts, offs, shown)));
    const bytes = files.map((f) => f.body.length);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    // Written alone the parts grow with the prompt (the square of the conversation); continued, far less.
    expect(sum(bytes)).toBeLessThan(sum(alone.map((a) => a.length)) / 4);
    // What opening a part fetches: it and the parts it continues, back to a fresh one — at most about twice it written alone.
    datas.forEach((_, i) => {
      let fetched = 0;
      for (let k = i; k >= 0; k--) {
        fetched += bytes[k]!;
        if (datas[k]!.base === undefined) break;
      }
      expect(fetched, `part ${i}`).toBeLessThanOrEqual(2.2 * alone[i]!.length);
    });
    // The fresh parts are few (they grow geometrically).
    expect(datas.filter((d) => d.base === undefined).length).toBeLessThanOrEqual(8);
  });
});
