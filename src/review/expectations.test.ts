/** A review build keeps going past broken cache expectations, and only past those. */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { renderTexts } from '../corpus/check.ts';
import { blockingErrors, expectationFailures, isReviewBuild } from './expectations.ts';

const scenario = (id: string, extra: string): string => `id: ${id}
title: "Scenario ${id}"
${extra}
events:
  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, key: identity, content: "You are ${id}."}}
  - {off: 2, t: 1s, type: agents/context-added, payload: {role: user, content: "hi", actor: {type: user, origin: web}}}
  - {off: 3, t: 2s, type: agent/llm-request-requested, payload: {model: m}}
`;

async function corpus(files: Record<string, string>) {
  const config = await resolveOptions(process.cwd());
  return renderTexts(
    Object.entries(files).map(([file, text]) => ({ file, text })),
    config,
    { everyEvent: false },
  );
}

describe('blockingErrors', () => {
  it('lets a broken expectation through in a review build, and nothing else', async () => {
    const c = await corpus({
      'scenarios/busts.yaml': scenario('busts', 'expect:\n  busts: ["@3"]'),
      'scenarios/stale.yaml': `${scenario('stale', '')}annotations:\n  - request: "@3"\n    find: "no such text"\n    comment: "points nowhere"\n`,
    });
    expect(c.errors).toHaveLength(2);
    const [broken] = expectationFailures(c);
    expect(expectationFailures(c)).toHaveLength(1);
    expect(broken).toMatchObject({ file: 'scenarios/busts.yaml', line: 4 });
    expect(broken!.message).toContain('`expect.busts` lists "@3", but request @3 is the first request of its chain');
    // A review build stops on the stale anchor only: there is no trustworthy page for it.
    expect(blockingErrors(c, true).map((e) => e.pos.file)).toEqual(['scenarios/stale.yaml']);
    // Any other build stops on both.
    expect(blockingErrors(c, false)).toEqual(c.errors);
  });

  it('has nothing to let through when the expectations hold', async () => {
    const c = await corpus({ 'scenarios/ok.yaml': scenario('ok', 'expect:\n  busts: []') });
    expect(c.errors).toEqual([]);
    expect(expectationFailures(c)).toEqual([]);
    expect(blockingErrors(c, true)).toEqual([]);
  });

  it('is a review build only with EXPLAINER_REVIEW=1', () => {
    expect(isReviewBuild({ EXPLAINER_REVIEW: '1' })).toBe(true);
    expect(isReviewBuild({ EXPLAINER_REVIEW: 'true' })).toBe(false);
    expect(isReviewBuild({})).toBe(false);
  });
});
