/**
 * Which scenarios a re-import leaves stale (import-stale.ts): only those the previous manifest of the
 * prefix lists and the new import lacks; kept when hand-written or annotated; a manifest that is not
 * one, or an id that would leave the folder, names nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_HEADER } from '../import/scenario.ts';
import { staleScenarios } from './import-stale.ts';

const dir = mkdtempSync(join(tmpdir(), 'import-stale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const conv = (id: string, key = id) => ({ id, groupedBy: 'session.id', key, requests: 1, lines: [1, 1] });
const manifest = (conversations: unknown[]) => {
  const path = join(dir, 'p.traffic.json');
  writeFileSync(path, JSON.stringify({ log: 'l.jsonl', prefix: 'p', formats: ['otel-genai'], lines: 1, conversations }));
  return path;
};
const imported = (extra = '') => `${IMPORT_HEADER} from l.jsonl (otel-genai)\nid: x\nfold: requests\n${extra}`;

describe('staleScenarios', () => {
  it('removes what the previous import wrote and this one lacks; keeps hand-written and annotated ones; ignores what is present or unlisted', () => {
    writeFileSync(join(dir, 'p-a.yaml'), imported());
    writeFileSync(join(dir, 'p-b.yaml'), imported('expect:\n  busts: []\n'));
    writeFileSync(join(dir, 'p-c.yaml'), 'id: p-c\n');
    writeFileSync(join(dir, 'p-d.yaml'), imported());
    writeFileSync(join(dir, 'other.yaml'), imported());
    const r = staleScenarios(manifest([conv('p-a'), conv('p-b'), conv('p-c'), conv('p-d'), conv('p-gone')]), dir, new Set(['p-d']));
    expect(r.remove.map((s) => s.id)).toEqual(['p-a']);
    expect(r.keep.map((s) => [s.id, s.why])).toEqual([
      ['p-b', 'it has expect a person added'],
      ['p-c', 'it was not written by an import'],
    ]);
  });

  it('a manifest that is not JSON, not a manifest, or names an id outside the folder names nothing', () => {
    writeFileSync(join(dir, 'q.traffic.json'), '{not json');
    expect(staleScenarios(join(dir, 'q.traffic.json'), dir, new Set())).toEqual({ remove: [], keep: [] });
    expect(staleScenarios(manifest([{ id: 'p-a' }]), dir, new Set())).toEqual({ remove: [], keep: [] });
    writeFileSync(join(dir, '..', 'escape.yaml'), imported());
    expect(staleScenarios(manifest([conv('../escape')]), dir, new Set())).toEqual({ remove: [], keep: [] });
    rmSync(join(dir, '..', 'escape.yaml'));
    expect(staleScenarios(join(dir, 'none.traffic.json'), dir, new Set())).toEqual({ remove: [], keep: [] });
  });
});
