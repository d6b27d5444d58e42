/**
 * The first sentence of a scenario's economics section: the figure that matters, in words a
 * reviewer reads in ten seconds — what the requests cost with caching against no caching at all,
 * what the cache read, and what was lost to which event (the event linked). Returned as segments
 * (text, or text with the `#@offset` it links to) so the component writes the links and escapes
 * the text; the same segments joined are the sentence's plain text (tests, the report).
 * Requests as sent that never ask for caching open on that, and on what asking would save.
 */
import type { RequestEconomics, ScenarioEconomics } from '../economics/compute.ts';
import { formatShare, formatTokens, formatUsd, NO_PRICE } from '../economics/format.ts';
import { breakEvents, causeName } from '../economics/view.ts';

/** Text; a link to `#@offset` when `href`; inline code (a field name such as `cache_control`) when `code`. */
export type Segment = { text: string; href?: string; code?: true };

/**
 * A sentence that marks field names with backticks (the unasked-caching sentence, shared with the
 * report and the linter, which print it as plain text) as segments: the backticked runs as code,
 * the rest as text — so the page shows `cache_control` as code, never its raw backticks.
 */
export function withInlineCode(sentence: string): Segment[] {
  const pieces = sentence.split('`');
  // An unpaired backtick marks nothing: the whole sentence is text (as the PR summary's code spans read it, review/summary.ts).
  if (pieces.length % 2 === 0) return [{ text: sentence }];
  return pieces.map((text, i): Segment => (i % 2 ? { text, code: true } : { text })).filter((x) => x.text !== '');
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The request whose break lost the most tokens (the first of equals). */
function worst(requests: readonly RequestEconomics[]): RequestEconomics | undefined {
  let best: RequestEconomics | undefined;
  for (const e of requests) if ((e.cacheBreak?.tokensLost ?? 0) > (best?.cacheBreak?.tokensLost ?? 0)) best = e;
  return best;
}

/** The lede as segments; `typeOf` names an event by offset (its card type). */
export function economicsLede(econ: ScenarioEconomics, typeOf: (offset: number) => string): Segment[] {
  const t = econ.totals;
  const a = t.exact ? '' : '≈';
  const usd = (x: number): string => `${a}${formatUsd(x)}`;
  const one = econ.requests.length === 1;
  const these = one ? 'This request' : `These ${plural(econ.requests.length, 'request')}`;
  // Requests that never ask for caching: said first, with what one breakpoint would save (economics/unasked.ts).
  const out: Segment[] = econ.unasked ? withInlineCode(`${econ.unasked.sentence} `) : [];
  const profile = econ.profiles.length === 1 ? ` under ${econ.profiles[0]!.title}` : '';
  if (t.costUsd !== null && t.noCacheCostUsd !== null) {
    const d = t.costUsd - t.noCacheCostUsd;
    const vs = d > 0 ? `${usd(d)} more than with no caching at all` : d < 0 ? `${usd(-d)} less than with no caching` : 'the same as with no caching';
    out.push({ text: `${these} ${one ? 'costs' : 'cost'} ${usd(t.costUsd)}${profile} with caching — ${vs} (${usd(t.noCacheCostUsd)})` });
  } else out.push({ text: `${these}${profile} ${one ? 'has' : 'have'} ${NO_PRICE}: ${formatTokens(t.inputTokens, t.exact)} input tokens` });
  out.push({
    text:
      t.cachedTokens === 0 ? `, and ${one ? 'reads' : 'read'} nothing from the cache` : `; ${formatShare(t.cachedShare)} of ${one ? 'its' : 'their'} input is read from the cache`,
  });
  const w = worst(econ.requests);
  if (!w || !t.tokensLost) {
    out.push({ text: '.' });
    return out;
  }
  const lost = t.lostCostUsd ? ` (${usd(t.lostCostUsd)})` : '';
  out.push({ text: `. ${formatTokens(t.tokensLost, t.exact)} cached tokens were lost${lost}` });
  const b = w.cacheBreak!;
  const share = b.tokensLost === t.tokensLost ? 'all' : `the most (${formatTokens(b.tokensLost, t.exact)})`;
  const events = breakEvents(w, typeOf);
  if (b.cause === 'expired') out.push({ text: `, ${share} at ` }, { text: `@${w.offset}`, href: `#@${w.offset}` }, { text: ', where the entry had expired' });
  else if (events.length) {
    out.push({ text: `, ${share} to ` });
    for (const [i, e] of events.entries()) out.push(...(i ? [{ text: ' and ' }] : []), { text: e.label, href: `#@${e.offset}` });
  } else out.push({ text: `, ${share} at ` }, { text: `@${w.offset}`, href: `#@${w.offset}` }, { text: ` (${causeName(b.cause, w)})` });
  out.push({ text: '.' });
  return out;
}

export const ledeText = (segments: readonly Segment[]): string => segments.map((s) => s.text).join('');
