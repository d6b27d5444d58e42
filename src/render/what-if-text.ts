/**
 * The what-if of a scenario (economics/what-if.ts) in the page's words: one row per retention
 * choice (cost, the difference from as-is, 1,000 conversations like this one) and the sentence on
 * the idle gap from which the longer retention pays.
 */
import { formatDuration, formatMinutes, formatUsd, formatUsdDelta, NO_PRICE } from '../economics/format.ts';
import type { WhatIf } from '../economics/what-if.ts';

export interface WhatIfRow {
  id: string;
  /** Markdown-free label; code spans are written as backticks and rendered by the component. */
  label: string;
  cost: string;
  delta: string;
  per1000: string;
  cached: string;
  asIs: boolean;
}

export function whatIfRows(w: WhatIf): WhatIfRow[] {
  return w.options.map((o) => {
    const a = o.totals.exact ? '' : '≈';
    const extra = o.keepAlive ? ` (${o.keepAlive} added)` : '';
    return {
      id: o.id,
      label: `${o.label}${extra}${o.same.length ? ` (= ${o.same.join(', ')})` : ''}`,
      cost: o.totals.costUsd === null ? NO_PRICE : `${a}${formatUsd(o.totals.costUsd)}`,
      delta: o.id === 'as-is' || o.deltaUsd === null ? '' : `${a}${formatUsdDelta(o.deltaUsd)}`,
      per1000: o.per1000Usd === null ? NO_PRICE : `${a}${formatUsd(o.per1000Usd)}`,
      cached: `${Math.round((o.totals.cachedShare ?? 0) * 100)} %`,
      asIs: o.id === 'as-is',
    };
  });
}

/** `Every idle gap the same length: the 1-hour TTL costs less from gaps over 5 min up to 60 min. This stream's longest gap: 2 min 29 s.` */
export function paysFromText(w: WhatIf): string {
  const longest = w.idleGapsMs.length ? ` This stream’s longest idle gap: ${formatDuration(Math.max(...w.idleGapsMs))}.` : '';
  const p = w.paysFrom;
  if (!p) return longest.trim();
  const name = p.longer === 'ttl-1h' ? `the ${formatMinutes(p.longMinutes)} TTL` : `${formatMinutes(p.longMinutes)} retention`;
  const vs = `${formatMinutes(p.shortMinutes)}`;
  const coarse = p.coarseK ? ` (Gaps were tried down to 1/${p.coarseK} of each retention: a conversation this long is not re-priced at every shorter one.)` : '';
  if (p.fromMinutes === null) return `With every idle gap the same length, ${name} never costs less than ${vs} here.${coarse}${longest}`;
  const from = p.fromMinutes === 0 ? 'at any idle gap' : `once idle gaps exceed ${formatMinutes(p.fromMinutes)}`;
  const until = p.untilMinutes === null ? '' : `, up to ${formatMinutes(p.untilMinutes)}`;
  return `With every idle gap the same length, ${name} costs less than ${vs} ${from}${until}.${coarse}${longest}`;
}
