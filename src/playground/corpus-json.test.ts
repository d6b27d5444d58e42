/** corpus.json: what the route writes, the page reads back; a failed fetch or another body is a clear error. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCorpusJson, writeCorpusJson, type PlaygroundCorpus } from './corpus-json.ts';

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
});
