/**
 * A worked example: a team's vitest suite keeping the cache promises of its own fold. The fold
 * (chat-log.ts) is run over a scenario (../scenarios/chat-log.yaml), exactly as the site's check
 * runs it, and the requests it sends are held to the promises — with the engine, the provider
 * rules and the located explanations of `prompt-fold check`. In a team's repository the imports are
 * the same: `prompt-fold-explainer/assert` and the team's own fold.
 *
 * Run here with the unit tests (`npx vitest run --project unit examples`).
 */
import { readFileSync } from 'node:fs';
import { cacheMatchers, checkCache, type CacheMatchers } from 'prompt-fold-explainer/assert';
import { describe, expect, it } from 'vitest';
import chatLog from './chat-log.ts';

declare module 'vitest' {
  interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> extends CacheMatchers<R> {}
}
expect.extend(cacheMatchers);

const scenario = readFileSync(new URL('../scenarios/chat-log.yaml', import.meta.url), 'utf8');
const run = { fold: chatLog, scenario, file: 'examples/scenarios/chat-log.yaml' };

describe('the chat-log fold keeps the cache', () => {
  it('every send only appends to the one before: no request busts the cached prefix', async () => {
    await expect(run).toKeepCache({ busts: [] });
  });

  it('a broken promise reads like `check`: the request, the scenario line, the fix', async () => {
    // Promising a bust where there is none is a broken promise too (`busts` lists exactly the breaks).
    const check = await checkCache(run, null, { busts: ['@5'] });
    expect(check.ok).toBe(false);
    expect(check.text).toMatch(/^examples\/scenarios\/chat-log\.yaml:\d+:\d+ error: busts lists "@5", but request @5 keeps the whole of request @2 as its prefix\n/);
    expect(check.text).toContain('  fix: remove "@5" from busts');
  });
});
