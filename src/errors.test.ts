/**
 * The user-facing error type is recognised across duplicate module copies (as Vite can load a
 * module twice), where `instanceof` fails; the CLIs print it without a stack; and no error in the
 * source writes its fix into its message text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

describe('one error shape', () => {
  // A problem and its fix are two fields (UserError's `fix`, an AstroError's hint): the fix written
  // into the problem's text printed it twice over in Astro's overlay, and a caller that reads
  // `problem` got the fix too. Every `new …Error(` under src/ and tools/, up to its closing `);`.
  const ROOT = fileURLToPath(new URL('../', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ts|astro)$/.test(f) && !f.endsWith('.test.ts'))
      .map((f) => join(dir, f));
  /** `line ErrorName` of each error constructed with a fix in its message text. */
  const fixInMessage = (text: string): string[] =>
    [...text.matchAll(/new (\w*Error)\(/g)]
      .filter((m) => /\\n\s*fix:/.test(text.slice(m.index, text.indexOf(');', m.index) + 2)))
      .map((m) => `${text.slice(0, m.index).split('\n').length} ${m[1]}`);

  it('never writes the fix into an error’s message text', () => {
    const offenders = [...files('src'), ...files('tools')].flatMap((file) => fixInMessage(readFileSync(join(ROOT, file), 'utf8')).map((at) => `${file}:${at}`));
    expect(offenders, 'pass the fix as its own field: new UserError(problem, { fix }), or pageError / optionsError (message, hint)').toEqual([]);
  });

  it('finds a fix written into the message, over several lines too, and not one passed as its field', () => {
    expect(fixInMessage('if (!a)\n  throw new UsageError(`bench: unknown argument --x\\n  fix: use --quick`);')).toEqual(['2 UsageError']);
    expect(fixInMessage('throw new Error(\n  `no scenario "x"\\n  fix: use one of: a, b`,\n);')).toEqual(['1 Error']);
    expect(fixInMessage("throw new UsageError('bench: unknown argument', { fix: 'use --quick' });")).toEqual([]);
  });
});
