/**
 * The provider rules as test vectors (`prompt-fold vectors`): every `requests`-fold
 * scenario of the corpus — request bodies exactly as sent, with the instant each was sent and, where
 * the scenario carries it, what the provider billed (`billed`: its output tokens are priced) — and
 * what this engine computes for each request under every configured provider profile: input
 * tokens, tokens read from the cache, tokens written to it, why the cache broke, and the cost. Other
 * implementations (a gateway, a platform's own cost model) test themselves against the same cases.
 *
 * Versioned: `format`/`version` name the shape, published as a JSON Schema in
 * schemas/vectors.v1.schema.json. Round trip: `reproduce` feeds a vector's request stream back
 * through the importer and the engine and lists every figure that differs — the vectors' test
 * holds it at none. A scenario linked to another by `sharesCache:` or built on a `base:` is left
 * out (its figures depend on requests outside its own stream). Deterministic: same corpus, same bytes.
 */
import { renderTexts, type RenderedCorpus } from '../corpus/check.ts';
import { underEveryProfile, type RequestEconomics } from '../economics/compute.ts';
import { DEFAULT_ECONOMICS, type EconomicsConfig } from '../economics/profiles.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importTrace } from '../import/index.ts';
import type { RenderedScenario } from '../prompt/render.ts';
import type { InputError } from '../scenarios/errors.ts';
import { parseDocument } from 'yaml';

export const VECTORS_FORMAT = 'prompt-fold-vectors';
export const VECTORS_VERSION = 1;
export const VECTORS_SCHEMA = 'vectors.v1.schema.json';

export interface VectorFigures {
  /** The request's number in the stream, 1-based. */
  request: number;
  inputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** Why the request read less than the previous request offered (null: nothing lost, or the first request). */
  cause: string | null;
  /** US dollars; null where the profile has no price. */
  costUsd: number | null;
}

export interface Vector {
  id: string;
  /** The scenario it comes from (file, as the corpus names it). */
  source: string;
  title: string;
  /** The request bodies' wire format (the importer's format id). */
  format: string;
  /** Each request pays the prices in force at its `sentAt` (a real clock, the scenario's `startedAt:`); false: an illustrative clock, today's prices. */
  datedPrices: boolean;
  /** Each request as sent, and what the provider billed for it where the scenario carries it (its output tokens are priced). */
  requests: { sentAt: string; body: Record<string, unknown>; billed?: Record<string, number> }[];
  /** Per profile id: the figures of each request. `exact`: token counts are exact (not ≈). */
  profiles: { profile: string; exact: boolean; requests: VectorFigures[] }[];
}

export interface VectorsDocument {
  $schema: string;
  format: typeof VECTORS_FORMAT;
  version: typeof VECTORS_VERSION;
  generator: { name: string; version: string };
  vectors: Vector[];
}

const figures = (requests: readonly RequestEconomics[], offsets: readonly number[]): VectorFigures[] =>
  requests.map((e) => ({
    request: offsets.indexOf(e.offset) + 1,
    inputTokens: e.inputTokens,
    cachedTokens: e.cachedTokens,
    cacheWriteTokens: e.cacheWriteTokens,
    cause: e.cacheBreak?.cause ?? null,
    costUsd: e.costUsd,
  }));

/** The scenarios a vector can stand for alone: the `requests` fold, no base, no shared cache either way. */
function standalone(rendered: readonly RenderedScenario[]): RenderedScenario[] {
  const shared = new Set(rendered.flatMap((r) => (r.scenario.sharesCache ? [r.scenario.id, r.scenario.sharesCache.scenario] : [])));
  return rendered.filter((r) => r.scenario.fold === 'requests' && !r.foldFailed && !r.scenario.base && !shared.has(r.scenario.id));
}

function profilesOf(r: RenderedScenario, config: EconomicsConfig): Vector['profiles'] {
  const offsets = r.requests.map((q) => q.offset);
  return underEveryProfile(r, config)
    .map(({ profile, requests }) => ({ profile: profile.id, exact: requests.every((e) => e.exact), requests: figures(requests, offsets) }))
    .sort((a, b) => (a.profile < b.profile ? -1 : a.profile > b.profile ? 1 : 0));
}

/** The vectors of a rendered corpus. */
export function buildVectors(corpus: RenderedCorpus, generator: { name: string; version: string }, config: EconomicsConfig = DEFAULT_ECONOMICS): VectorsDocument {
  const vectors = standalone(corpus.scenarios).map((r): Vector => {
    const payloads = new Map(r.scenario.chain.map((e) => [e.offset, e.payload as { format: string; body: Record<string, unknown>; measured?: Record<string, number> }]));
    return {
      id: r.scenario.id,
      source: r.scenario.file,
      title: r.scenario.title,
      format: payloads.get(r.requests[0]!.offset)!.format,
      datedPrices: r.scenario.startedAt !== undefined,
      requests: r.requests.map((q) => {
        const p = payloads.get(q.offset)!;
        return { sentAt: q.createdAt, body: p.body, ...(p.measured && { billed: p.measured }) };
      }),
      profiles: profilesOf(r, config),
    };
  });
  return { $schema: `./${VECTORS_SCHEMA}`, format: VECTORS_FORMAT, version: VECTORS_VERSION, generator, vectors };
}

/** A vector's stream run again through the importer and the engine: every figure that differs from the vector's. */
export async function reproduce(v: Vector, config: EconomicsConfig = DEFAULT_ECONOMICS): Promise<string[]> {
  const text = `${v.requests.map((q) => JSON.stringify({ timestamp: q.sentAt, body: q.body })).join('\n')}\n`;
  const { result, errors } = importTrace(text, { file: `${v.id}.jsonl`, id: 'vector', format: v.format });
  if (!result) return errors.map((e: InputError) => `${v.id}: the stream does not import: ${e.message}`);
  // What was billed goes on each request's payload as the importer writes it (`measured`): the engine prices its output tokens.
  const doc = parseDocument(result.yaml);
  // The importer dates a stream with timestamps (startedAt:); an illustrative clock is no date.
  if (!v.datedPrices) doc.delete('startedAt');
  const events = doc.get('events') as { items: { get(k: string): { set(k: string, v: unknown): void } }[] };
  v.requests.forEach((q, i) => {
    if (q.billed) events.items[i]!.get('payload').set('measured', q.billed);
  });
  const corpus = await renderTexts(
    [{ file: `vectors/${v.id}.yaml`, text: doc.toString({ lineWidth: 0 }) }],
    { timeZero: '2026-01-01T00:00:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests', economics: config },
    { everyEvent: false },
  );
  const r = corpus.scenarios[0];
  if (!r || r.foldFailed) return [`${v.id}: the stream does not render: ${corpus.errors.map((e) => e.message).join('; ')}`];
  const got = new Map(profilesOf(r, config).map((p) => [p.profile, p]));
  const out: string[] = [];
  for (const p of v.profiles) {
    const g = got.get(p.profile);
    if (!g) {
      out.push(`${v.id}: profile ${p.profile} is not configured`);
      continue;
    }
    p.requests.forEach((want, i) => {
      const have = g.requests[i];
      for (const k of ['inputTokens', 'cachedTokens', 'cacheWriteTokens', 'cause', 'costUsd'] as const)
        if (have?.[k] !== want[k]) out.push(`${v.id} request ${want.request} under ${p.profile}: ${k} is ${JSON.stringify(have?.[k])}, the vector says ${JSON.stringify(want[k])}`);
    });
  }
  return out;
}
