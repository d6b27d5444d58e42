/**
 * The imported logs' manifests in the scenarios folder: read in name order, and a manifest that
 * is not JSON, not of the import's shape or named for another prefix is an error naming the file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatError } from '../scenarios/errors.ts';
import { readTrafficManifests } from './traffic.ts';

const root = mkdtempSync(join(tmpdir(), 'traffic-manifests-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const manifest = (prefix: string) => ({
  log: 'logs/day.jsonl',
  prefix,
  formats: ['openai-chat'],
  lines: 3,
  conversations: [{ id: `${prefix}-a`, groupedBy: 'user', key: 'a', requests: 3, lines: [1, 3] }],
});

describe('readTrafficManifests', () => {
  it('reads every <prefix>.traffic.json, in name order; no folder, no manifests', () => {
    mkdirSync(join(root, 'ok'));
    writeFileSync(join(root, 'ok', 'b.traffic.json'), JSON.stringify(manifest('b')));
    writeFileSync(join(root, 'ok', 'a.traffic.json'), JSON.stringify(manifest('a')));
    writeFileSync(join(root, 'ok', 'a-a.yaml'), 'id: a-a\n');
    const r = readTrafficManifests({ root, scenariosDir: 'ok' });
    expect(r.errors).toEqual([]);
    expect(r.manifests.map((m) => m.prefix)).toEqual(['a', 'b']);
    expect(readTrafficManifests({ root, scenariosDir: 'missing' })).toEqual({ manifests: [], errors: [] });
  });

  it('a bad manifest is an error naming the file and the fix', () => {
    mkdirSync(join(root, 'bad'));
    writeFileSync(join(root, 'bad', 'x.traffic.json'), '{"log": ');
    writeFileSync(join(root, 'bad', 'y.traffic.json'), JSON.stringify({ ...manifest('y'), lines: -1 }));
    writeFileSync(join(root, 'bad', 'z.traffic.json'), JSON.stringify(manifest('other')));
    const r = readTrafficManifests({ root, scenariosDir: 'bad' });
    expect(r.manifests).toEqual([]);
    expect(r.errors.map(formatError).map((e) => e.split('\n')[0])).toEqual([
      'bad/x.traffic.json:1:1 error: this traffic manifest is not JSON',
      expect.stringMatching(/^bad\/y\.traffic\.json:1:1 error: this traffic manifest is not one the import writes: `lines`: /),
      'bad/z.traffic.json:1:1 error: this manifest\'s prefix is "other", but its file is named z.traffic.json',
    ]);
    expect(formatError(r.errors[0]!)).toContain('fix: re-import the log (npm run import -- <log> --out-dir <scenarios folder>)');
  });
});
