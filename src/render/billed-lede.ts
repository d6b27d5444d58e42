/**
 * What a scenario page with a bill says first: the billed totals, labelled
 * "billed"; the modelled figures beside them, labelled "modelled" and defined where the word first
 * appears; what the model could not see (input the provider billed that the captured requests do
 * not hold: no system prompt, no tool definitions); and the largest billed miss, linked. Returned
 * as paragraphs of segments (text, or text with the `#@offset` it links to) so the component
 * escapes the text and writes the links; joined, the plain text (tests).
 *
 * Figures: the bill's from economics/billed.ts, the model's from the scenario's economics totals.
 * A figure that is not known is "—" or said to be not reported, never $0.00.
 */
import type { Billed } from '../economics/billed.ts';
import type { ScenarioEconomics } from '../economics/compute.ts';
import { formatShare, formatTokens, formatUsd, NO_PRICE } from '../economics/format.ts';
import { withInlineCode, type Segment } from './economics-lede.ts';

export interface BilledParagraph {
  /** The paragraph's lead words, set in bold: "Billed", "Modelled", "Not in the capture", "Cache markers not in the capture", "Caching", "Largest miss". */
  lead: string;
  segments: Segment[];
}

/** What the requests as captured hold: whether any carries a system prompt, and a tool list. */
export interface CapturedParts {
  system: boolean;
  tools: boolean;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const share = (part: number, whole: number): string => formatShare(whole ? part / whole : null);

/** Unseen tokens count only when they are a real part of the request, not a framing difference. */
const UNSEEN_MIN_SHARE = 0.05;

/** The paragraphs; empty when the scenario carries no bill. */
export function billedLede(billed: Billed | null, econ: ScenarioEconomics | undefined, captured: CapturedParts): BilledParagraph[] {
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
  const first = billed.requests[0]!;
  if (first.unseenTokens > UNSEEN_MIN_SHARE * first.inputTokens) {
    const lacks = [...(captured.system ? [] : ['no system prompt']), ...(captured.tools ? [] : ['no tool definitions'])];
    const what = lacks.length ? `this capture holds ${lacks.join(' and ')}` : 'this capture does not hold every part of the requests';
    out.push({
      lead: 'Not in the capture',
      segments: [
        { text: `${what}: ` },
        { text: `request ${first.offset}`, href: `#@${first.offset}` },
        {
          text: ` was billed ${formatTokens(first.inputTokens)} input tokens, of which the requests shown hold ${billed.exact ? '' : 'about '}${formatTokens(first.inputTokens - first.unseenTokens)} — ${billed.exact ? '' : 'about '}${formatTokens(first.unseenTokens)} billed tokens the page cannot show, and the model cannot see.`,
        },
      ],
    });
  }
  // The requests as captured ask for no caching, yet the bill shows cache reads: the markers were not recorded.
  if (econ?.requests.length && econ.totals.cachedTokens === 0 && (billed.cachedTokens ?? 0) > 0) {
    out.push({
      lead: 'Cache markers not in the capture',
      segments: [
        {
          text: `the provider read ${formatTokens(billed.cachedTokens!)} tokens from the cache, so the requests it received asked for caching; the requests as captured carry no cache marker, and the model, which caches only what a request asks for, reads none. The modelled cache figures below are what these requests would cost as captured, not what was sent.`,
        },
      ],
    });
  }
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
