/**
 * What a scenario page with a bill says first: the billed totals, labelled
 * "billed"; the modelled figures beside them, labelled "modelled" and defined where the word first
 * appears; then why the two differ, what the capture lacks first (docs/cache-economics.md, "The
 * bill first"): the parts of a request it does not record (the payloads' `unrecorded`,
 * as economics/measured.ts reads them — a system prompt, tool definitions, cache markers), and only
 * for a capture that holds its requests whole, the model's own count (an approximate tokenizer, a
 * prefix it counts below the provider's minimum); and the largest billed miss, linked. Returned as
 * paragraphs of segments (text, or text with the `#@offset` it links to) so the component escapes
 * the text and writes the links; joined, the plain text (tests).
 *
 * Figures: the bill's from economics/billed.ts, the model's from the scenario's economics totals,
 * the per-request comparison from economics/measured.ts — the same one the "Measured beside
 * modelled" table shows, so the lede never says what the table contradicts. A figure that is not
 * known is "—" or said to be not reported, never $0.00.
 */
import type { Billed } from '../economics/billed.ts';
import type { ScenarioEconomics } from '../economics/compute.ts';
import { formatShare, formatTokens, formatUsd, NO_PRICE } from '../economics/format.ts';
import { carriesTokens, framingSized, type MeasuredRequest, type ScenarioMeasured } from '../economics/measured.ts';
import { withInlineCode, type Segment } from './economics-lede.ts';

export interface BilledParagraph {
  /**
   * The paragraph's lead words, set in bold: "Billed", "Modelled", "Not in the capture",
   * "Approximate count", "Counted differently", "Cache markers not in the capture", "Below the
   * minimum by the model’s count", "Caching", "Largest miss".
   */
  lead: string;
  segments: Segment[];
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const share = (part: number, whole: number): string => formatShare(whole ? part / whole : null);
const list = (xs: readonly string[]): string => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
const requestLink = (q: MeasuredRequest): Segment => ({ text: `request ${q.offset}`, href: `#@${q.offset}` });
const partial = (q: MeasuredRequest): boolean => q.unrecorded.some(carriesTokens);

/** Unseen tokens count only when they are a real part of the request, not a framing difference. */
const UNSEEN_MIN_SHARE = 0.05;

/** The provider's count over the model's, as a range over the requests ("2.08×", "1.10×–1.31×"); '' for an exact model. */
function scaleRange(m: ScenarioMeasured): string {
  const scales = m.requests.flatMap((q) => (q.scale === null ? [] : [q.scale]));
  if (!scales.length) return '';
  const [lo, hi] = [Math.min(...scales).toFixed(2), Math.max(...scales).toFixed(2)];
  return lo === hi ? `${lo}×` : `${lo}×–${hi}×`;
}

/**
 * Why the bill's input count differs from the model's: what the capture does not record (a
 * request's `unrecorded` parts that carry tokens, inline media) — else, the capture holding every
 * request whole, the model's count itself (approximate, or framed differently).
 */
function inputDifference(m: ScenarioMeasured): BilledParagraph | null {
  const lacking = m.requests.find(partial);
  if (lacking) {
    const about = lacking.exact ? '' : 'about ';
    const billedIn = lacking.measured.inputTokens;
    const what = `this capture does not record ${list(lacking.unrecorded.filter(carriesTokens))}`;
    return {
      lead: 'Not in the capture',
      segments:
        lacking.unseenTokens > UNSEEN_MIN_SHARE * billedIn
          ? [
              ...withInlineCode(`${what}: `),
              requestLink(lacking),
              {
                text: ` was billed ${formatTokens(billedIn)} input tokens, of which the requests shown hold ${about}${formatTokens(billedIn - lacking.unseenTokens)} — ${about}${formatTokens(lacking.unseenTokens)} billed tokens the page cannot show, and the model cannot see.`,
              },
            ]
          : withInlineCode(`${what}, which the provider received and billed with the rest: the model prices only what the capture holds.`),
    };
  }
  // Past a framing's size only (measured.ts): a few dozen tokens of difference on a short request is how its parts are wrapped, not the tokenizer.
  const q = m.requests.find((x) => !framingSized(x.measured.inputTokens - x.figures.inputTokens.modelled, x.figures.inputTokens.modelled));
  if (!q) return null;
  const counted = [
    requestLink(q),
    { text: ` was billed ${formatTokens(q.measured.inputTokens)} input tokens where the model counts ${formatTokens(q.figures.inputTokens.modelled, q.exact)}` },
  ];
  const table: Segment = { text: 'the comparison with the bill', href: '#measured' };
  if (!q.exact)
    return {
      lead: 'Approximate count',
      segments: [
        { text: `the capture holds the requests whole, and the provider counted ${scaleRange(m)} as many input tokens as this page’s approximate (≈) count: ` },
        ...counted,
        {
          text: '. No offline tokenizer counts this model’s tokens exactly, so every modelled figure is ≈ and on the model’s count, not the bill’s; ',
        },
        table,
        { text: ' puts the cached and written tokens on the provider’s scale before judging them.' },
      ],
    };
  return {
    lead: 'Counted differently',
    segments: [{ text: 'the capture holds the requests whole, yet ' }, ...counted, { text: '; ' }, table, { text: ' gives the likely reason, request by request.' }],
  };
}

/**
 * The provider cached at requests whose marked prefixes the model counts below the profile's
 * minimum (measured.ts's `below-minimum` reason): with an approximate count, a prefix can reach the
 * minimum on the provider's count and not on the model's.
 */
function belowMinimum(m: ScenarioMeasured, econ: ScenarioEconomics): BilledParagraph | null {
  const below = m.requests.filter((q) => q.reason?.kind === 'below-minimum');
  if (!below.length) return null;
  const minimum = econ.requests.find((e) => e.offset === below[0]!.offset)?.minPrefixTokens ?? 0;
  const shown = below.slice(0, 3);
  const links = shown.flatMap((q, i): Segment[] => [...(i === 0 ? [] : [{ text: i === shown.length - 1 && below.length === shown.length ? ' and ' : ', ' }]), requestLink(q)]);
  const more = below.length > shown.length ? ` and ${plural(below.length - shown.length, 'more request')}` : '';
  const why = below.every((q) => q.exact)
    ? ' — the bill shows it caching a shorter prefix than the minimum the profile documents'
    : ` — the model’s approximate (≈) count is low here: the provider counted ${scaleRange(m) || 'more'} as many input tokens, so a prefix can reach the minimum on its count and not on the model’s`;
  return {
    lead: 'Below the minimum by the model’s count',
    segments: [
      { text: `the bill shows the provider caching at ` },
      ...links,
      { text: `${more}, where the model counts every prefix the requests mark below the profile’s ${formatTokens(minimum)}-token minimum and so caches nothing${why}.` },
    ],
  };
}

/** The paragraphs; empty when the scenario carries no bill. `measured` is the per-request comparison of the same bill (economics/measured.ts). */
export function billedLede(billed: Billed | null, econ: ScenarioEconomics | undefined, measured: ScenarioMeasured | null): BilledParagraph[] {
  if (!billed) return [];
  const n = billed.requests.length;
  const of = n === billed.ownRequests ? (n === 1 ? 'this request' : `these ${plural(n, 'request')}`) : `${n} of the ${billed.ownRequests} requests`;
  const out: BilledParagraph[] = [];
  const figures = [`${formatTokens(billed.inputTokens)} input tokens`];
  if (billed.cachedTokens !== null) figures.push(`${share(billed.cachedTokens, billed.inputTokens)} of them read from the cache`);
  figures.push(billed.outputTokens === null ? 'output tokens not reported' : `${formatTokens(billed.outputTokens)} output tokens`);
  const cost =
    billed.costUsd === null
      ? `cost — (${NO_PRICE} or a figure not reported)`
      : `${formatUsd(billed.costUsd)}${billed.noCacheCostUsd === null ? '' : ` (${formatUsd(billed.noCacheCostUsd)} without caching)`}${billed.outputTokens === null ? ', input only' : ''}`;
  out.push({
    lead: 'Billed',
    segments: [{ text: `what the provider’s usage reports for ${of}: ${figures.join(', ')}; ${cost}.` }],
  });
  if (econ?.requests.length) {
    const t = econ.totals;
    const a = t.exact ? '' : '≈';
    const modelCost = t.costUsd === null ? NO_PRICE : `${a}${formatUsd(t.costUsd)}${t.noCacheCostUsd === null ? '' : ` (${a}${formatUsd(t.noCacheCostUsd)} without caching)`}`;
    out.push({
      lead: 'Modelled',
      segments: [
        {
          text: `what this page’s cache model computes from the requests as the capture holds them (the figures in the panes and tables below are modelled unless labelled billed): ${formatTokens(t.inputTokens, t.exact)} input tokens, ${formatShare(t.cachedShare)} cached; ${modelCost}.`,
        },
      ],
    });
  }
  const input = measured && inputDifference(measured);
  if (input) out.push(input);
  // No request as captured carries a cache marker (compute.ts's `markers-unrecorded` cause), yet the bill shows cache reads.
  if (econ?.totals.cachedTokens === 0 && (billed.cachedTokens ?? 0) > 0 && econ.requests.some((e) => e.cacheBreak?.cause === 'markers-unrecorded')) {
    out.push({
      lead: 'Cache markers not in the capture',
      segments: [
        {
          text: `the provider read ${formatTokens(billed.cachedTokens!)} tokens from the cache, so the requests it received asked for caching; the requests as captured carry no cache marker, and the model, which caches only what a request asks for, reads none. The modelled cache figures below are what these requests would cost as captured, not what was sent.`,
        },
      ],
    });
  }
  const below = measured && econ && belowMinimum(measured, econ);
  if (below) out.push(below);
  // The bill shows no caching and the requests never ask for it: the economics' own sentence (economics/unasked.ts).
  if (econ?.unasked) out.push({ lead: 'Caching', segments: withInlineCode(econ.unasked.sentence) });
  const w = billed.worst;
  if (w) {
    out.push({
      lead: 'Largest miss',
      segments: [
        { text: `request ${w.offset}`, href: `#@${w.offset}` },
        {
          text: ` read ${formatTokens(w.cachedTokens ?? 0)} cached tokens where the request before it left ${formatTokens(w.lostTokens + (w.cachedTokens ?? 0))} in the cache: ${formatTokens(w.lostTokens)} billed tokens not read.`,
        },
      ],
    });
  }
  return out;
}

export const billedText = (paragraphs: readonly BilledParagraph[]): string => paragraphs.map((p) => `${p.lead}: ${p.segments.map((s) => s.text).join('')}`).join('\n');
