/**
 * `opens: "@N"` — the request a scenario's page opens on: parsed with its position, checked to name
 * one of the scenario's own requests (an error with file:line:column and the fix otherwise), and
 * the page model's default when absent (the first request with a ✂ line, else the first request).
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { renderTexts } from '../corpus/check.ts';
import { opensOn } from '../prompt/view.ts';
import { formatError } from './errors.ts';

const config = await resolveOptions(process.cwd());

/** Two user turns, each triggering a request (@2, @4); `head` goes after the title line. */
const scenario = (head = ''): string =>
  [
    'id: one',
    'title: One',
    ...(head ? [head] : []),
    'events:',
    '  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: user, content: hello}}',
    '  - {off: 2, t: 1s, type: agent/llm-request-requested, payload: {model: m}}',
    '  - {off: 3, t: 2s, type: agent/llm-request-settled, payload: {requestOffset: 2, result: {status: succeeded, text: hi}}}',
    '  - {off: 4, t: 3s, type: agents/context-added, payload: {role: user, content: again}}',
    '  - {off: 5, t: 4s, type: agent/llm-request-requested, payload: {model: m}}',
    '',
  ].join('\n');

const run = async (text: string) => await renderTexts([{ file: 'scenarios/one.yaml', text }], config, { everyEvent: false });

describe('opens', () => {
  it('defaults to the first request with a ✂ line', async () => {
    const r = await run(scenario());
    expect(r.errors.map(formatError)).toEqual([]);
    const s = r.scenarios[0]!;
    expect(s.requests.map((q) => [q.offset, q.cut === null])).toEqual([
      [2, true],
      [5, false],
    ]);
    expect(opensOn(s, [])).toBe(5);
  });

  it('opens on the named request', async () => {
    const r = await run(scenario('opens: "@2"'));
    expect(r.errors.map(formatError)).toEqual([]);
    expect(r.scenarios[0]!.scenario.opens).toBe(2);
    expect(opensOn(r.scenarios[0]!, [])).toBe(2);
  });

  it('is an error when it names an event that is not one of the own requests', async () => {
    const r = await run(scenario('opens: "@4"'));
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/one.yaml:3:8 error: `opens` names @4, which is not one of this scenario\'s own requests\n  fix: use one of: "@2", "@5", or remove `opens:` to open on the first request with a ✂ line',
    ]);
  });

  it('is an error when it is not written "@N"', async () => {
    const r = await run(scenario('opens: 4'));
    expect(r.errors.map(formatError)).toEqual([expect.stringMatching(/^scenarios\/one\.yaml:3:8 error: `opens` must be a string/)]);
    const r2 = await run(scenario('opens: "4"'));
    expect(r2.errors.map(formatError)).toEqual([
      'scenarios/one.yaml:3:8 error: `opens` names a request as "@<offset>", got "4"\n  fix: write e.g. `opens: "@42"` (quoted: @ cannot start a plain YAML value)',
    ]);
  });
});
