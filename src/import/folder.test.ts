/**
 * The line the import prints for a Claude Code session file with sub-agent transcripts beside it
 * (`<session>/subagents/agent-*.jsonl`, as Claude Code 2.1 writes them): what was not read, and the
 * command that reads them — in the words of the project it runs in (`npm run import --` here,
 * `npx prompt-fold import` in a host site).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { project, setProject } from '../project.ts';
import { subAgentNote } from './folder.ts';

const before = project();
const dir = mkdtempSync(join(tmpdir(), 'pfe-subagents-'));
afterEach(() => setProject(before));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('subAgentNote', () => {
  const session = join(dir, 'abc.jsonl');
  writeFileSync(session, '{}\n');
  mkdirSync(join(dir, 'abc', 'subagents'), { recursive: true });
  writeFileSync(join(dir, 'abc', 'subagents', 'agent-a1.jsonl'), '{}\n');

  it('names the files not read and the command that imports the folder, here and in a host', () => {
    setProject({ host: false, configFile: 'astro.config.mjs' });
    expect(subAgentNote('captures/abc.jsonl', session)).toBe(
      'not read: 1 sub-agent transcript(s) beside captures/abc.jsonl (abc/subagents/agent-a1.jsonl): each sub-agent is a conversation of its own; import the folder to get them as scenarios linked to this session (sharesCache): npm run import -- captures --out-dir <folder>',
    );
    setProject({ host: true, configFile: 'astro.config.mjs' });
    expect(subAgentNote('abc.jsonl', session)).toMatch(/: npx prompt-fold import \. --out-dir <folder>$/);
  });

  it('says nothing for a session without sub-agent files, or a file that is not a transcript', () => {
    expect(subAgentNote('x.jsonl', join(dir, 'x.jsonl'))).toBeUndefined();
    expect(subAgentNote('abc.json', join(dir, 'abc.json'))).toBeUndefined();
  });
});
