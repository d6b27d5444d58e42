import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderTexts } from '../corpus/check.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import type { SiteCorpus } from '../integration/site.ts';
import { scenarioView } from '../prompt/view.ts';
import { pageParts, partRefs, scenarioData, scenarioDataFiles, type ScenarioData } from './scenario-data.ts';

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
    const built = datas.flatMap((d) => Object.entries(d.panes.panes).map(([o, p]) => ({ o: Number(o), p, d })));
    expect(built.length).toBeGreaterThan(0);
    for (const { o, p, d } of built) {
      expect(p.wireHtml).toContain(`data-wire="pane-${o}-wire"`);
      expect(Object.keys(d.wire?.requests ?? {}).map(Number)).toContain(o);
      expect(p.billed?.text).toMatch(/^billed: cached [\d,]+ · writes [\d,]+ · [\d,]+ tokens · output /);
      expect(p.lint).toEqual(parts.lintByOffset.get(o));
    }
    // Deterministic: the same page model writes the same bytes.
    expect(await scenarioDataFiles(view, parts)).toEqual(files);
  });
});
