/** The shared state's version key is the package's own version, and one name gives one value. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION, sharedState } from './shared-state.ts';

describe('sharedState', () => {
  it('is keyed by the version in package.json', () => {
    expect(PACKAGE_VERSION).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    const value = sharedState('test-entry', () => ({ n: 1 }));
    expect(sharedState('test-entry', () => ({ n: 2 }))).toBe(value);
    expect((globalThis as Record<symbol, unknown>)[Symbol.for(`prompt-fold-explainer@${PACKAGE_VERSION}/test-entry`)]).toBe(value);
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('prompt-fold-explainer/test-entry')]).toBeUndefined();
  });
});
