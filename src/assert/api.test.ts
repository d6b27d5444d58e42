/**
 * The test API as a suite calls it: provider bodies (wrapped with their bill) kept and broken, the
 * vitest matcher through expect.extend (its failure message is the located explanation), a fold
 * run over a scenario, and bad input as a CacheInputError naming the request.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chatLog } from '../../examples/folds/chat-log.ts';
import { assertCache, CacheAssertionError, CacheInputError, cacheMatchers, checkCache, type CacheMatchers, type RecordedRequest } from './api.ts';

declare module 'vitest' {
  interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> extends CacheMatchers<R> {}
}
expect.extend(cacheMatchers);

const recorded: RecordedRequest[] = readFileSync('examples/traces/agent-session.anthropic.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((l) => {
    const { timestamp, body, response } = JSON.parse(l);
    return { timestamp, body, response };
  });

describe('assertCache', () => {
  it('resolves when the promises hold, with the billed figures', async () => {
    const check = await assertCache(recorded.slice(0, 3), 'claude-sonnet-4-5', { busts: [], cached: ['@2', '@3'] });
    expect(check.ok).toBe(true);
    expect(check.conversations).toHaveLength(1);
    expect(check.text).toMatch(/^ok: every promise kept — 1 conversation, 3 requests/);
  });
  it('throws a CacheAssertionError whose message is the located explanation, without engine frames', async () => {
    const err = await assertCache(recorded, 'claude-sonnet-4-5', { busts: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheAssertionError);
    const e = err as CacheAssertionError;
    expect(e.message).toMatch(/^requests:4:1 error: request @4 busts the cached prefix of request @3/);
    expect(e.message).toContain("Today's date: 2026-12-01.");
    expect(e.stack).not.toMatch(/\n\s+at /);
    expect(e.failures.map((f) => [f.expectation, f.request])).toEqual([['busts', 4]]);
  });
  it('a body naming another model than the one asked for, and an unknown expectation, are input errors', async () => {
    const err = await checkCache(recorded, 'gpt-5', { busts: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheInputError);
    expect((err as Error).message).toContain('requests:1:1 error: request 1 names the model "claude-sonnet-4-5", but the check was asked for "gpt-5"');
    const bad = await checkCache(recorded, null, { bust: [] } as never).catch((e: unknown) => e);
    expect((bad as Error).message).toContain('unknown expectation `bust`');
    const body = await checkCache([{ model: 'gpt-5', messages: 'hi' }], null, {}).catch((e: unknown) => e);
    expect((body as Error).message).toMatch(/^requests:1:\d+ error: /);
  });
});

describe('toKeepCache (vitest)', () => {
  it('passes, fails with the explanation, and reads .not', async () => {
    await expect(recorded.slice(0, 3)).toKeepCache({ busts: [] });
    await expect(recorded).not.toKeepCache({ busts: [] });
    const err = await expect(recorded)
      .toKeepCache({ model: 'claude-sonnet-4-5', busts: [] })
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^expected every cache promise to be kept:\nrequests:4:1 error: request @4 busts/);
  });
});

describe('a fold run over a scenario', () => {
  const scenario = readFileSync('examples/scenarios/chat-log.yaml', 'utf8');
  it('the example fold only appends: no request busts', async () => {
    await expect({ fold: chatLog, scenario, file: 'examples/scenarios/chat-log.yaml' }).toKeepCache({ busts: [] });
  });
  it('a promise the run breaks is located at the scenario event', async () => {
    const check = await checkCache({ fold: chatLog, scenario, file: 'examples/scenarios/chat-log.yaml' }, null, { busts: ['@5'] });
    expect(check.ok).toBe(false);
    expect(check.text).toMatch(/^examples\/scenarios\/chat-log\.yaml:\d+:\d+ error: busts lists "@5", but request @5 keeps the whole of request @2 as its prefix/);
  });
});
