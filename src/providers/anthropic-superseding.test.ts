/**
 * The context-protocol fold's superseding section on Anthropic: under
 * `supersedingSections: timeline` (the default) a sent key's re-add is a system message after the
 * conversation started — a mid-conversation system message. The model check is the Anthropic
 * adapter's (`features`) and the catalog's, shared with every fold: on a model that accepts it the
 * next request reads the cached prefix before it; on any other the check reports the request at its
 * event, naming the model, with the fix. `standing-document` is accepted everywhere and busts.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const RULES = 'Amounts are integer cents; never use floating point for money, not even in a test. '.repeat(60);

function scenario(model: string, supersedingSections: string): string {
  const req = (off: number, t: string) => `  - {off: ${off}, t: ${t}, type: agent/llm-request-requested, payload: {model: ${model}}}\n`;
  const settle = (off: number, req: number, t: string) =>
    `  - {off: ${off}, t: ${t}, type: agents/context-added, payload: {role: assistant, llmRequestOffset: ${req}, content: done}}\n` +
    `  - {off: ${off + 1}, t: ${t}, type: agent/llm-request-settled, payload: {requestOffset: ${req}, result: {status: succeeded}}}\n`;
  return (
    `id: sup\ntitle: t\noptions: {supersedingSections: ${supersedingSections}}\nevents:\n` +
    `  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, key: rules, content: "${RULES}"}}\n` +
    `  - {off: 2, t: 1s, type: agents/context-added, payload: {role: user, content: first, actor: {type: user, origin: web}}}\n` +
    req(3, '1.3s') +
    settle(4, 3, '5s') +
    `  - {off: 10, t: 60s, type: agents/context-added, payload: {role: system, key: rules, content: "rev 2"}}\n` +
    `  - {off: 11, t: 61s, type: agents/context-added, payload: {role: user, content: second, actor: {type: user, origin: web}}}\n` +
    req(12, '61.3s')
  );
}

const run = async (model: string, mode: string) => await renderTexts([{ file: 'scenarios/sup.yaml', text: scenario(model, mode) }], config, { everyEvent: false });

describe('a superseding section on Anthropic', () => {
  it('timeline on Claude Opus 4.8: a mid-conversation system message; the request after it reads the prefix the first one wrote', async () => {
    const r = await run('anthropic/claude-opus-4-8', 'timeline');
    expect(r.errors.map(formatError)).toEqual([]);
    const [one, two] = r.economics.get('sup')!.requests;
    expect(two!.apiError).toBeUndefined();
    expect(two!.readFrom).toBe(one!.offset);
    expect(two!.cachedTokens).toBe(one!.breakpointTokens.at(-1));
    expect(two!.cacheBreak).toBeNull();
  });

  it('timeline on a model without the feature: the check reports the request at its event, naming the model, with the fix', async () => {
    const r = await run('anthropic/claude-sonnet-4-5', 'timeline');
    expect(r.errors.map(formatError)).toEqual([
      expect.stringMatching(
        /^scenarios\/sup\.yaml:\d+:\d+ error: request @12 \(anthropic\/claude-sonnet-4-5, profile anthropic-claude-sonnet-4\.5\) carries a mid-conversation system message, which this model does not accept/,
      ),
    ]);
    expect(r.errors[0]!.fix).toMatch(/Claude Opus 4\.8/);
    // Located at the request event's line.
    expect(r.errors[0]!.pos?.line).toBe(
      scenario('anthropic/claude-sonnet-4-5', 'timeline')
        .split('\n')
        .findIndex((l) => l.includes('off: 12')) + 1,
    );
  });

  it('standing-document on the same model: accepted, and the rewritten leading system message loses the cached prefix', async () => {
    const r = await run('anthropic/claude-sonnet-4-5', 'standing-document');
    expect(r.errors.map(formatError)).toEqual([]);
    const two = r.economics.get('sup')!.requests[1]!;
    expect(two.apiError).toBeUndefined();
    expect(two.cachedTokens).toBe(0);
    expect(two.cacheBreak).toMatchObject({ cause: 'system-changed', events: [10] });
    expect(two.cacheBreak!.tokensLost).toBeGreaterThan(1000);
  });
});
