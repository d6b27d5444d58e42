import { describe, expect, it } from 'vitest';
import { fixtureName } from '../fixture-format/format.ts';
import { resolveOptions } from '../integration/options.ts';
import { renderCorpus, renderTexts } from '../corpus/check.ts';
import { formatError } from './errors.ts';
import { loadTexts } from './load.ts';
import type { Scenario } from './model.ts';
import { outputCollisions } from './outputs.ts';

const config = await resolveOptions(process.cwd());

const yaml = (id: string, title = 'One'): string =>
  [
    `id: ${id}`,
    `title: ${title}`,
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
const md = (id: string): string =>
  ['# Two', '', 'Intro.', '', '<details>', '', '```yaml (events.yaml)', `id: ${id}`, ...yaml(id).split('\n').slice(2, -1), '```', '', '</details>', ''].join('\n');

const load = async (...files: [string, string][]): Promise<Scenario[]> => {
  const r = await loadTexts(
    files.map(([file, text]) => ({ file, text })),
    config,
  );
  expect(r.errors.map(formatError)).toEqual([]);
  return r.scenarios;
};

describe('outputCollisions', () => {
  it('the default fixture name is fixture-format/format.ts’s', async () => {
    const [s] = await load(['scenarios/x.yaml', yaml('x')]);
    expect(outputCollisions([s!, { ...s!, file: 'scenarios/x.md', id: 'other' }])[0]!.message).toContain(fixtureName('x'));
  });

  it('a.yaml and a.md both write fixtures/a.md: an error naming both files', async () => {
    const scenarios = await load(['scenarios/a.md', md('a-md')], ['scenarios/a.yaml', yaml('a-yaml')]);
    expect(scenarios.map((s) => s.stem)).toEqual(['a', 'a']);
    const errors = outputCollisions(scenarios);
    expect(errors.map(formatError)).toEqual([
      'scenarios/a.yaml:1:1 error: scenarios/a.yaml and scenarios/a.md would both write the fixture a.md\n  fix: rename one of the two files (the fixture is named after the file name without its extension)',
    ]);
  });

  it('fixture names differing only in case collide (one file on case-insensitive file systems)', async () => {
    const errors = outputCollisions(await load(['scenarios/A.yaml', yaml('upper')], ['scenarios/a.yaml', yaml('lower')]));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('scenarios/a.yaml and scenarios/A.yaml would both write the fixture a.md (as A.md; one file on case-insensitive file systems)');
  });

  it('two scenarios with one page route (and search record)', async () => {
    const [a] = await load(['scenarios/a.yaml', yaml('same')]);
    const errors = outputCollisions([a!, { ...a!, file: 'scenarios/b.yaml', stem: 'b' }]);
    expect(errors.map((e) => e.message)).toEqual(['scenarios/b.yaml and scenarios/a.yaml would both be the page /scenarios/same/ (and its search record)']);
  });

  it('two events of one page with one anchor', async () => {
    const [a] = await load(['scenarios/a.yaml', yaml('a')]);
    const twice = { ...a!, chain: [a!.chain[0]!, { ...a!.chain[1]!, offset: a!.chain[0]!.offset }] };
    expect(outputCollisions([twice]).map(formatError)).toEqual([
      'scenarios/a.yaml:8:10 error: the page of `a` would have two events with the anchor #@1: this one and scenarios/a.yaml:4:10\n  fix: give every event of a scenario and its base chain its own offset',
    ]);
  });

  it('distinct outputs: no errors (the bundled corpus included)', async () => {
    expect(outputCollisions(await load(['scenarios/a.yaml', yaml('a')], ['scenarios/b.md', md('b')]))).toEqual([]);
    expect((await renderCorpus(config, { everyEvent: false })).errors.map(formatError)).toEqual([]);
  });

  it('the corpus check reports it, so every command fails before writing', async () => {
    const r = await renderTexts(
      [
        { file: 'scenarios/a.md', text: md('a-md') },
        { file: 'scenarios/a.yaml', text: yaml('a-yaml') },
      ],
      config,
      { everyEvent: false },
    );
    expect(r.errors.map((e) => e.message)).toEqual(['scenarios/a.yaml and scenarios/a.md would both write the fixture a.md']);
  });
});
