/**
 * The user-facing error type is recognised across duplicate module copies (as Vite can load a
 * module twice), where `instanceof` fails; and the CLIs print it without a stack.
 */
import { describe, expect, it, vi } from 'vitest';
import { UserError } from './errors.ts';
import { CorpusError } from './scenarios/errors.ts';
import { SyncError } from './sync/errors.ts';

describe('UserError', () => {
  it('is recognised by its brand in a second copy of the module, where instanceof fails', async () => {
    vi.resetModules();
    const second = './errors.ts?copy'; // a query makes Vite load a second, separate copy
    const copy = (await import(/* @vite-ignore */ second)) as typeof import('./errors.ts');
    const other = new copy.UserError('from the other copy');
    expect(copy.UserError).not.toBe(UserError);
    expect(other instanceof UserError).toBe(false);
    expect(UserError.is(other)).toBe(true);
  });

  it("covers the project's error kinds and nothing else", () => {
    expect(UserError.is(new CorpusError([{ pos: { file: 'a.yaml', line: 1, col: 1 }, message: 'm', fix: 'f' }]))).toBe(true);
    expect(UserError.is(new SyncError('s'))).toBe(true);
    expect(UserError.is(new Error('plain'))).toBe(false);
    expect(UserError.is({ name: 'CorpusError', message: 'a look-alike' })).toBe(false);
    expect(UserError.is(null)).toBe(false);
  });

  it('names the subclass and keeps the problem and its fix apart, printing them as users read them', () => {
    const e = new SyncError('no dist', { fix: 'run npm run build' });
    expect(e.name).toBe('SyncError');
    expect(e.problem).toBe('no dist');
    expect(e.fix).toBe('run npm run build');
    expect(e.message).toBe('no dist\n  fix: run npm run build');
    expect(new SyncError('no dist').message).toBe('no dist');
    expect(new CorpusError([{ pos: { file: 'a.yaml', line: 1, col: 1 }, message: 'm', fix: 'f' }]).name).toBe('CorpusError');
  });
});
