/**
 * The shared render is made from the same read of the files as its digest: a file saved between
 * two reads (in `astro dev`, a save racing a page request) can never leave a render of one state
 * cached under the digest of another.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { readSnapshot, sharedRender } from './shared-render.ts';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const scenario = (content: string): string =>
  ['id: one', 'title: One', 'events:', '  - off: 1', '    t: 0ms', '    type: agents/context-added', `    payload: {role: user, content: ${content}}`, ''].join('\n');

function project(): ReturnType<typeof config> {
  const root = mkdtempSync(join(tmpdir(), 'pfe-shared-render-'));
  temps.push(root);
  mkdirSync(join(root, 'scenarios'));
  writeFileSync(join(root, 'scenarios', 'one.yaml'), scenario('before the save'));
  return config(root);
}
const config = (root: string) => ({ root, scenariosDir: 'scenarios', timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' });
const eventsOf = async (c: ReturnType<typeof config>, snapshot = readSnapshot(c)): Promise<string> =>
  JSON.stringify((await sharedRender(c, snapshot)).scenarios[0]?.scenario.events);

describe('the shared render', () => {
  it('renders the snapshot it is given, not the files as they are by then, and a new read sees the save', async () => {
    const c = project();
    const snapshot = readSnapshot(c);
    writeFileSync(join(c.root, 'scenarios', 'one.yaml'), scenario('after the save'));
    const rendered = await eventsOf(c, snapshot);
    expect(rendered).toContain('before the save');
    expect(rendered).not.toContain('after the save');
    // The next read sees the save: a new digest, so a new render.
    const next = readSnapshot(c);
    expect(next.digest).not.toBe(snapshot.digest);
    expect(await eventsOf(c, next)).toContain('after the save');
  });

  it('renders once per content: the same files give the same render object', async () => {
    const c = project();
    const a = await sharedRender(c);
    expect(await sharedRender(c)).toBe(a);
    writeFileSync(join(c.root, 'scenarios', 'one.yaml'), scenario('changed'));
    expect(await sharedRender(c)).not.toBe(a);
  });
});
