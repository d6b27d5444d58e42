/** corpus.json: what the route writes, the page reads back; a failed fetch or another body is a clear error. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCorpusJson, scenarioText, writeCorpusJson, type PlaygroundCorpus, type SiteScenario } from './corpus-json.ts';

const corpus: PlaygroundCorpus = {
  scenarios: [{ file: 'scenarios/a.yaml', id: 'a', title: 'A', text: 'id: a\n' }],
  defaultFold: 'f',
  timeZero: '2026-01-01T00:00:00Z',
  yamlTags: { key: 'y-k' },
};
const answer = (body: string, status = 200) => vi.stubGlobal('fetch', async () => new Response(body, { status }));

describe('corpus.json', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads back what the route writes', async () => {
    answer(writeCorpusJson(corpus));
    expect(await readCorpusJson('/playground/corpus.json')).toEqual(corpus);
  });

  it('a failed fetch and a body that is not the corpus are errors naming what went wrong', async () => {
    answer('nope', 404);
    await expect(readCorpusJson('/c.json')).rejects.toThrow('HTTP 404');
    answer(JSON.stringify({ scenarios: [] }));
    await expect(readCorpusJson('/c.json')).rejects.toThrow("/c.json is not the playground's corpus (scenarios, defaultFold, timeZero, yamlTags)");
  });

  it('a long scenario is fetched from its src, relative to corpus.json, once; a failed fetch names the file', async () => {
    vi.stubGlobal('location', { href: 'https://docs.example/explainer/playground/' });
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      return new Response('id: long\n');
    });
    const s: SiteScenario = { file: 'scenarios/long.yaml', id: 'long', title: 'Long', src: 'scenarios/long.yaml', bytes: 9 };
    expect(await scenarioText(s, '/explainer/playground/corpus.json')).toBe('id: long\n');
    expect(await scenarioText(s, '/explainer/playground/corpus.json')).toBe('id: long\n');
    expect(urls).toEqual(['https://docs.example/explainer/playground/scenarios/long.yaml']);
    answer('gone', 404);
    await expect(scenarioText({ file: s.file, id: s.id, title: s.title, src: 'scenarios/long.yaml', bytes: 9 }, '/explainer/playground/corpus.json')).rejects.toThrow(
      'HTTP 404 for scenarios/long.yaml',
    );
  });
});

describe('which scenarios are fetched when opened', () => {
  it('every one above 64 KB, then the longest until the inline text fits 1 MB; never one another links to', async () => {
    const { fetchedOnOpen } = await import('./corpus-json.ts');
    const KB = 1024;
    // 10 bundled-size files (40 KB each: 400 KB), a 70 KB one, and 20 imported ones of 60 KB (1,200 KB).
    const files = [
      ...Array.from({ length: 10 }, (_, i) => ({ id: `b${i}`, size: 40 * KB })),
      { id: 'long', size: 70 * KB },
      ...Array.from({ length: 20 }, (_, i) => ({ id: `day-${String(i).padStart(2, '0')}`, size: 60 * KB })),
    ];
    const got = fetchedOnOpen(files, new Set());
    // Inline without `long`: 400 + 1,200 = 1,600 KB. Nine 60 KB ones out leave 1,060 KB > 1,024; ten leave 1,000 KB: ten go (ties by id: day-00 … day-09).
    expect([...got].sort()).toEqual(['long', ...Array.from({ length: 10 }, (_, i) => `day-${String(i).padStart(2, '0')}`)].sort());
    // A scenario another one links to stays inline whatever its size.
    expect(fetchedOnOpen([{ id: 'base', size: 100 * KB }], new Set(['base'])).size).toBe(0);
    // The bundled site (≈ 0.74 MB, every file under 64 KB) ships whole.
    expect(fetchedOnOpen(files.slice(0, 10), new Set()).size).toBe(0);
  });
});
