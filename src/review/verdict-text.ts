/**
 * The verdict's sentences (verdict.ts) as text pieces, so the pull-request comment (Markdown,
 * summary.ts) and /changes/ (HTML) say exactly the same words: the headline, the totals across the
 * scenarios, and each root cause (root-cause.ts) named once. A piece is plain text or a name/value
 * to show as code; each renderer escapes both its own way (every value here can come from the pull
 * request: untrusted). Pure and browser-safe.
 */
import { formatDelta, formatShare, formatTokens, formatUsdDelta } from '../economics/format.ts';
import type { Part } from './cause.ts';
import type { RootCause, RootKind } from './root-cause.ts';
import { shareOf, type Sum, type Verdict } from './verdict.ts';

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** `+$0.0031 per conversation, +$3.10 per 1,000 conversations` (null: no price configured). */
export function perConversation(usd: number | null): string {
  if (usd === null) return 'cost not known (a scenario has no price configured)';
  return `${formatUsdDelta(usd)} per conversation, ${formatUsdDelta(Math.round(usd * 1000 * 1e9) / 1e9)} per 1,000 conversations`;
}

/** The first line: what the change does to the cache, and what it costs. */
export function headline(v: Verdict): string {
  const cost = v.totals ? ` — ${perConversation(v.totals.perConversationUsd)}` : '';
  switch (v.kind) {
    case 'regressed':
      return `The cache regressed: ${plural(v.regressed.requests, 'request')} in ${plural(v.regressed.scenarios, 'scenario')} read less of the prompt cache than at the base${cost}`;
    case 'improved':
      return `The cache improved: requests read more of the prompt cache than at the base${cost}`;
    case 'neutral':
      return v.totals
        ? `Prompts changed without a cache effect: no request reads less of the prompt cache than at the base${cost}`
        : `Prompts changed; their effect on the prompt cache is not known${v.unknown === undefined ? ' (no scenario has figures before and after)' : ' (the figures before the change are not known)'}`;
    case 'unchanged':
      return v.figuresOnly
        ? `No prompt changes, but the token or cost figures of ${plural(v.figuresOnly, 'scenario')} changed (abridged boilerplate, prices)${cost}`
        : 'No prompt changes: every request renders exactly as its committed fixture';
  }
}

const sumText = (s: Sum): string => formatTokens(s.inputTokens, s.exact);

/** The totals across the scenarios, or why they are not known. */
export function totalsText(v: Verdict): string | undefined {
  if (v.unknown !== undefined) return `Token and cost figures before the change are not known: ${v.unknown}.`;
  const t = v.totals;
  // Nothing printed or counted differently: totals would only repeat the base's figures.
  if (!t || (v.kind === 'unchanged' && !v.figuresOnly)) return undefined;
  const exact = t.before.exact && t.after.exact;
  const parts = [
    `cached share ${formatShare(shareOf(t.before))} → ${formatShare(shareOf(t.after))}`,
    `input tokens ${formatDelta(t.after.inputTokens - t.before.inputTokens, exact)} (${sumText(t.before)} → ${sumText(t.after)})`,
    perConversation(t.perConversationUsd),
  ];
  const extra = [v.added ? `${plural(v.added, 'scenario')} added` : '', v.removed ? `${plural(v.removed, 'scenario')} removed` : ''].filter(Boolean);
  return `Across ${plural(t.scenarios, 'scenario')} (each one conversation, weighted equally): ${parts.join('; ')}.${extra.length ? ` Not in these totals: ${extra.join(', ')}.` : ''}`;
}

const KIND: Record<RootKind, string> = {
  volatile: 'a value that changes on every request, inside the cached prefix',
  inserted: 'content inserted above the cache breakpoint',
  reordered: 'content reordered inside the cached prefix',
  rewritten: 'earlier content rewritten inside the cached prefix',
  model: 'a model or option change',
};

/** "a value that changes on every request …: `Current time: …` (the request before: `…`), message 1 (system); …". */
export function rootCauseParts(c: RootCause): Part[] {
  const requests = c.scenarios.reduce((n, s) => n + s.offsets.length, 0);
  const where = c.message ? `message ${c.message} (${c.role})` : 'the request header';
  const lost = c.tokensLost ? `, ${formatTokens(c.tokensLost)} cached tokens lost${c.lostCostUsd ? ` (${formatUsdDelta(c.lostCostUsd)})` : ''}` : '';
  return [
    `${KIND[c.kind]}: `,
    { code: c.text || '(empty line)' },
    ' where the request before had ',
    { code: c.previous || '(empty line)' },
    ` — ${where}, in ${plural(requests, 'request')} of ${plural(c.scenarios.length, 'scenario')}${lost}`,
  ];
}
