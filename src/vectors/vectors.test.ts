/**
 * `prompt-fold vectors` on the bundled corpus: the document validates against the published JSON
 * Schema (schemas/vectors.v1.schema.json), is byte-identical when written twice, round-trips (each
 * vector's request stream, fed back through the importer and the engine, gives every figure the
 * vector states), and its costs agree with hand arithmetic from its own token figures.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../cli/config.ts';
import { renderCorpus } from '../corpus/check.ts';
import { vectorsCommand } from './command.ts';
import { buildVectors, reproduce, type VectorsDocument } from './vectors.ts';

const config = await loadConfig();
const corpus = await renderCorpus(config, { everyEvent: false });
const doc = buildVectors(corpus, { name: 'prompt-fold-explainer', version: '0.0.0-test' }, config.economics);
const schema = JSON.parse(readFileSync(join(config.root, 'schemas/vectors.v1.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'vectors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('prompt-fold vectors', () => {
  it('covers every standalone requests scenario of the corpus under every configured profile', () => {
    // Independently: the corpus's requests-fold scenarios with no base and no shared cache either way.
    const shared = new Set(corpus.scenarios.flatMap((r) => (r.scenario.sharesCache ? [r.scenario.id, r.scenario.sharesCache.scenario] : [])));
    const expected = corpus.scenarios.filter((r) => r.scenario.fold === 'requests' && !r.scenario.base && !shared.has(r.scenario.id)).map((r) => r.scenario.id);
    expect(expected).toContain('imported-trace');
    expect(doc.vectors.map((v) => v.id)).toEqual(expected);
    const profiles = Object.keys(config.economics.profiles).sort();
    for (const v of doc.vectors) expect(v.profiles.map((p) => p.profile)).toEqual(profiles);
    // A capture's real clock dates its prices; a hand-written stream's clock is illustrative.
    for (const v of doc.vectors) expect(v.datedPrices, v.id).toBe(corpus.scenarios.find((r) => r.scenario.id === v.id)!.scenario.startedAt !== undefined);
    expect(doc.vectors.find((v) => v.id === 'imported-trace')!.datedPrices).toBe(true);
    expect(doc.vectors.some((v) => !v.datedPrices)).toBe(true);
  });

  it('validates against the published JSON Schema, and the schema rejects what it should', () => {
    expect(validate(JSON.parse(JSON.stringify(doc))), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const broken = JSON.parse(JSON.stringify(doc)) as VectorsDocument;
    (broken.vectors[0]!.profiles[0]!.requests[0] as unknown as Record<string, unknown>).cachedTokens = -1;
    expect(validate(broken)).toBe(false);
    expect(validate({ ...doc, version: 2 })).toBe(false);
  });

  it('the schema takes every figure an import bills a request with: 1-hour cache writes too (a Claude Code transcript writes them)', () => {
    const withHour = JSON.parse(JSON.stringify(doc)) as VectorsDocument;
    const billed = withHour.vectors.flatMap((v) => v.requests).find((q) => q.billed)!.billed!;
    Object.assign(billed, { cacheWriteTokens: 2000, cacheWrite1hTokens: 1500 });
    expect(validate(withHour), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    Object.assign(billed, { cacheWrite2hTokens: 1 });
    expect(validate(withHour)).toBe(false);
  });

  it('round-trips: the engine reproduces every vector from its request stream', async () => {
    for (const v of JSON.parse(JSON.stringify(doc)).vectors) expect(await reproduce(v, config.economics), v.id).toEqual([]);
  }, 120_000);

  it('a changed figure is caught by the round trip', async () => {
    const v = JSON.parse(JSON.stringify(doc.vectors[0])) as VectorsDocument['vectors'][number];
    v.profiles[0]!.requests[1]!.cachedTokens += 1;
    expect(await reproduce(v, config.economics)).toEqual([
      `imported-trace request 2 under ${v.profiles[0]!.profile}: cachedTokens is ${v.profiles[0]!.requests[1]!.cachedTokens - 1}, the vector says ${v.profiles[0]!.requests[1]!.cachedTokens}`,
    ]);
  });

  it('prices by hand: Claude Sonnet 4.5 at $3 input, $0.30 cache read, $3.75 cache write, $15 output per million tokens', () => {
    const v = doc.vectors.find((x) => x.id === 'imported-trace')!;
    const p = v.profiles.find((x) => x.profile === 'anthropic-claude-sonnet-4.5')!;
    for (const q of p.requests) {
      const output = v.requests[q.request - 1]!.billed?.outputTokens ?? 0;
      const usd = ((q.inputTokens - q.cachedTokens - q.cacheWriteTokens) * 3 + q.cachedTokens * 0.3 + q.cacheWriteTokens * 3.75 + output * 15) / 1e6;
      expect(q.costUsd).toBeCloseTo(usd, 9);
    }
    // The midnight request (@4, its date in the system prompt) reads nothing: the system prompt changed.
    expect(p.requests[3]).toMatchObject({ request: 4, cachedTokens: 0, cause: 'system-changed' });
  });

  it('the command writes the same document whole to --out, and rejects a bad argument', async () => {
    let err = '';
    const io = { out: () => {}, err: (t: string) => (err += t), version: '0.0.0-test' };
    expect(await vectorsCommand(['--out', join(dir, 'v.json')], config, io)).toBe(0);
    expect(readFileSync(join(dir, 'v.json'), 'utf8')).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(err).toMatch(new RegExp(`^wrote .*v\\.json: ${doc.vectors.length} vectors, ${doc.vectors.reduce((n, v) => n + v.requests.length, 0)} requests, \\d+ profiles each`));
    expect(await vectorsCommand(['--bogus'], config, io)).toBe(2);
    expect(err).toContain('unknown argument --bogus');
    // A folder as --out is said before the corpus is rendered; a path under a file, when written: exit 2, no stack trace.
    err = '';
    expect(await vectorsCommand(['--out', dir], config, io)).toBe(2);
    expect(err).toBe(`--out ${dir} is a folder\n  fix: give --out the path of a file, e.g. ${join(dir, 'vectors.json')}\n`);
    err = '';
    expect(await vectorsCommand(['--out', join(dir, 'v.json', 'x.json')], config, io)).toBe(2);
    expect(err).toMatch(/^cannot write .*v\.json\/x\.json: E(EXIST|NOTDIR): .+\n {2}fix: give --out a path in a folder you can write to\n$/);
  });
});
