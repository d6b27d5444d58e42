/**
 * A command's output file: written whole, its folder made; a folder named as the file, or a path
 * the system refuses, is a UserError naming the path and the flag, and nothing is left behind.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from './errors.ts';
import { outputFileProblem, writeOutputFile } from './output-file.ts';
import { thrown } from '../tests/support/thrown.ts';

const dir = mkdtempSync(join(tmpdir(), 'output-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const naming = (shown: string) => ({ shown, option: '--output', example: 'cache.xml' });

describe('writeOutputFile', () => {
  it('writes the text whole, replacing a file there, and makes a missing folder', () => {
    const target = join(dir, 'new', 'deeper', 'cache.xml');
    writeOutputFile(target, '<a/>', naming('new/deeper/cache.xml'));
    expect(readFileSync(target, 'utf8')).toBe('<a/>');
    writeOutputFile(target, '<b/>', naming('new/deeper/cache.xml'));
    expect(readFileSync(target, 'utf8')).toBe('<b/>');
    expect(readdirSync(join(dir, 'new', 'deeper'))).toEqual(['cache.xml']); // no temporary file left
  });

  it('refuses a folder named as the file, with a file name to give instead', () => {
    mkdirSync(join(dir, 'reports'));
    const err = thrown(() => writeOutputFile(join(dir, 'reports'), '<a/>', naming('reports')));
    expect(UserError.is(err)).toBe(true);
    expect((err as Error).message).toBe('--output reports is a folder\n  fix: give --output the path of a file, e.g. reports/cache.xml');
    expect(readdirSync(join(dir, 'reports'))).toEqual([]);
    expect(outputFileProblem(join(dir, 'reports'), naming('reports'))?.message).toBe((err as Error).message);
    expect(outputFileProblem(join(dir, 'not-yet.xml'), naming('not-yet.xml'))).toBeUndefined();
  });

  it('says why a path under a file cannot be written, as a UserError, and leaves nothing', () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    const err = thrown(() => writeOutputFile(join(dir, 'a-file', 'cache.xml'), '<a/>', naming('a-file/cache.xml')));
    expect(UserError.is(err)).toBe(true);
    expect((err as Error).message).toMatch(/^cannot write a-file\/cache\.xml: E(EXIST|NOTDIR): .+\n {2}fix: give --output a path in a folder you can write to$/);
    expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('x');
  });
});
