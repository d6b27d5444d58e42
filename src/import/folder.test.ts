/**
 * The line the import prints for a Claude Code session file with sub-agent transcripts beside it
 * (`<session>/subagents/agent-*.jsonl`, as Claude Code 2.1 writes them): what was not read, and the
 * command that reads them — in the words of the project it runs in (`npm run import --` here,
 * `npx prompt-fold import` in a host site).
 */
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { project, setProject } from '../project.ts';
import type { InputError } from '../scenarios/errors.ts';
import { MAX_WHOLE_BYTES, megabytes } from '../scenarios/files.ts';
import { readFolder, sessionGroups, subAgentNote } from './folder.ts';

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

describe('sessionGroups: the files a folder import reads together', () => {
  const root = mkdtempSync(join(tmpdir(), 'pfe-groups-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const line = (v: unknown) => `${JSON.stringify(v)}\n`;

  it('a session’s files together (by the sessionId their first lines name, past lines that name none), every other file alone, in path order', () => {
    const dir = join(root, 'project');
    mkdirSync(join(dir, 's1', 'subagents'), { recursive: true });
    writeFileSync(join(dir, 's1.jsonl'), line({ type: 'user', sessionId: 's1' }));
    writeFileSync(join(dir, 's1', 'subagents', 'agent-a.jsonl'), line({ type: 'user', sessionId: 's1', isSidechain: true }));
    // An earlier version's sub-agent file beside the sessions, opening with a summary line; its session's file after it.
    writeFileSync(join(dir, 'agent-b.jsonl'), line({ type: 'summary', summary: 'Callers' }) + line({ type: 'user', sessionId: 's2', isSidechain: true }));
    writeFileSync(join(dir, 's2.jsonl'), line({ type: 'user', sessionId: 's2' }));
    // A Codex rollout (its id is in session_meta's payload), a file that is not JSON Lines, a session id past the first megabyte: each alone.
    writeFileSync(join(dir, 'rollout-1.jsonl'), line({ type: 'session_meta', payload: { id: 's1' } }));
    writeFileSync(join(dir, 'notes.jsonl'), 'not json\n');
    writeFileSync(join(dir, 'late.jsonl'), line({ type: 'summary', summary: 'x'.repeat(1 << 20) }) + line({ type: 'user', sessionId: 's2' }));
    const errors: InputError[] = [];
    expect(sessionGroups(dir, 'project', errors)).toEqual([
      ['agent-b.jsonl', 's2.jsonl'],
      ['late.jsonl'],
      ['notes.jsonl'],
      ['rollout-1.jsonl'],
      ['s1.jsonl', 's1/subagents/agent-a.jsonl'],
    ]);
    expect(errors).toEqual([]);
  });

  it('a file too large for one string is a located problem when its group is read, not a crash (a sparse file: no disk blocks written)', () => {
    const dir = join(root, 'huge');
    mkdirSync(dir);
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, '');
    truncateSync(big, MAX_WHOLE_BYTES + 1);
    const errors: InputError[] = [];
    const groups = sessionGroups(dir, 'huge', errors);
    expect(groups).toEqual([['big.jsonl']]);
    expect(readFolder(dir, 'huge', errors, groups[0]).chunks).toEqual([]);
    expect(errors.map((e) => `${e.pos.file}:${e.pos.line}:${e.pos.col} ${e.message}`)).toEqual([
      `huge/big.jsonl:1:1 the file is ${megabytes(MAX_WHOLE_BYTES + 1)}: more than one text can hold here (${megabytes(MAX_WHOLE_BYTES)})`,
    ]);
  });

  it('a folder without a .jsonl file is an error saying what to give', () => {
    const dir = join(root, 'none');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'x');
    const errors: InputError[] = [];
    expect(sessionGroups(dir, 'none', errors)).toEqual([]);
    expect(errors.map((e) => e.message)).toEqual(['the folder holds no .jsonl (or .jsonl.zst) file']);
  });
});
