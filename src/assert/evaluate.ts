/**
 * The cache promises (expectations.ts) held against one costed conversation (conversations.ts):
 * every broken promise is a located failure that reads like `check`'s — which request broke, the
 * first differing text inside the cached prefix, the cause and the event, the tokens and dollars
 * lost, the provider's documented rule, and the fix. The same words as the scenario checks
 * (src/economics/expect.ts bustsOf, expect-cached.ts, measured.ts): a bust is decided by the printed
 * bytes (the ✂ line above the end of the previous request), whatever the provider.
 *
 * Where the capture carries what the provider billed, the bill is the truth: a request's cached
 * tokens and its cost are the billed ones, with the model's beside them and the likely reason when
 * the two differ (measured.ts). Pure: no clock, no file.
 */
import type { RequestEconomics } from '../economics/compute.ts';
import { bustsOf } from '../economics/expect.ts';
import { formatTokens, formatUsd } from '../economics/format.ts';
import { measuredComparison, type MeasuredRequest } from '../economics/measured.ts';
import { pricesAt, pricingInstant } from '../economics/price-history.ts';
import { costs } from '../economics/price.ts';
import { DEFAULT_ECONOMICS, profileFor } from '../economics/profiles.ts';
import type { SourcePos } from '../scenarios/errors.ts';
import { findingMessage } from '../determinism/probe.ts';
import type { Conversation } from './conversations.ts';
import type { At, Expectations } from './expectations.ts';
import type { ConversationSummary, Failure, Rule } from './types.ts';

export type { ConversationSummary, Failure, PromiseKind, Rule } from './types.ts';

const REQUEST = (n: number) => `@${n}`;

/** The provider rule a cache loss follows: the profile's documented figure for the cause. */
function ruleOf(e: RequestEconomics): Rule | null {
  const { profile } = profileFor(DEFAULT_ECONOMICS, e.model);
  const cause = e.cacheBreak?.cause;
  const pick =
    cause === 'expired'
      ? {
          f: profile.retentionMinutes,
          text: `entries live ${profile.retentionMinutes.value === null ? 'without a documented limit' : `${profile.retentionMinutes.value} min`} after their last use`,
        }
      : cause === 'out-of-reach' && profile.lookbackBlocks
        ? { f: profile.lookbackBlocks, text: `a breakpoint looks back at most ${profile.lookbackBlocks.value} blocks for an earlier entry` }
        : cause === 'below-minimum'
          ? { f: profile.minPrefixTokens, text: `no entry is written below ${profile.minPrefixTokens.value} tokens` }
          : { f: profile.minPrefixTokens, text: 'a request reads the cache only up to the first byte that differs from an earlier request (an exact prefix match)' };
  if (!/^https?:/.test(pick.f.source)) return null;
  return { text: `${profile.title}: ${pick.text}`, url: pick.f.source, read: pick.f.read };
}

/** How to make a request read more from the cache, by why it reads too little; or `otherwise` (change the promise). */
function fixFor(e: RequestEconomics, otherwise: string): string {
  const cause = e.cacheBreak?.cause;
  if (cause === 'below-minimum')
    return `the prefix the request could cache is below the provider's minimum of ${formatTokens(e.minPrefixTokens)} tokens: put more of the stable text (instructions, tools, documents) before the first breakpoint, or ${otherwise}`;
  if (cause === 'expired')
    return `the cache entry outlived its retention between @${e.previous} and @${e.offset}: send sooner, ask for a longer retention where the provider has one, or ${otherwise}`;
  if (cause === 'not-asked')
    return `@${e.offset} carries no cache breakpoint, and the provider caches only what a request asks for: mark one where the stable prefix ends, or ${otherwise}`;
  if (cause === 'markers-unrecorded')
    return `the capture does not record @${e.offset}'s cache markers, so the model cannot tell why it read what it did: capture the request bodies as sent (a proxy log, a cassette) to see the cause, or ${otherwise}`;
  if (cause === 'first-request') return `@${e.offset} is the first request of its conversation: nothing is cached before it; ${otherwise}`;
  if (cause) return `keep the text above the newest turn byte for byte from @${e.previous ?? e.offset} on (no clock, no unordered keys, no per-request ids in it), or ${otherwise}`;
  return `mark a cache breakpoint where the stable prefix ends (the provider caches what a request asks it to), or ${otherwise}`;
}

/** The first differing text of two lines: a window around the first character that differs. */
export function firstDifference(was: string, now: string): { was: string; now: string; column: number } {
  let i = 0;
  while (i < was.length && i < now.length && was[i] === now[i]) i++;
  const from = Math.max(0, i - 24);
  const cut = (s: string) => `${from > 0 ? '…' : ''}${s.slice(from, i + 40)}${s.length > i + 40 ? '…' : ''}`;
  return { was: cut(was), now: cut(now), column: i + 1 };
}

/** A string as JSON quotes it: a control character or a quote in a capture never breaks the line it is shown on. */
const quoted = (s: string): string => JSON.stringify(s);

/** What the provider billed for a request (null: the capture holds no bill for it). */
const billedOf = (q: MeasuredRequest | undefined) => q?.measured ?? null;

export function evaluate(c: Conversation, exp: Expectations): { failures: Failure[]; summary: ConversationSummary } {
  const failures: Failure[] = [];
  const { rendered: r, economics: econ } = c;
  const byOffset = new Map(econ.chain.map((e) => [e.offset, e]));
  const requests = new Map(r.chain.map((q) => [q.offset, q]));
  const measured = new Map((measuredComparison(r, econ)?.requests ?? []).map((q) => [q.offset, q]));
  const own = new Set(econ.requests.map((e) => e.offset));
  const fail = (f: Omit<Failure, 'conversation' | 'at'> & { at?: SourcePos }) =>
    failures.push({ conversation: c.label, at: f.at ?? (f.request === null ? { file: c.capture, line: 1, col: 1 } : c.where(f.request)), ...f });
  /** Cached tokens of a request: billed where the capture says, else modelled. */
  const cachedOf = (e: RequestEconomics): { tokens: number; input: number; billed: boolean } => {
    const b = billedOf(measured.get(e.offset));
    return b && b.cachedTokens !== null ? { tokens: b.cachedTokens, input: b.inputTokens, billed: true } : { tokens: e.cachedTokens, input: e.inputTokens, billed: false };
  };
  /** Why a request reads what it reads: the break's cause, the billed-vs-modelled reason. */
  const whyLines = (e: RequestEconomics): string[] => {
    const out: string[] = [];
    const cb = e.cacheBreak;
    if (cb) {
      const events = cb.events.length ? `, at ${cb.events.map(REQUEST).join(', ')}` : '';
      out.push(`cause: ${cb.cause}${cb.param ? ` (${cb.param})` : ''}${events}`);
      if (cb.tokensLost)
        out.push(`lost: ${formatTokens(cb.tokensLost, e.exact)} cached tokens${cb.lostCostUsd === null ? ' (no price configured)' : `, ${formatUsd(cb.lostCostUsd)}`}`);
    }
    const m = measured.get(e.offset);
    if (m?.reason) out.push(`the bill: ${m.reason.text}`);
    return out;
  };
  const ruleLine = (rule: Rule | null): string[] => (rule ? [`rule: ${rule.text} (${rule.url}, read ${rule.read})`] : []);

  // Requests the API would reject: never a kept promise, whatever was promised.
  for (const f of c.findings) fail({ expectation: 'api', request: f.offset, expectedAt: null, message: f.message, details: [], rule: null, fix: f.fix });

  // A fold whose cached prefix moves in a changed world (the determinism probe): never a kept promise either.
  for (const u of c.unstable ?? []) {
    const m = findingMessage(u);
    fail({ expectation: 'deterministic', request: u.request, at: u.pos, expectedAt: null, message: m.message, details: m.detail, rule: null, fix: m.fix });
  }

  if (exp.busts) {
    const listed = new Set(exp.busts.offsets);
    const busts = bustsOf(r);
    for (const b of busts) {
      if (listed.has(b.offset)) continue;
      const e = byOffset.get(b.offset);
      const now = requests.get(b.offset)?.lines[b.cut]?.text ?? '';
      const was = requests.get(b.previous)?.lines[b.cut]?.text ?? '';
      const d = firstDifference(was, now);
      const rule = e ? ruleOf(e) : null;
      fail({
        expectation: 'busts',
        request: b.offset,
        expectedAt: exp.busts.at,
        message: `request @${b.offset} busts the cached prefix of request @${b.previous}: the first ${b.cut} of @${b.previous}'s ${b.previousLines} printed lines are kept, line ${b.cut + 1} differs`,
        details: [`was: ${quoted(d.was)}`, `now: ${quoted(d.now)}`, ...(e ? whyLines(e) : []), ...ruleLine(rule)],
        rule,
        fix: `make @${b.offset} only append to @${b.previous} (keep the text above the break byte for byte: no clock, no unordered keys, no per-request ids in it), or list "@${b.offset}" in busts if the break is meant`,
      });
    }
    const busted = new Set(busts.map((b) => b.offset));
    exp.busts.offsets.forEach((off, i) => {
      if (busted.has(off) || !own.has(off)) return;
      const q = requests.get(off)!;
      fail({
        expectation: 'busts',
        request: off,
        expectedAt: exp.busts!.each[i] ?? exp.busts!.at,
        message:
          q.previous === null
            ? `busts lists "@${off}", but request @${off} is the first of its conversation: there is nothing to bust`
            : `busts lists "@${off}", but request @${off} keeps the whole of request @${q.previous} as its prefix`,
        details: [],
        rule: null,
        fix: `remove "@${off}" from busts`,
      });
    });
  }

  if (exp.cached) {
    const listed = new Set(exp.cached.offsets);
    for (const e of econ.requests) {
      const got = cachedOf(e);
      const says = got.billed ? 'billed' : 'modelled';
      if (listed.has(e.offset) && got.tokens === 0) {
        const rule = ruleOf(e);
        fail({
          expectation: 'cached',
          request: e.offset,
          expectedAt: exp.cached.each[exp.cached.offsets.indexOf(e.offset)] ?? exp.cached.at,
          message: `request @${e.offset} reads 0 of its ${formatTokens(got.input, got.billed || e.exact)} input tokens from the cache (${says}), but cached lists it`,
          details: [...whyLines(e), ...ruleLine(rule)],
          rule,
          fix: fixFor(e, `remove "@${e.offset}" from cached`),
        });
      } else if (!listed.has(e.offset) && got.tokens > 0) {
        fail({
          expectation: 'cached',
          request: e.offset,
          expectedAt: exp.cached.at,
          message: `request @${e.offset} reads ${formatTokens(got.tokens, got.billed || e.exact)} tokens from the cache (${says}), but cached does not list it`,
          details: [],
          rule: null,
          fix: `add "@${e.offset}" to cached`,
        });
      }
    }
  }

  if (exp.minCached) {
    const m = exp.minCached;
    const from = m.from ?? econ.requests[1]?.offset ?? Number.POSITIVE_INFINITY;
    for (const e of econ.requests) {
      if (e.offset < from) continue;
      const got = cachedOf(e);
      const exact = got.billed || e.exact;
      const share = got.input ? (got.tokens / got.input) * 100 : 0;
      const short: string[] = [];
      if (m.tokens !== undefined && got.tokens < m.tokens) short.push(`fewer than ${formatTokens(m.tokens)} tokens`);
      if (m.percent !== undefined && share < m.percent) short.push(`less than ${m.percent} % of its input`);
      if (!short.length) continue;
      const rule = ruleOf(e);
      fail({
        expectation: 'minCached',
        request: e.offset,
        expectedAt: m.at,
        message: `request @${e.offset} reads ${formatTokens(got.tokens, exact)} of ${formatTokens(got.input, exact)} input tokens (${share.toFixed(1)} %) from the cache (${got.billed ? 'billed' : 'modelled'}): ${short.join(' and ')}`,
        details: [...whyLines(e), ...ruleLine(rule)],
        rule,
        fix: fixFor(e, 'lower minCached'),
      });
    }
  }

  if (exp.maxInputTokens) {
    for (const e of econ.requests) {
      if (e.inputTokens <= exp.maxInputTokens.tokens) continue;
      fail({
        expectation: 'maxInputTokens',
        request: e.offset,
        expectedAt: exp.maxInputTokens.at,
        message: `request @${e.offset} has ${formatTokens(e.inputTokens, e.exact)} input tokens, more than maxInputTokens ${exp.maxInputTokens.tokens}`,
        details: [],
        rule: null,
        fix: `shorten the request, or raise maxInputTokens to at least ${e.inputTokens}`,
      });
    }
  }

  if (exp.maxMeasuredDiff) {
    if (!measured.size && exp.maxMeasuredDiff.length)
      fail({
        expectation: 'maxMeasuredDiff',
        request: null,
        expectedAt: exp.maxMeasuredDiff[0]!.at,
        message: 'maxMeasuredDiff is set, but no request of the capture carries what the provider billed (its usage)',
        details: [],
        rule: null,
        fix: 'record each response (or its usage) beside the request — {"timestamp", "body", "response": {…}} — or remove maxMeasuredDiff',
      });
    for (const limit of exp.maxMeasuredDiff) {
      for (const q of measured.values()) {
        const f = q.figures[limit.field];
        if (f.diff === null || f.measured === null) continue;
        const max = limit.percent !== undefined ? (limit.percent / 100) * f.measured : limit.tokens!;
        if (Math.abs(f.diff) <= max) continue;
        fail({
          expectation: 'maxMeasuredDiff',
          request: q.offset,
          expectedAt: limit.at,
          message: `request @${q.offset}: the provider billed ${formatTokens(f.measured)} ${limit.field}, the model ${formatTokens(f.compared, q.exact)}${f.compared !== f.modelled ? ` (on the provider's scale)` : ''}: a difference of ${Math.abs(f.diff)}, more than ${limit.text}`,
          details: q.reason ? [`likely reason: ${q.reason.text}`] : [],
          rule: null,
          fix: 'find what the capture lacks (a breakpoint, the time between requests) before blaming the provider; or raise the limit',
        });
      }
    }
  }

  // Cost: billed where every own request carries the bill (priced with the model's prices at the request's instant; the
  // billed output tokens where the capture has them), else modelled.
  const billedOutput = new Map<number, number>();
  for (const ev of r.scenario.chain) {
    const out = (ev.payload as { measured?: { outputTokens?: unknown } } | null)?.measured?.outputTokens;
    if (typeof out === 'number' && Number.isInteger(out) && out >= 0) billedOutput.set(ev.offset, out);
  }
  const allBilled = econ.requests.length > 0 && econ.requests.every((e) => measured.get(e.offset)?.measured.cachedTokens != null);
  let costUsd: number | null = 0;
  for (const e of econ.requests) {
    let one: number | null;
    if (allBilled) {
      const b = measured.get(e.offset)!.measured;
      const writes = b.cacheWriteTokens ?? 0;
      const output = billedOutput.get(e.offset) ?? e.outputTokens;
      // At the prices in force at the request's instant, as the model prices it (price-history.ts).
      const at = pricingInstant(r.scenario, requests.get(e.offset)?.createdAt ?? '');
      one = costs(
        pricesAt(profileFor(DEFAULT_ECONOMICS, e.model).profile, at, b.inputTokens).profile,
        b.inputTokens,
        b.cachedTokens ?? 0,
        writes,
        b.cacheWrite1hTokens ?? Math.min(writes, e.cacheWriteTokens1h),
        output,
      ).total;
    } else one = e.costUsd;
    costUsd = costUsd === null || one === null ? null : costUsd + one;
  }
  if (costUsd !== null) costUsd = Math.round(costUsd * 1e10) / 1e10;
  if (exp.maxCostPerConversation) {
    const max = exp.maxCostPerConversation;
    if (costUsd === null)
      fail({
        expectation: 'maxCostPerConversation',
        request: null,
        expectedAt: max.at,
        message: `the cost of this conversation is not known: no price configured for ${[...new Set(econ.requests.map((e) => e.model))].join(', ')}`,
        details: [],
        rule: null,
        fix: 'remove maxCostPerConversation, or check a model whose prices the catalog holds',
      });
    else if (costUsd > max.usd) {
      const lost = econ.totals.lostCostUsd;
      fail({
        expectation: 'maxCostPerConversation',
        request: null,
        expectedAt: max.at,
        message: `the conversation costs ${formatUsd(costUsd)} (${allBilled ? 'as billed' : 'modelled'}, ${econ.requests.length} requests), more than ${formatUsd(max.usd)}`,
        details: lost ? [`cache misses cost ${formatUsd(lost)} of it (${formatTokens(econ.totals.tokensLost, econ.totals.exact)} tokens lost)`] : [],
        rule: null,
        fix: 'keep more of each request cached (see the busts above), shorten the requests, or raise maxCostPerConversation',
      });
    }
  }
  return {
    failures,
    summary: {
      conversation: c.label,
      capture: c.capture,
      requests: econ.requests.length,
      inputTokens: econ.requests.reduce((n, e) => n + cachedOfInput(e, measured), 0),
      cachedTokens: econ.requests.reduce((n, e) => n + cachedOf(e).tokens, 0),
      costUsd,
      billed: allBilled,
    },
  };
}

const cachedOfInput = (e: RequestEconomics, measured: ReadonlyMap<number, MeasuredRequest>): number => measured.get(e.offset)?.measured.inputTokens ?? e.inputTokens;

/** Listed request numbers no conversation holds: a promise about a request that is not there is a bad input. */
export function unknownRequests(exp: Expectations, conversations: readonly Conversation[]): { list: 'busts' | 'cached'; offset: number; at: At }[] {
  const all = new Set(conversations.flatMap((c) => c.economics.requests.map((e) => e.offset)));
  const out: { list: 'busts' | 'cached'; offset: number; at: At }[] = [];
  for (const list of ['busts', 'cached'] as const)
    exp[list]?.offsets.forEach((off, i) => {
      if (!all.has(off)) out.push({ list, offset: off, at: exp[list]!.each[i] ?? exp[list]!.at });
    });
  return out;
}
