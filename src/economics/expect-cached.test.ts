/**
 * `expect.cached` holds a scenario's prose to its numbers: exactly the listed own requests read
 * from the provider cache. The prompts here are sized against the 1,024-token minimum of the
 * GPT-5.6 Terra profile by construction ("lorem " is one o200k token, so 1,500 of them are far
 * above it and 50 far below), so which request is cached is known without the code under test.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';

const scenario = (words: number, expectBlock: string): string => `id: claims
title: "Claims"
${expectBlock}
events:
  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, key: rules, content: "${'lorem '.repeat(words).trim()}"}}
  - {off: 2, t: 0ms, type: agents/context-added, payload: {role: user, content: "go", actor: {type: user, origin: web}}}
  - {off: 3, t: 1s, type: agent/llm-request-requested, payload: {model: openai/gpt-5.6-terra}}
  - {off: 4, t: 2s, type: agent/llm-request-settled, payload: {requestOffset: 3, result: {status: succeeded, text: "done"}}}
  - {off: 5, t: 3s, type: agents/context-added, payload: {role: user, content: "again", actor: {type: user, origin: web}}}
  - {off: 6, t: 4s, type: agent/llm-request-requested, payload: {model: openai/gpt-5.6-terra}}
`;

async function run(words: number, expectBlock: string): Promise<string[]> {
  const config = await resolveOptions(process.cwd());
  const r = await renderTexts([{ file: 'scenarios/claims.yaml', text: scenario(words, expectBlock) }], config, { everyEvent: false });
  return r.errors.map(formatError);
}

describe('expect.cached', () => {
  it('passes when it lists exactly the requests that read from the cache', async () => {
    expect(await run(1500, 'expect:\n  busts: []\n  cached: ["@6"]')).toEqual([]);
    expect(await run(50, 'expect:\n  busts: []\n  cached: []')).toEqual([]);
  });

  it('a listed request that reads nothing is an error at its entry, with the reason', async () => {
    const small = await run(50, 'expect:\n  busts: []\n  cached: ["@6"]');
    expect(small).toHaveLength(1);
    expect(small[0]).toMatch(/^scenarios\/claims\.yaml:5:12 error: `expect\.cached` lists "@6", but request @6 reads 0 of its \d+ input tokens from the cache: /);
    expect(small[0]).toContain('1,024-token minimum');
    expect(small[0]).toContain('fix: remove "@6" from expect.cached (and any prose that calls it cached)');
    const first = await run(1500, 'expect:\n  busts: []\n  cached: ["@3", "@6"]');
    expect(first).toEqual([
      expect.stringMatching(
        /^scenarios\/claims\.yaml:5:12 error: `expect\.cached` lists "@3", but request @3 reads 0 of its [\d,]+ input tokens from the cache: it is the first request of its chain/,
      ),
    ]);
  });

  it('a cached request the list leaves out is an error at the list', async () => {
    const errors = await run(1500, 'expect:\n  busts: []\n  cached: []');
    expect(errors).toEqual([
      expect.stringMatching(
        /^scenarios\/claims\.yaml:5:11 error: request @6 reads [\d,]+ of its [\d,]+ input tokens from the cache, but `expect\.cached` does not list it\n {2}fix: add "@6" to expect\.cached/,
      ),
    ]);
  });

  it('entries that are not requests of the scenario, or not "@N", are located errors', async () => {
    expect(await run(1500, 'expect:\n  busts: []\n  cached: ["@6", "@5"]')).toEqual([
      expect.stringMatching(
        /^scenarios\/claims\.yaml:5:18 error: `expect\.cached` lists "@5", which is not an accepted request of this scenario\n {2}fix: remove "@5", or name one of: "@3", "@6"$/,
      ),
    ]);
    const bad = await run(1500, 'expect:\n  busts: []\n  cached: ["6"]');
    expect(bad).toEqual([
      expect.stringMatching(/^scenarios\/claims\.yaml:5:12 error: `cached` entries name requests as "@<offset>", got "6"\n {2}fix: write e\.g\. `cached: \["@26"\]`/),
    ]);
    expect(await run(1500, 'expect:\n  busts: []\n  cached: [6]')).toEqual([
      'scenarios/claims.yaml:5:12 error: `cached.0` must be a string, got number 6\n  fix: make `cached.0` a string',
    ]);
  });
});
