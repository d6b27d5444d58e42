/**
 * Measured beside modelled: what the provider reported it billed for each request (the `measured`
 * usage an import stores on a request's payload: all input tokens, cached tokens, cache-write
 * tokens) against what our cache model predicts (compute.ts), the difference, a flag where they
 * differ, and the likely reason when one is known — so a team can see whether the model matches
 * its bill and, where it does not, why. Also the scenario's `expect.maxMeasuredDiff`, checked like
 * every expectation (file:line:col of the entry, the request, the fix).
 *
 * How a difference is judged (documented on the writing-scenarios page and in the README):
 * - Exact models (an OpenAI encoding): every figure compared as it is.
 * - `≈` models (tokens.ts: the o200k_base count standing in for a tokenizer we do not have, with no
 *   calibrated correction): the approximation is a scale — the provider's tokenizer cuts the same
 *   text into more or fewer tokens — not a difference in what is cached. So input tokens are shown
 *   with their difference but never flagged, and the modelled cached and written tokens are first
 *   put on the provider's scale. The cached tokens are a prefix of the previous request, so they are
 *   put on the scale of the entry it left: × (billed ÷ modelled cached + written tokens) of the
 *   previous request the capture billed, where the provider reports writes (a breakpoint's entry),
 *   else × (measured ÷ modelled input) of that request (automatic prefix caching: the whole prompt),
 *   else of this one; the written tokens, which a request adds,
 *   on the scale of what it adds: (measured input − compared cached) ÷ (modelled input − cached).
 *   (A ≈ tokenizer's error is not the same on every text: one scale for the whole request moved an
 *   Anthropic cassette's 1,115 cached tokens of a 1,114-token first request to 1,140 on the second,
 *   whose reply text the tokenizer undercounts.) What differs after that is the cache's behaviour,
 *   not the tokenizer's.
 * - Within tolerance: |measured − modelled| ≤ 2 % of the measured figure, or 1 token (rounding of
 *   a scaled figure), whichever is larger. A figure the provider did not report is not judged.
 *
 * Pure and browser-safe. The generic layers never name a fold's event types: the figures are read
 * from any own request's payload that carries `measured`.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import type { InputError } from '../scenarios/errors.ts';
import type { MeasuredDiffLimit } from '../scenarios/model.ts';
import { formatElapsed } from '../scenarios/time.ts';
import type { RequestEconomics, ScenarioEconomics } from './compute.ts';
import { formatDelta, formatTokens } from './format.ts';

/** Relative tolerance of a comparison: 2 % of the measured figure. */
export const TOLERANCE = 0.02;
/** Absolute slack, in tokens, for rounding a scaled figure. */
export const SLACK_TOKENS = 1;

export const FIGURES = ['inputTokens', 'cachedTokens', 'cacheWriteTokens'] as const;
export type Figure = (typeof FIGURES)[number];

/** What the provider billed; a figure it did not report is null. */
export interface Measured {
  inputTokens: number;
  cachedTokens: number | null;
  cacheWriteTokens: number | null;
  /** Of the writes, those billed with a 1-hour retention (absent: none reported). */
  cacheWrite1hTokens?: number;
}

export interface FigureComparison {
  measured: number | null;
  /** As the model counts it (≈ for an approximate model). */
  modelled: number;
  /** The modelled figure on the provider's scale (≈ models' cached and written tokens); else = modelled. */
  compared: number;
  /** measured − compared; null when the provider did not report the figure. */
  diff: number | null;
  /** Within tolerance; null when not judged (not reported, or a ≈ model's input count). */
  within: boolean | null;
}

/**
 * Why a request's billed figures differ from the model's, in the order they are tried: what the
 * capture lacks first (`unrecorded`: parts of the request the provider billed that the capture does
 * not record — its text goes on when the provider read far fewer cached tokens than that explains;
 * `before-capture`: the provider read more cached tokens than any earlier request of the capture
 * sent, so the entry was written by a request the capture does not hold; `markers-unrecorded`:
 * the provider read or wrote more than the model, and the capture cannot show the request's cache
 * markers, so the model, which places none it does not see, caches nothing; `untimed`: no
 * timestamps, so no time-based claim), then the provider's behaviour.
 */
export type ReasonKind =
  | 'unrecorded'
  | 'before-capture'
  | 'markers-unrecorded'
  | 'untimed'
  | 'eviction'
  | 'retained-longer'
  | 'below-minimum'
  | 'unmarked-breakpoint'
  | 'fewer-writes'
  | 'framing';

export interface MeasuredRequest {
  offset: number;
  model: string;
  exact: boolean;
  measured: Measured;
  /** What the capture did not record of this request (the payload's `unrecorded`; [] when it is whole). */
  unrecorded: string[];
  /** Billed input tokens beyond the model's count of what the capture holds, when it lacks a part that carries tokens — anything but the cache markers (0 otherwise). */
  unseenTokens: number;
  /** Measured ÷ modelled input tokens (≈ models only; the written tokens are compared on the scale of what the request adds). */
  scale: number | null;
  /** The scale the cached tokens are compared on (≈ models only): the previous billed request's cache entry's (billed ÷ modelled cached + written), else its input's, else `scale`. */
  cachedScale: number | null;
  /** The largest billed input of an earlier request of the capture (0 for its first; unbounded in a scenario that shares its parent's cache): what an entry the capture wrote can hold. */
  earlierInput: number;
  figures: Record<Figure, FigureComparison>;
  /** Figures beyond tolerance. */
  flagged: Figure[];
  reason: { kind: ReasonKind; text: string } | null;
}

export interface ScenarioMeasured {
  requests: MeasuredRequest[];
  /** Own requests of the scenario (with or without measured figures). */
  ownRequests: number;
  /** Per figure: requests within tolerance, of those where it was judged. */
  agreement: Record<Figure, { within: number; judged: number }>;
  /** Every compared request's model counts exactly. */
  exact: boolean;
  /** "modelled cached tokens within 2 % of measured on 4 of 5 requests …" */
  summary: string;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The measured figures of an event payload, when it carries valid ones. */
export function measuredOfPayload(payload: unknown): Measured | null {
  const m = (payload as { measured?: unknown } | null)?.measured as Record<string, unknown> | undefined;
  if (!m || typeof m !== 'object' || !isCount(m.inputTokens)) return null;
  return {
    inputTokens: m.inputTokens,
    cachedTokens: isCount(m.cachedTokens) ? m.cachedTokens : null,
    cacheWriteTokens: isCount(m.cacheWriteTokens) ? m.cacheWriteTokens : null,
    ...(isCount(m.cacheWrite1hTokens) && m.cacheWrite1hTokens > 0 && { cacheWrite1hTokens: m.cacheWrite1hTokens }),
  };
}

const withinTolerance = (measured: number, diff: number): boolean => Math.abs(diff) <= Math.max(TOLERANCE * measured, SLACK_TOKENS);

function compare(measured: number | null, modelled: number, scale: number | null, judged: boolean): FigureComparison {
  const compared = scale === null ? modelled : Math.round(modelled * scale);
  if (measured === null) return { measured, modelled, compared, diff: null, within: null };
  const diff = measured - compared;
  return { measured, modelled, compared, diff, within: judged ? withinTolerance(measured, diff) : null };
}

/**
 * The written tokens on the provider's scale (≈ models): on the scale of the part of the request
 * beyond the cached prefix — (measured input − compared cached) ÷ (modelled input − modelled
 * cached) — since what a request writes is what it adds; this request's scale when it adds nothing.
 */
function compareWritten(measured: Measured, e: RequestEconomics, scale: number | null, cachedCompared: number): FigureComparison {
  if (scale === null) return compare(measured.cacheWriteTokens, e.cacheWriteTokens, null, true);
  const added = e.inputTokens - e.cachedTokens;
  const addedScale = added > 0 ? Math.max(0, measured.inputTokens - cachedCompared) / added : scale;
  return compare(measured.cacheWriteTokens, e.cacheWriteTokens, addedScale, true);
}

const fmt = (n: number, exact = true): string => formatTokens(n, exact);

/**
 * Whether a difference in input tokens is as small as a different framing makes it: a few tokens
 * per message and per tool, so at most 128 or a tenth of the request. A published Codex rollout's
 * bill was 109,176 tokens below the model's 262,298 — not a framing, and not said to be one.
 */
export const framingSized = (diff: number, modelled: number): boolean => Math.abs(diff) <= Math.max(128, modelled / 10);

/** Why the provider billed fewer input tokens than the model counts in what the capture holds, past a framing's size. */
const NOT_BILLED =
  'more than a framing differs by: part of what the capture holds was not billed as input — reasoning items the provider drops from earlier turns, for instance — or the model counts it differently';

const list = (xs: readonly string[]): string => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/**
 * What the capture lacks cannot explain on its own: the provider read far fewer cached tokens than
 * the model reads of what the capture holds. The parts a capture lacks (tool definitions, base
 * instructions) come first in the request and are cached with the rest, so they add to a read;
 * they take from it only when they changed. A published Codex rollout's @22, 10 s after @21, read
 * 3,072 cached tokens where @21's entry held 44,928, and the capture lacked 74: the reasons went
 * no further than those 74. Said after the lack, with both causes it can have; '' otherwise (a
 * difference a framing's size, or a read at or above the model's).
 */
function readBelowWhatIsHeld(q: MeasuredRequest, e: RequestEconomics, idleMs: number | null): string {
  const c = q.figures.cachedTokens;
  if (!q.flagged.includes('cachedTokens') || c.diff === null || c.diff >= 0) return '';
  // A bill that counts fewer input tokens than the model (reasoning items the provider drops, for instance) reads fewer
  // cached tokens by as many: only the rest is unexplained (the same rollout from @44 on bills ~31,800 below the count).
  const fewer = Math.max(0, -(q.figures.inputTokens.diff ?? 0));
  if (framingSized(-c.diff - fewer, c.compared)) return '';
  const counted = fewer ? ` (the provider's smaller input count explains ${fmt(fewer, e.exact)} of them)` : '';
  const since = e.previous === null ? '' : ` since @${e.previous}`;
  const when =
    idleMs === null
      ? 'the capture has no timestamps, so whether the entry outlived its retention cannot be told'
      : `idle ${formatElapsed(idleMs)}${since}; documented retention ${e.retentionMinutes === null ? 'unlimited' : `${e.retentionMinutes} min`}`;
  const lacking = list(q.unrecorded.filter(carriesTokens));
  return `. Beyond that, the provider read ${fmt(c.measured!)} cached tokens where the model reads ${fmt(c.compared, e.exact)} of what the capture holds — ${fmt(-c.diff, e.exact)} fewer${counted}, which the parts it lacks cannot explain unless they changed: either ${lacking} changed${since}, or the provider dropped the entry before its time (${when})`;
}

/**
 * The likely reason a request's measured figures differ from the model, when one is known: what
 * the capture lacks first, then the provider's behaviour. `idleMs` is null when the capture has no
 * timestamps (then no reason rests on time); `markersMissing`, that the scenario's requests as
 * captured carry no cache marker where the requests as sent may have.
 */
function reasonOf(q: MeasuredRequest, e: RequestEconomics, idleMs: number | null, timed: boolean, markersMissing: boolean): MeasuredRequest['reason'] {
  const c = q.figures.cachedTokens;
  const w = q.figures.cacheWriteTokens;
  if (q.unrecorded.some(carriesTokens)) {
    const lacks = `it does not record ${list(q.unrecorded)}, which the provider received, billed and cached with the rest; the model prices only what the capture holds, so its cached and written figures cannot match the bill`;
    const beyond = readBelowWhatIsHeld(q, e, idleMs);
    // A bill below our count of what the capture holds (a published Codex rollout: −317 of 53,601) shows
    // no unseen tokens, but the capture still lacks those parts: say both, not "0 billed tokens the capture does not show".
    const fewer = -(q.figures.inputTokens.diff ?? 0);
    // Billed well below what the capture holds: what it lacks would only add to the bill, so the smaller count is said first.
    if (q.unseenTokens === 0 && fewer > 0 && !framingSized(fewer, q.figures.inputTokens.modelled))
      return {
        kind: 'unrecorded',
        text: `the provider counts ${fmt(fewer, e.exact)} input tokens fewer than the model's count of what the capture holds — ${NOT_BILLED}; the capture also lacks parts of the request: ${lacks}${beyond}`,
      };
    return {
      kind: 'unrecorded',
      text:
        q.unseenTokens > 0
          ? `${fmt(q.unseenTokens)} billed input tokens the capture does not show: ${lacks}${beyond}`
          : `the capture is not the whole request: ${lacks} (the provider counts ${fmt(Math.max(0, fewer), e.exact)} input tokens fewer than the model's count of what the capture holds: its framing differs)${beyond}`,
    };
  }
  if (q.flagged.includes('cachedTokens') && c.measured !== null && c.measured > q.earlierInput)
    return {
      kind: 'before-capture',
      text:
        q.earlierInput === 0
          ? `the provider read ${fmt(c.measured)} cached tokens on the first request of this conversation in the capture: an entry written before the capture began, by a request the capture does not hold; the model starts the capture with an empty cache`
          : `the provider read ${fmt(c.measured)} cached tokens, more than any earlier request of the capture sent (at most ${fmt(q.earlierInput)}): an entry written by a request the capture does not hold`,
    };
  // The capture cannot show the requests' markers (compute.ts: a cause of the scenario is `markers-unrecorded`) and this one
  // carries none: the breakpoints the provider honoured are what the capture lacks.
  const unmarked = markersMissing && e.breakpointTokens.length === 0;
  const readMore = q.flagged.includes('cachedTokens') && c.diff !== null && c.diff > 0;
  const wroteMore = q.flagged.includes('cacheWriteTokens') && w.diff !== null && w.diff > 0;
  if (unmarked && (readMore || wroteMore))
    return {
      kind: 'markers-unrecorded',
      text: `the provider ${[readMore && `read ${fmt(c.measured!)} cached tokens`, wroteMore && `wrote ${fmt(w.measured!)} tokens to the cache`].filter(Boolean).join(' and ')} where the model ${[readMore && `reads ${fmt(c.compared)}`, wroteMore && `writes ${fmt(w.compared)}`].filter(Boolean).join(' and ')}: the capture records no cache marker, and the model caches only what a request asks for — the requests as sent carried breakpoints the capture does not show`,
    };
  // Fewer cached tokens by no more than the provider's input count is below the model's (and its cache's step): the same
  // prefix, counted shorter by the framing — not an eviction (a published OpenAI cassette: 3,584 read of a 3,702-token
  // request where the model counts 3,936 and reads 3,840).
  const input = q.figures.inputTokens;
  if (q.exact && q.flagged.includes('cachedTokens') && c.diff !== null && c.diff < 0 && input.diff !== null && input.diff < 0 && -c.diff <= -input.diff + e.stepTokens)
    return {
      kind: 'framing',
      text: `the provider read ${fmt(c.measured!)} cached tokens where the model reads ${fmt(c.compared)}: ${fmt(-c.diff)} fewer, no more than the ${fmt(-input.diff)} input tokens it counts fewer than our chat framing of the same messages${e.stepTokens > 1 ? ` (and its cache's ${e.stepTokens}-token steps)` : ''} — the same prefix, counted shorter, not an eviction`,
    };
  if (!timed && q.flagged.includes('cachedTokens') && c.diff !== null && c.diff < 0)
    return {
      kind: 'untimed',
      text: `the provider read ${fmt(c.measured!)} cached tokens where the model reads ${fmt(c.compared)}; the capture has no timestamps, so whether an entry outlived its retention cannot be told`,
    };
  const retention = e.retentionMinutes;
  const idle = idleMs === null ? '' : `idle ${formatElapsed(idleMs)} since @${e.previous}`;
  const rewrote = w.diff !== null && w.diff > 0 ? `, and wrote ${fmt(w.measured!)} tokens to the cache again` : '';
  if (q.flagged.includes('cachedTokens') && c.diff !== null && c.diff < 0) {
    if (idleMs !== null && (retention === null || idleMs <= retention * 60_000))
      return {
        kind: 'eviction',
        text: `eviction before the documented retention: the provider read ${fmt(c.measured!)} cached tokens where the model reads ${fmt(c.compared)}${rewrote} (${idle}; documented retention ${retention === null ? 'unlimited' : `${retention} min`} — a minimum the provider does not promise); the request repeats the cached bytes exactly inside the retention, so this is provider-side, not actionable`,
      };
    return null;
  }
  if (q.flagged.includes('cachedTokens') && c.diff !== null && c.diff > 0) {
    if (e.expired || e.cacheBreak?.cause === 'expired')
      return {
        kind: 'retained-longer',
        text: `the provider still held the entry after ${idle || 'the pause'}, longer than the documented ${retention} min retention the model applies`,
      };
    if (e.cacheBreak?.cause === 'below-minimum' || (c.modelled === 0 && e.prefixTokens < e.minPrefixTokens))
      return {
        kind: 'below-minimum',
        text: `the provider cached ${fmt(c.measured!)} tokens of a prefix the model counts below the profile's ${fmt(e.minPrefixTokens)}-token minimum${q.exact ? '' : ' (the ≈ count may be low)'}`,
      };
    return {
      kind: 'unmarked-breakpoint',
      text: `the provider read ${fmt(c.measured!)} cached tokens, more than the model's ${fmt(c.compared)}: an entry at a breakpoint the trace did not carry (one added by a proxy or SDK, or the provider's automatic caching)`,
    };
  }
  // Written where the model writes nothing although the request carries breakpoints: each is below the minimum on the model's count.
  const marksBelowMinimum = e.breakpointTokens.length > 0 && Math.max(...e.breakpointTokens) < e.minPrefixTokens;
  if (q.flagged.includes('cacheWriteTokens') && w.diff !== null && w.diff > 0 && w.modelled === 0 && marksBelowMinimum)
    return {
      kind: 'below-minimum',
      text: `the provider wrote ${fmt(w.measured!)} tokens to the cache at breakpoints the model counts below the profile's ${fmt(e.minPrefixTokens)}-token minimum (${fmt(Math.max(...e.breakpointTokens))} at the last)${q.exact ? '' : ' — the ≈ count may be low'}`,
    };
  // A ≈ model's written tokens are put on one scale for the whole request, while the provider's tokenizer counts the
  // parts differently (a tool's JSON schema against prose): a difference of that size is the count, not a breakpoint
  // dishonoured or added (a published Anthropic cassette: 4,602 written where the scaled count gives 4,735).
  if (!q.exact && q.flagged.includes('cacheWriteTokens') && w.diff !== null && framingSized(w.diff, w.compared))
    return {
      kind: 'framing',
      text: `the ≈ count: the provider wrote ${fmt(w.measured!)} tokens to the cache where the model, put on the provider's scale${q.scale === null ? '' : ` (${q.scale.toFixed(2)}× for the whole request)`}, writes ${fmt(w.compared, false)} — a difference the approximate tokenizer makes where the request's parts count differently, not a breakpoint the provider dropped or added`,
    };
  if (q.flagged.includes('cacheWriteTokens') && w.diff !== null)
    return w.diff > 0
      ? {
          kind: 'unmarked-breakpoint',
          text: `the provider wrote ${fmt(w.measured!)} tokens to the cache where the model writes ${fmt(w.compared)}: a breakpoint the trace did not carry`,
        }
      : {
          kind: 'fewer-writes',
          text: `the provider wrote ${fmt(w.measured!)} tokens to the cache where the model writes ${fmt(w.compared)}: a breakpoint the provider did not honour (below its minimum, or beyond its limit of breakpoints)`,
        };
  const i = q.figures.inputTokens;
  if (q.flagged.includes('inputTokens') && i.diff !== null)
    return {
      kind: 'framing',
      text: framingSized(i.diff, i.modelled)
        ? `a different framing: the provider counts ${fmt(Math.abs(i.diff))} input tokens ${i.diff > 0 ? 'more' : 'fewer'} than our chat framing of the same messages (tool definitions, images or message framing counted differently)`
        : i.diff > 0
          ? `the provider counts ${fmt(i.diff)} input tokens more than the model's count of the same messages — more than a framing differs by: the request as sent held parts the capture does not show`
          : `the provider counts ${fmt(-i.diff)} input tokens fewer than the model's count of the same messages — ${NOT_BILLED}`,
    };
  return null;
}

const pct = Math.round(TOLERANCE * 100);

function summaryOf(requests: MeasuredRequest[], agreement: ScenarioMeasured['agreement'], exact: boolean): string {
  if (!requests.length) return '';
  const part = (f: Figure, label: string): string | null => {
    const a = agreement[f];
    return a.judged ? `${label} within ${pct} % of measured on ${a.within} of ${a.judged} request${a.judged === 1 ? '' : 's'}` : null;
  };
  const parts = [part('cachedTokens', 'modelled cached tokens'), part('cacheWriteTokens', 'cache writes'), exact ? part('inputTokens', 'input tokens') : null].filter(
    (x): x is string => x !== null,
  );
  if (!parts.length) return `${requests.length} request${requests.length === 1 ? '' : 's'} with measured input tokens; the provider reported no cached or written tokens`;
  // First the count the table beneath shows (a request agrees when none of its figures is flagged), then each figure's.
  const agree = requests.filter((q) => q.flagged.length === 0).length;
  // An ≈ model's input count is not judged (its tokenizer is not the provider's): the lead says so, and the summary gives the ratio, so a 4× gap is not read as agreement.
  const lead = `the model agrees with the bill on ${agree} of ${requests.length} request${requests.length === 1 ? '' : 's'} (every ${exact ? '' : 'judged '}figure within ${pct} %)`;
  const lacking = requests.filter((q) => q.unrecorded.some(carriesTokens));
  const unseen = lacking.reduce((n, q) => n + q.unseenTokens, 0);
  // What the capture lacks is said first: it explains the differences before any provider behaviour does.
  const on = `on ${lacking.length} of ${requests.length} request${requests.length === 1 ? '' : 's'}; `;
  // No billed token beyond the model's count (a bill at or below it): what the capture lacks is still said, never as "0 billed tokens".
  const first = !lacking.length
    ? ''
    : unseen > 0
      ? `${fmt(unseen)} billed input tokens the capture does not show (it does not record ${list(lacking[0]!.unrecorded)}), ${on}`
      : `the capture does not record ${list(lacking[0]!.unrecorded)}, which the provider billed with the rest, ${on}`;
  const scales = requests.flatMap((q) => (q.scale === null ? [] : [q.scale]));
  const ratio = (x: number): string => `${x.toFixed(2)}×`;
  const [lo, hi] = [Math.min(...scales), Math.max(...scales)];
  const range = ratio(hi) === ratio(lo) ? ratio(lo) : `${ratio(lo)}–${ratio(hi)}`;
  const onScale = scales.length ? ` — the provider billed ${range} the model’s count; cached tokens compared on the provider’s token scale` : '';
  const approx = exact ? '' : ` (≈ model: input tokens are not judged${onScale})`;
  return `${first}${lead}; by figure: ${parts.join('; ')}${approx}`;
}

/** The comparison for one rendered scenario; null when none of its own requests carries measured figures. */
/** What the capture did not record of a request (its payload's `unrecorded`), or []. */
export function unrecordedOfPayload(payload: unknown): string[] {
  const u = (payload as { unrecorded?: unknown } | null)?.unrecorded;
  return Array.isArray(u) ? u.filter((x): x is string => typeof x === 'string' && x !== '') : [];
}

/**
 * What a capture that does not record a request's cache markers lists in its `unrecorded` (a Claude
 * Code transcript, a span): the one wording the economics recognise, so a request without a marker
 * is not said to ask for no caching when the capture could not have shown one.
 */
export const MARKERS_UNRECORDED = 'the cache markers (breakpoints such as cache_control)';

/** What the model cannot count of a request that sends media, inline or by reference (normalise.ts holdsUncountedMedia): a part the provider bills as input tokens. */
export const MEDIA_UNRECORDED =
  'the tokens of the media it sends (images, video, documents — inline as base64, or by URL or file id: billed by their pixels, seconds or pages, which the model does not count)';

/**
 * What a capture that rebuilds a body from an SDK's prompt does not record of the parameters the
 * SDK's provider package adds (an AI SDK telemetry span): settings, not text the model reads.
 */
export const PARAMETERS_UNRECORDED = 'the request parameters the provider package adds (`max_tokens` where the call sets none, thinking and other call-level provider options)';

/** A part a capture does not record that the provider billed as input tokens: anything but the cache markers (a marker is a field of a block, not text of its own) and request parameters. */
export const carriesTokens = (unrecorded: string): boolean => unrecorded !== MARKERS_UNRECORDED && unrecorded !== PARAMETERS_UNRECORDED;

/** Every own request of the scenario says its capture does not record its cache markers. */
export function markersNotCaptured(r: RenderedScenario): boolean {
  const payloads = new Map(r.scenario.chain.map((e) => [e.offset, e.payload]));
  return r.requests.length > 0 && r.requests.every((q) => unrecordedOfPayload(payloads.get(q.offset)).includes(MARKERS_UNRECORDED));
}

/**
 * The bill shows the provider reading from or writing to its cache on some own request of the
 * scenario: where the provider caches only what a request asks for, the requests it received asked.
 */
export function billShowsCaching(r: RenderedScenario): boolean {
  const payloads = new Map(r.scenario.chain.map((e) => [e.offset, e.payload]));
  return r.requests.some((q) => {
    const m = measuredOfPayload(payloads.get(q.offset));
    return !!m && ((m.cachedTokens ?? 0) > 0 || (m.cacheWriteTokens ?? 0) > 0);
  });
}

/** The scenario's own requests carry timestamps: not every one at the same instant (an import without timestamps puts them all at 0 ms). */
export function timedRequests(r: RenderedScenario): boolean {
  return r.requests.length < 2 || new Set(r.requests.map((q) => q.createdAt)).size > 1;
}

export function measuredComparison(r: RenderedScenario, econ: ScenarioEconomics): ScenarioMeasured | null {
  const payloads = new Map(r.scenario.chain.map((e) => [e.offset, e.payload]));
  const createdAt = new Map(r.chain.map((q) => [q.offset, Date.parse(q.createdAt)]));
  const timed = timedRequests(r);
  const markersMissing = econ.requests.some((e) => e.cacheBreak?.cause === 'markers-unrecorded');
  const requests: MeasuredRequest[] = [];
  // The scale of each billed request (≈ models), for the request after it; and the largest billed input so far.
  const scales = new Map<number, number>();
  // A scenario that starts from its parent's cache (`sharesCache:`) may read what the parent wrote: no earlier-input bound.
  let earlierInput = r.scenario.sharesCache ? Number.POSITIVE_INFINITY : 0;
  for (const e of econ.requests) {
    const measured = measuredOfPayload(payloads.get(e.offset));
    if (!measured) continue;
    // Media (inline, or fetched by the provider from a URL) are billed by their pixels, seconds or pages, which the model does not count: what it lacks, said first.
    const unrecorded = [...unrecordedOfPayload(payloads.get(e.offset)), ...(e.media ? [MEDIA_UNRECORDED] : [])];
    const partial = unrecorded.some(carriesTokens);
    // A capture that lacks part of the request is not put on the provider's scale: the ratio would be the missing part, not the tokenizer.
    const scale = e.exact || e.inputTokens === 0 || partial ? null : measured.inputTokens / e.inputTokens;
    // The scale of what this request leaves in the cache (what it read and wrote), on the provider's count and the model's:
    // a prefix the next request reads, put on the scale of those very tokens.
    // Known where the provider reports its writes (a breakpoint's entry: what was read and written); else its entry is the
    // whole prompt (automatic prefix caching), on the input's scale.
    const entry = (measured.cacheWriteTokens ?? 0) > 0 ? (measured.cachedTokens ?? 0) + measured.cacheWriteTokens! : 0;
    const modelledEntry = e.cachedTokens + e.cacheWriteTokens;
    if (scale !== null) scales.set(e.offset, entry > 0 && modelledEntry > 0 ? entry / modelledEntry : scale);
    // The cached tokens are a prefix of the previous request: the scale of the entry it left (a published Anthropic
    // cassette: one tool of 4,602 billed tokens, 3,920 on the model's count, under a 147-token request tail of 12 —
    // the whole input's 1.21× put a full hit 133 tokens short), else its input's, when the capture billed it.
    const cachedScale = scale === null ? null : ((e.previous === null ? undefined : scales.get(e.previous)) ?? scale);
    const cachedTokens = compare(measured.cachedTokens, e.cachedTokens, cachedScale, true);
    const q: MeasuredRequest = {
      offset: e.offset,
      model: e.model,
      exact: e.exact,
      measured,
      unrecorded,
      unseenTokens: partial ? Math.max(0, measured.inputTokens - e.inputTokens) : 0,
      scale,
      cachedScale,
      earlierInput,
      figures: {
        inputTokens: compare(measured.inputTokens, e.inputTokens, null, e.exact),
        cachedTokens,
        cacheWriteTokens: compareWritten(measured, e, scale, cachedTokens.compared),
      },
      flagged: [],
      reason: null,
    };
    q.flagged = FIGURES.filter((f) => q.figures[f].within === false);
    if (q.flagged.length) {
      const prev = e.previous === null ? undefined : createdAt.get(e.previous);
      const now = createdAt.get(e.offset);
      q.reason = reasonOf(q, e, !timed || prev === undefined || now === undefined ? null : now - prev, timed, markersMissing);
    }
    requests.push(q);
    earlierInput = Math.max(earlierInput, measured.inputTokens);
  }
  if (!requests.length) return null;
  const agreement = Object.fromEntries(
    FIGURES.map((f) => {
      const judged = requests.filter((q) => q.figures[f].within !== null);
      return [f, { within: judged.filter((q) => q.figures[f].within).length, judged: judged.length }];
    }),
  ) as ScenarioMeasured['agreement'];
  const exact = requests.every((q) => q.exact);
  return { requests, ownRequests: econ.requests.length, agreement, exact, summary: summaryOf(requests, agreement, exact) };
}

/** The fields `npm run report -- --json` adds to a request: the measured figures and the differences (null without). */
export interface MeasuredReportFields {
  measured: Measured | null;
  measuredDiff: {
    inputTokens: number;
    cachedTokens: number | null;
    cacheWriteTokens: number | null;
    scale: number | null;
    flagged: Figure[];
    reason: MeasuredRequest['reason'];
  } | null;
}

export function measuredReportFields(q: MeasuredRequest | undefined): MeasuredReportFields {
  if (!q) return { measured: null, measuredDiff: null };
  return {
    measured: { ...q.measured },
    measuredDiff: {
      inputTokens: q.figures.inputTokens.diff!,
      cachedTokens: q.figures.cachedTokens.diff,
      cacheWriteTokens: q.figures.cacheWriteTokens.diff,
      scale: q.scale === null ? null : Math.round(q.scale * 1e4) / 1e4,
      flagged: [...q.flagged],
      reason: q.reason && { ...q.reason },
    },
  };
}

/** A figure as the text report and the page write it: `1,352 / ≈1,229 (+1)`. */
export function figureText(c: FigureComparison, exact: boolean): string {
  if (c.measured === null) return `— / ${fmt(c.modelled, exact)}`;
  const scaled = c.compared !== c.modelled ? ` → ${fmt(c.compared)}` : '';
  return `${fmt(c.measured)} / ${fmt(c.modelled, exact)}${scaled} (${c.diff === 0 ? '±0' : formatDelta(c.diff!)})`;
}

/** The text report's lines for one scenario: the summary, then one line per request. */
export function measuredLines(m: ScenarioMeasured | null): string[] {
  if (!m) return [];
  const out = [`measured (billed / modelled, difference): ${m.summary}`];
  for (const q of m.requests) {
    const figs = FIGURES.map((f) => `${f === 'inputTokens' ? 'input' : f === 'cachedTokens' ? 'cached' : 'writes'} ${figureText(q.figures[f], q.exact)}`).join(', ');
    const verdict = q.flagged.length ? `DIFFERS (${q.flagged.join(', ')})${q.reason ? `: ${q.reason.text}` : ': no known reason'}` : 'ok';
    out.push(`  @${q.offset}  ${figs}${q.scale === null ? '' : `, scale ×${q.scale.toFixed(3)}`} — ${verdict}`);
  }
  return out;
}

/** `expect.maxMeasuredDiff`: each own request's difference within each stated limit. */
export function checkMeasured(r: RenderedScenario, econ: ScenarioEconomics, errors: InputError[]): void {
  const limits = r.scenario.expect?.maxMeasuredDiff;
  if (!limits?.length) return;
  const m = measuredComparison(r, econ);
  if (!m) {
    errors.push({
      pos: r.scenario.expect!.maxMeasuredDiffPos ?? r.scenario.expect!.pos,
      message: 'expect.maxMeasuredDiff is set, but no own request carries measured figures (`measured`: what the provider billed)',
      fix: 'import the trace with each response (or its usage) beside the request — {"timestamp", "body", "response": {…}} — or remove maxMeasuredDiff',
    });
    return;
  }
  for (const limit of limits) checkLimit(limit, m, errors);
}

const allowed = (limit: MeasuredDiffLimit, measured: number): number => (limit.percent !== undefined ? (limit.percent / 100) * measured : limit.tokens!);

function checkLimit(limit: MeasuredDiffLimit, m: ScenarioMeasured, errors: InputError[]): void {
  const judged = m.requests.filter((q) => q.figures[limit.field].diff !== null);
  if (!judged.length) {
    errors.push({
      pos: limit.pos,
      message: `expect.maxMeasuredDiff.${limit.field}: no own request reports ${limit.field} (the provider's usage did not include it)`,
      fix: `remove ${limit.field} from maxMeasuredDiff, or import usage that reports it`,
    });
    return;
  }
  for (const q of judged) {
    const c = q.figures[limit.field];
    const max = allowed(limit, c.measured!);
    if (Math.abs(c.diff!) <= max) continue;
    const scaled = c.compared !== c.modelled ? ` (${fmt(c.compared)} on the provider's scale ×${q.scale!.toFixed(3)})` : '';
    const needed =
      limit.percent === undefined
        ? `at least ${Math.abs(c.diff!)}`
        : c.measured === 0
          ? `a token count of at least ${Math.abs(c.diff!)} (no percentage of a billed 0 allows a difference)`
          : `at least "${Math.ceil((Math.abs(c.diff!) / c.measured!) * 1000) / 10}%"`;
    errors.push({
      pos: limit.pos,
      message: `request @${q.offset}: measured ${limit.field} ${fmt(c.measured!)}, modelled ${fmt(c.modelled, q.exact)}${scaled} — a difference of ${formatDelta(c.diff!)}, more than expect.maxMeasuredDiff.${limit.field} ${limit.text}${q.reason ? `; likely reason: ${q.reason.text}` : ''}`,
      fix: `if the bill is right and the model wrong, fix the model (profile or breakpoints); if the difference is expected, raise maxMeasuredDiff.${limit.field} to ${needed}`,
    });
  }
}
