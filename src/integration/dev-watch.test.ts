/**
 * The dev server's watch on scenarios/ (dev-watch.ts), driven with a stand-in watcher and hot
 * channel: the first render's errors are printed in full and kept for the tabs, an edit that breaks
 * the corpus sends its error to the open tabs, a fix reloads them, an edit that keeps it fine
 * reloads them too, and events outside the folder are ignored. (tests/dev.test.ts runs the real
 * dev server in a browser.)
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { registerDevServer } from './dev-reload.ts';
import { watchScenarios } from './dev-watch.ts';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const good = (content: string): string =>
  [
    'id: one',
    'title: One',
    'events:',
    '  - off: 1',
    '    t: 0ms',
    '    type: agents/context-added',
    `    payload: {role: user, content: ${content}}`,
    '  - off: 2',
    '    t: 1s',
    '    type: agent/llm-request-requested',
    '    payload: {model: openai/gpt-5.6-terra}',
    '',
  ].join('\n');
/** A stale anchor, whose `find` is at line 14, column 11. */
const stale = good('hello') + ['annotations:', '  - request: "@2"', '    find: "not in the prompt"', '    comment: gone', ''].join('\n');

function setup(first: string) {
  const root = mkdtempSync(join(tmpdir(), 'pfe-dev-watch-'));
  temps.push(root);
  mkdirSync(join(root, 'scenarios'));
  const file = join(root, 'scenarios', 'one.yaml');
  writeFileSync(file, first);
  const c = { root, scenariosDir: 'scenarios', timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
  const sent: { type: string; err?: { message: string } }[] = [];
  const hot = Object.assign(new EventEmitter(), { send: (p: { type: string }) => sent.push(p) });
  registerDevServer(root, hot as never);
  const watcher = Object.assign(new EventEmitter(), { added: [] as string[], add: (p: string) => watcher.added.push(p) });
  const log: string[] = [];
  const logger = { info: (m: string) => log.push(`info ${m}`), warn: (m: string) => log.push(`warn ${m}`), error: (m: string) => log.push(`error ${m}`) };
  return { root, file, c, sent, watcher, log, logger };
}

/** Waits until `check` holds (the watcher's syncs run after the change event returns). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('watching the scenarios in astro dev', () => {
  it('follows edits: the error to the open tabs when the corpus breaks, a reload when it is fixed or changed', async () => {
    const s = setup(good('hello'));
    expect(await watchScenarios(s.c, s.watcher, s.logger)).toBe(true);
    expect(s.watcher.added).toEqual([join(s.root, 'scenarios')]);
    expect(s.sent).toEqual([]);

    writeFileSync(s.file, stale);
    s.watcher.emit('change', s.file);
    await until(() => s.sent.length === 1);
    expect(s.sent[0]!.type).toBe('error');
    expect(s.sent[0]!.err!.message).toMatch(/^scenarios\/one\.yaml:14:11 stale anchor: find "not in the prompt"/);
    expect(s.log.filter((l) => l.startsWith('error'))).toHaveLength(1);
    expect(s.log[0]).toContain('scenarios/one.yaml:14:11');

    writeFileSync(s.file, good('fixed'));
    s.watcher.emit('change', s.file);
    await until(() => s.sent.length === 2);
    expect(s.sent[1]).toEqual({ type: 'full-reload', path: '*' });
    expect(s.log).toContain('info scenarios ok again');

    // Fine before and after: the tabs still reload, to show the edit.
    writeFileSync(s.file, good('edited again'));
    s.watcher.emit('change', s.file);
    await until(() => s.sent.length === 3);
    expect(s.sent[2]).toEqual({ type: 'full-reload', path: '*' });

    // Outside the folder (a sibling whose name starts the same): nothing happens.
    s.watcher.emit('change', join(s.root, 'scenarios-old', 'x.yaml'));
    await new Promise((r) => setTimeout(r, 400));
    expect(s.sent).toHaveLength(3);
  });

  it('prints the first render’s errors in full and keeps them for the tabs that connect', async () => {
    const s = setup(stale);
    expect(await watchScenarios(s.c, s.watcher, s.logger)).toBe(false);
    expect(s.log).toHaveLength(1);
    expect(s.log[0]).toMatch(/^error scenarios\/one\.yaml:14:11 .*\n.*fix:/s);
    // Sent to the channel at once (no tab yet sees it), and again to a tab that connects.
    expect(s.sent.map((p) => p.type)).toEqual(['error']);
  });

  it('says when there is no scenario folder yet, and reloads the tabs once a file is added', async () => {
    const s = setup(good('hello'));
    rmSync(join(s.root, 'scenarios'), { recursive: true });
    expect(await watchScenarios(s.c, s.watcher, s.logger)).toBe(true);
    expect(s.log).toHaveLength(1);
    expect(s.log[0]).toMatch(/^warn no scenarios yet: the scenario folder scenarios\/ .* does not exist/);
    mkdirSync(join(s.root, 'scenarios'));
    writeFileSync(s.file, good('the first one'));
    s.watcher.emit('add', s.file);
    await until(() => s.sent.length === 1);
    expect(s.sent[0]).toEqual({ type: 'full-reload', path: '*' });
  });

  it('reports a scenario file it cannot read as that error, not as a bug', async () => {
    const s = setup(good('hello'));
    rmSync(join(s.root, 'scenarios'), { recursive: true });
    writeFileSync(join(s.root, 'scenarios'), 'a file where the folder belongs');
    const ok = await watchScenarios(s.c, s.watcher, s.logger);
    expect(ok).toBe(false);
    expect(s.log).toHaveLength(1);
    expect(s.log[0]).toMatch(/^error .*scenarios/);
    expect(s.log[0]).not.toMatch(/a bug|\n\s+at /);
  });
});
