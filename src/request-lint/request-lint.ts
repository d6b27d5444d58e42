/**
 * Lints each request as sent ("Lint the request as sent"): per request, findings with a
 * severity, each tied to the provider's documented rule and its source (URL and date read: the
 * sourced rules each cache strategy cites (its `lint`, src/providers/<provider>/cache.ts) and the
 * provider adapters', never a figure of our own; this file names no provider).
 *
 *   api-rejects       error    more cache breakpoints than the provider allows (counting Anthropic's
 *                              automatic slot): the economics already marks such a request, the API's 400
 *   feature-rejected  error    a feature the model rejects (Anthropic: a mid-conversation system
 *                              message on a model without it): the provider adapter flags it
 *                              (economics/features.ts), the rule is the adapter's
 *   ttl-order         error    a 1-hour breakpoint after a shorter one: longer TTLs must come first
 *   unread-write      warning  a request pays for a cache write that no later request of the
 *                              conversation reads (the last request is left out: the conversation
 *                              goes on after the scenario)
 *   out-of-reach      warning  the entry the previous request wrote is beyond the lookback of this
 *                              request's breakpoints
 *   volatile-prefix   warning  the first text that differs from the previous request, inside the
 *                              cached prefix, differs only in a value (a timestamp, an id, a counter)
 *   no-caching-asked  warning  (on the first request) requests as sent that never ask for caching,
 *                              on a provider that caches only what is asked for: what one
 *                              breakpoint would save per conversation and per 1,000
 *                              (economics/unasked.ts, set on the economics by the corpus check)
 *   ignored-marker, unsupported-checkpoint, too-many-checkpoints, cache-conflict
 *                     warning  what the provider adapter's `lint` finds in a body as sent (a `requests`
 *                              scenario): a cache marker the API does not read (Anthropic's
 *                              `cache_control` in a Bedrock Converse body), a checkpoint where the model
 *                              caches nothing (Nova tools), more checkpoints than allowed, a Gemini
 *                              request sending what its `cachedContent` holds; the rule is the adapter's
 *
 * A request the API rejects gets that error only (it is never cached or read, so no other finding
 * about its cache holds). Its own layer (above the economics, below the corpus check) so that `check` (through the corpus
 * check), `report --json`, the pages and the review all read the same findings. Pure: a rendered
 * scenario and its economics in, findings out.
 */
import type { ScenarioEconomics } from '../economics/compute.ts';
import type { RenderedScenario } from '../prompt/render.ts';
import { cacheStrategy, providerOf } from '../providers/registry.ts';
import type { CacheLintRules, Sourced } from '../providers/types.ts';

/** Every rule, in the order a request is checked (changes.json validates against it). */
export const LINT_RULES = [
  'api-rejects',
  'feature-rejected',
  'ttl-order',
  'unread-write',
  'out-of-reach',
  'volatile-prefix',
  'ignored-marker',
  'unsupported-checkpoint',
  'too-many-checkpoints',
  'cache-conflict',
  'no-caching-asked',
] as const;
export type LintRule = (typeof LINT_RULES)[number];

export interface LintFinding {
  offset: number;
  rule: LintRule;
  severity: 'error' | 'warning';
  message: string;
  /** The provider's documented rule: where it was read, when, and what it says. */
  source: { url: string; read: string; rule: string };
  /** How to make the request one the API accepts (errors the provider says how to fix). */
  fix?: string;
}

/** A finding's rule as cited; a rule the strategy does not state is "not configured", never made up. */
const source = (s: Pick<Sourced<unknown>, 'source' | 'read' | 'note'> | undefined): LintFinding['source'] =>
  s ? { url: s.source, read: s.read, rule: s.note ?? '' } : { url: '', read: '', rule: 'not configured: the cache strategy cites no documented rule for this' };

/** The documented rules a finding about a request of this cache strategy cites (the strategy's `lint`). */
const rulesOf = (cache: string | undefined): CacheLintRules => (cache === undefined ? undefined : cacheStrategy(cache)?.lint) ?? {};

/** The line with every run of digits (and long hex ids) as `#`: what stays when only a value changes. */
const shape = (s: string): string => s.replace(/\b[0-9a-f]{8,}\b/gi, '#').replace(/\d+/g, '#');

/** Retention order of a breakpoint: absent is the provider's default (5 minutes). */
const ttlRank = (ttl: '5m' | '1h' | undefined): number => (ttl === '1h' ? 1 : 0);

/** A body as sent (a `requests` scenario's `{format, body}` payload): its provider adapter's findings, as warnings. */
function bodyFindings(offset: number, payload: unknown): LintFinding[] {
  const p = payload as { format?: unknown; body?: unknown } | null;
  if (!p || typeof p.format !== 'string' || typeof p.body !== 'object' || p.body === null) return [];
  const adapter = providerOf(p.format);
  const body = p.body as Record<string, unknown>;
  return (adapter?.lint?.(body, adapter.model?.(body)) ?? []).map((f) => ({
    offset,
    rule: f.rule as LintRule,
    severity: 'warning' as const,
    message: `request @${offset}: ${f.message}${f.path.length ? ` (at body.${f.path.join('.')})` : ''}`,
    source: source(f.source),
    fix: f.fix,
  }));
}

/** Every finding of a scenario's own requests, in request order. */
export function lintScenario(r: RenderedScenario, econ: ScenarioEconomics): LintFinding[] {
  const out: LintFinding[] = [];
  const chain = new Map(r.chain.map((q) => [q.offset, q]));
  const byOffset = new Map(econ.chain.map((e) => [e.offset, e]));
  const own = new Set(r.requests.map((q) => q.offset));
  const last = r.requests.at(-1)?.offset;
  const unasked = econ.unasked;
  if (unasked && r.requests[0])
    out.push({
      offset: r.requests[0].offset,
      rule: 'no-caching-asked',
      severity: 'warning',
      message: unasked.sentence,
      source: unasked.options[0]
        ? source({ ...unasked.options[0].source, note: unasked.options[0].source.value })
        : source(rulesOf(byOffset.get(r.requests[0].offset)?.cache).prefix),
    });
  const events = new Map((r.scenario?.chain ?? []).map((ev) => [ev.offset, ev]));
  for (const q of r.requests) {
    const e = byOffset.get(q.offset);
    if (!e) continue;
    out.push(...bodyFindings(q.offset, events.get(q.offset)?.payload));
    // The economics sets `apiFix` only when the model rejects a feature (the adapter's Rejection); else the breakpoint limit.
    if (e.apiError)
      out.push({
        offset: q.offset,
        rule: e.apiFix ? 'feature-rejected' : 'api-rejects',
        severity: 'error',
        message: `request @${q.offset} carries ${e.apiError}`,
        source: source(e.apiRule ?? cacheStrategy(e.cache)?.mechanism.maxBreakpoints),
        fix: e.apiFix ?? 'mark at most that many cache breakpoints on the request (in the fold’s snapshot or the trace’s cache_control markers)',
      });
    // A request the API rejects is never cached or read: nothing else about its cache is true of it.
    if (e.apiError) continue;
    const ttls = q.breakpoints?.map((b) => b.ttl) ?? [];
    const late = ttls.findIndex((t, i) => i > 0 && ttlRank(t) > Math.min(...ttls.slice(0, i).map(ttlRank)));
    if (late > 0)
      out.push({
        offset: q.offset,
        rule: 'ttl-order',
        severity: 'error',
        message: `request @${q.offset}: breakpoint ${late + 1} asks for a 1-hour entry after a shorter one`,
        source: source(rulesOf(e.cache).ttlOrder),
        fix: 'mark the 1-hour breakpoints before the shorter ones (tools, then system, then messages), or give the later breakpoint the shorter TTL',
      });
    const rules = rulesOf(e.cache);
    if (rules.write && e.cacheWriteTokens > 0 && q.offset !== last && !econ.chain.some((x) => x.readFrom === q.offset && x.offset > q.offset && own.has(x.offset)))
      out.push({
        offset: q.offset,
        rule: 'unread-write',
        severity: 'warning',
        message: `request @${q.offset} writes ${e.cacheWriteTokens} tokens to the cache that no later request of this conversation reads`,
        source: source(rules.write),
      });
    if (e.cacheBreak?.cause === 'out-of-reach')
      out.push({
        offset: q.offset,
        rule: 'out-of-reach',
        severity: 'warning',
        message: `request @${q.offset}: the entry request @${q.previous} wrote is beyond the lookback of this request's breakpoints (${e.cacheBreak.tokensLost} tokens not read)`,
        source: source(rules.lookback),
      });
    const prev = q.previous === null ? undefined : chain.get(q.previous);
    if (prev && q.cut !== null && q.cut < prev.lines.length) {
      const [now, was] = [q.lines[q.cut]?.text ?? '', prev.lines[q.cut]?.text ?? ''];
      if (rules.prefix && now !== was && shape(now) === shape(was))
        out.push({
          offset: q.offset,
          rule: 'volatile-prefix',
          severity: 'warning',
          message: `request @${q.offset}: a value that changes on every request sits inside the cached prefix: "${now.trim()}" (request @${prev.offset}: "${was.trim()}")`,
          source: source(rules.prefix),
        });
    }
  }
  return out;
}
