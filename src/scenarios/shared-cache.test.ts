/**
 * `sharesCache:` is checked against the whole corpus like `base:`: an unknown scenario id, a cycle
 * of links and an `at` that names no event of the other scenario are each an error at
 * file:line:column with the fix, and the scenario is not rendered; a well-formed link loads.
 */
import { describe, expect, it } from 'vitest';
import { renderTexts, type RenderedCorpus } from '../corpus/check.ts';
import { resolveOptions } from '../integration/options.ts';
import { formatError } from './errors.ts';

const config = await resolveOptions(process.cwd());

/** A valid scenario (line 1 id, 2 title, then `link` on lines 3–5 when given): a user turn @1, its request @2. */
const scenario = (id: string, link?: { scenario: string; at: string }): string =>
  [
    `id: ${id}`,
    'title: One',
    ...(link ? ['sharesCache:', `  scenario: ${link.scenario}`, `  at: "${link.at}"`] : []),
    'events:',
    '  - off: 1',
    '    t: 0ms',
    '    type: agents/context-added',
    '    payload: {role: user, content: hello}',
    '  - off: 2',
    '    t: 1s',
    '    type: agent/llm-request-requested',
    '    payload: {model: m}',
    '',
  ].join('\n');

const run = async (...files: [string, string][]): Promise<RenderedCorpus> =>
  renderTexts(
    files.map(([file, text]) => ({ file, text })),
    config,
    { everyEvent: false },
  );
const ids = (r: RenderedCorpus): string[] => r.scenarios.map((s) => s.scenario.id);

describe('sharesCache', () => {
  it('a link to an existing scenario and event loads, with the link on the scenario', async () => {
    const r = await run(['scenarios/a.yaml', scenario('parent')], ['scenarios/b.yaml', scenario('child', { scenario: 'parent', at: '@2' })]);
    expect(r.errors).toEqual([]);
    expect(ids(r)).toEqual(['parent', 'child']);
    expect(r.scenarios[1]!.scenario.sharesCache).toMatchObject({ scenario: 'parent', at: 2 });
  });

  it('an unknown scenario id: located, with a did-you-mean; the scenario is not rendered', async () => {
    const r = await run(['scenarios/a.yaml', scenario('parent')], ['scenarios/b.yaml', scenario('child', { scenario: 'parnt', at: '@2' })]);
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/b.yaml:4:13 error: `sharesCache.scenario` names `parnt`, which is not a scenario id — did you mean `parent`?\n' +
        '  fix: use the id of another scenario (parent) or remove `sharesCache:`',
    ]);
    expect(ids(r)).toEqual(['parent']);
  });

  it('a cycle a → b → a: both are located errors, neither is rendered', async () => {
    const r = await run(['scenarios/a.yaml', scenario('a', { scenario: 'b', at: '@1' })], ['scenarios/b.yaml', scenario('b', { scenario: 'a', at: '@1' })]);
    const fix = '  fix: one scenario of the cycle must start the shared clock: remove its `sharesCache:` (a subagent names its parent, the parent names none)';
    expect(r.errors.map(formatError)).toEqual([
      `scenarios/a.yaml:4:13 error: cyclic \`sharesCache\`: a → b → a\n${fix}`,
      `scenarios/b.yaml:4:13 error: cyclic \`sharesCache\`: b → a → b\n${fix}`,
    ]);
    expect(ids(r)).toEqual([]);
  });

  it('a scenario naming itself is a cycle', async () => {
    const r = await run(['scenarios/a.yaml', scenario('a', { scenario: 'a', at: '@1' })]);
    expect(r.errors.map((e) => `${e.pos.line}:${e.pos.col} ${e.message}`)).toEqual(['4:13 cyclic `sharesCache`: a → a']);
    expect(ids(r)).toEqual([]);
  });

  it('`at` naming no event of the other scenario: located, listing its events', async () => {
    const r = await run(['scenarios/a.yaml', scenario('parent')], ['scenarios/b.yaml', scenario('child', { scenario: 'parent', at: '@7' })]);
    expect(r.errors.map(formatError)).toEqual(['scenarios/b.yaml:5:7 error: `sharesCache.at` names @7, which is not an event of `parent`\n  fix: use one of: "@1", "@2"']);
    expect(ids(r)).toEqual(['parent']);
  });

  it('`at` that is not "@N", and a misspelt key: located by the file parser', async () => {
    const bad = scenario('child', { scenario: 'parent', at: '3s' });
    const r = await run(['scenarios/a.yaml', scenario('parent')], ['scenarios/b.yaml', bad]);
    expect(r.errors.map((e) => `${e.pos.line}:${e.pos.col} ${e.message}`)).toEqual(['5:7 `sharesCache.at` must name an event as "@<offset>", got "3s"']);
    const typo = await run(['scenarios/a.yaml', scenario('parent')], ['scenarios/b.yaml', scenario('child', { scenario: 'parent', at: '@1' }).replace('  at:', '  when:')]);
    expect(typo.errors.length).toBeGreaterThan(0);
    expect(typo.errors.every((e) => e.pos.file === 'scenarios/b.yaml' && e.pos.line >= 3 && e.pos.line <= 5)).toBe(true);
    expect(ids(typo)).toEqual(['parent']);
  });

  it('a child whose parent has errors of its own is not rendered, and reports nothing more', async () => {
    const r = await run(
      ['scenarios/a.yaml', scenario('parent').replace('type: agents/context-added', 'type: agents/nope')],
      ['scenarios/b.yaml', scenario('child', { scenario: 'parent', at: '@2' })],
    );
    expect(r.errors.every((e) => e.pos.file === 'scenarios/a.yaml')).toBe(true);
    expect(ids(r)).toEqual([]);
  });
});
