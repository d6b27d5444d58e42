/**
 * Files the pages hand over are written into the output once, where they say, and then forgotten
 * (a second build in the same process does not write the first one's files again).
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addPageFile, writePageFiles } from './page-files.ts';

const out = mkdtempSync(join(tmpdir(), 'pfe-page-files-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('page files', () => {
  it('writes each kept file under the output directory, creating its folders, then forgets them', () => {
    addPageFile('scenarios/b/data.json', '{"b":1}');
    addPageFile('scenarios/a/data.json', '{"a":1}');
    addPageFile('scenarios/a/data.json', '{"a":2}'); // the page rendered again: the last one wins
    expect(writePageFiles(out)).toBe(2);
    expect(readFileSync(join(out, 'scenarios/a/data.json'), 'utf8')).toBe('{"a":2}');
    expect(readFileSync(join(out, 'scenarios/b/data.json'), 'utf8')).toBe('{"b":1}');
    rmSync(join(out, 'scenarios'), { recursive: true });
    expect(writePageFiles(out)).toBe(0);
    expect(existsSync(join(out, 'scenarios'))).toBe(false);
  });
});
