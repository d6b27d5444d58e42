/**
 * The "Writing a scenario" walkthrough (examples/scenarios/first-scenario.yaml, shown verbatim on
 * the page) is a valid scenario: it loads, renders two requests and its annotations anchor.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { renderTexts } from '../corpus/check.ts';

describe('the writing-a-scenario walkthrough', () => {
  it('is a valid scenario with two requests, a reply, a settlement and annotations', async () => {
    const config = await resolveOptions(process.cwd());
    const file = 'examples/scenarios/first-scenario.yaml';
    const corpus = await renderTexts([{ file, text: readFileSync(file, 'utf8') }], config, { everyEvent: false });
    expect(corpus.errors).toEqual([]);
    const [s] = corpus.scenarios;
    expect(s!.requests.map((q) => q.offset)).toEqual([21, 31]);
    expect(s!.scenario.events.map((e) => e.type)).toContain('agent/llm-request-settled');
    expect(s!.scenario.annotations).toHaveLength(2);
  });
});
