import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderTexts } from '../corpus/check.ts';
import { BUILTIN_FOLDS } from '../folds/index.ts';
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
  const site = { corpus, config: { ...(pageWindow !== undefined && { pageWindow }) } } as unknown as SiteCorpus;
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
    expect(JSON.parse(files[0]!.body)).not.toHaveProperty('yaml');
  });

  it('windowed: the HTML keeps the opening request, and every other request and event YAML is in exactly one part', async () => {
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
    const yaml = datas.flatMap((d) => Object.keys(d.yaml ?? {}).map(Number));
    // Each event not printed is in one part's panes; each card outside the window in one part's YAML.
    expect(panes.sort((a, b) => a - b)).toEqual(offsets.filter((o) => !printed.includes(o)));
    expect(yaml.sort((a, b) => a - b)).toEqual(offsets.filter((o) => !parts.plan.window.has(o)));
    datas.forEach((d, i) => {
      for (const o of Object.keys(d.panes.panes)) expect(parts.plan.parts[i]).toContain(Number(o));
      for (const o of Object.keys(d.yaml ?? {})) expect(parts.plan.parts[i]).toContain(Number(o));
    });
    // The YAML is highlighted HTML, escaped: its only tags are the token elements (yaml-html.ts), the text's own markup is entities.
    const all = datas.flatMap((d) => Object.values(d.yaml ?? {}));
    expect(all.join('')).toContain('&lt;');
    for (const html of all) expect(html).not.toMatch(/<(?!\/?y-[a-z]+>)/);
    // Deterministic: the same page model writes the same bytes.
    expect(await scenarioDataFiles(view, parts)).toEqual(files);
  });
});
