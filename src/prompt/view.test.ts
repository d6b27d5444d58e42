/**
 * The page model's diffs: a request pane compares with the previous request (so a rewrite between
 * two sends shows as changed lines, each keeping its old text), a state pane with the previous event.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { assertClean, renderTexts } from '../corpus/check.ts';
import { diffPane, optionText, scenarioView, type Pane } from './view.ts';

const ROOT = resolve(import.meta.dirname, '../..');

async function viewOf(file: string) {
  const config = await resolveOptions(ROOT);
  const corpus = assertClean(await renderTexts([{ file, text: readFileSync(resolve(ROOT, file), 'utf8') }], config, { everyEvent: true }));
  return scenarioView(corpus.scenarios[0]!);
}

const count = (p: Pane) => ({
  added: p.lines.filter((l) => l.status === 'added').length,
  changed: p.lines.filter((l) => l.status === 'changed').length,
  removed: p.lines.reduce((n, l) => n + l.removedBefore.length, p.removedAtEnd.length),
});

describe('pane diffs', () => {
  it('diffs a request after a rewrite against the previous request, not the previous event', async () => {
    const view = await viewOf('scenarios/04-rewrite-vs-re-add.yaml');
    const q42 = view.panes.find((p) => p.offset === 42)!;
    expect(q42.kind).toBe('request');
    expect(q42.diffBase).toEqual({ kind: 'request', offset: 32 });
    const c = count(q42);
    // the @40 rewrite changed the repo-workflow rule in place and dropped the @30 update
    expect(c.changed).toBeGreaterThanOrEqual(1);
    expect(c.removed).toBeGreaterThanOrEqual(1);
    const rewritten = q42.lines.find((l) => l.status === 'changed' && l.text.includes('pnpm check --ci'))!;
    expect(rewritten.old).toBeDefined();
    expect(rewritten.old).not.toContain('pnpm check --ci');
    const removed = [...q42.lines.flatMap((l) => l.removedBefore), ...q42.removedAtEnd];
    expect(removed.some((r) => r.includes('supersedes="@'))).toBe(true);
    // the event before the send differs from the send only by the send stamp and the model line
    const state41 = view.panes.find((p) => p.offset === 41)!;
    expect(state41.diffBase).toEqual({ kind: 'event', offset: 40 });
  });

  it('gives the first request of a chain no diff base (nothing cached yet)', async () => {
    const view = await viewOf('scenarios/04-rewrite-vs-re-add.yaml');
    const first = view.panes.find((p) => p.kind === 'request')!;
    expect(first.offset).toBe(21);
    expect(first.diffBase).toBeNull();
    expect(count(first)).toEqual({ added: 0, changed: 0, removed: 0 });
  });

  it('keeps the model line as a change between requests, but not between a state and its send', () => {
    const l = (text: string) => ({ text, from: [], message: 0 });
    const prev = [l('model: a'), l('messages:'), l('  - x')];
    const next = [l('model: b'), l('messages:'), l('  - x')];
    expect(diffPane(next, prev, false)).toMatchObject({ status: ['changed', 'same', 'same'], old: ['model: a', undefined, undefined] });
    const state = [l('messages:'), l('  - x')];
    expect(diffPane(next, state, true).status).toEqual(['same', 'same', 'same']);
    expect(diffPane(state, null, true)).toMatchObject({ status: ['same', 'same'], removedAtEnd: [] });
  });
});

describe('a fold option as the page writes it', () => {
  it('a string as it is; the empty string and everything else as JSON (an empty option read as a bare `footer:` badge)', () => {
    expect([optionText('synthesized-only'), optionText(''), optionText(3), optionText(false), optionText(['a'])]).toEqual(['synthesized-only', '""', '3', 'false', '["a"]']);
  });
});
