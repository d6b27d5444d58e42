/**
 * The integration's options resolve into the one config every entry point reads: the base ref for
 * review comes from EXPLAINER_BASE first, then the `baseRef` option, else none; bad options are
 * OptionsErrors that say the fix.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../errors.ts';
import { resolveOptions } from './options.ts';

const root = process.cwd();

describe('resolveOptions', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('has no base ref by default', async () => {
    vi.stubEnv('EXPLAINER_BASE', '');
    expect((await resolveOptions(root, {})).baseRef).toBeUndefined();
  });

  it('takes the baseRef option', async () => {
    vi.stubEnv('EXPLAINER_BASE', '');
    expect((await resolveOptions(root, { baseRef: 'origin/main' })).baseRef).toBe('origin/main');
  });

  it('lets EXPLAINER_BASE override the option (CI sets it per pull request)', async () => {
    vi.stubEnv('EXPLAINER_BASE', 'abc1234');
    expect((await resolveOptions(root, { baseRef: 'origin/main' })).baseRef).toBe('abc1234');
  });

  it('reports a default fold that is not registered as a user error with the fix', async () => {
    const err = await resolveOptions(root, { folds: ['layered'], defaultFold: 'context-protocol' }).catch((e: unknown) => e);
    expect(UserError.is(err)).toBe(true);
    expect((err as Error).message).toContain('fix: add it to `folds` or pick one of those');
  });
});
