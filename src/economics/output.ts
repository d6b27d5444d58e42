/**
 * Each request's output tokens (docs/cache-economics.md, "What the provider would cache" and "Cost"), from the best source a scenario has:
 *
 * - `billed`: the output count the provider billed (`measured.outputTokens`, an imported response's
 *   usage) — the truth, reasoning tokens included;
 * - `result`: the text of a settled result a fold's scenario gives for the request (counted);
 * - `next-request`: for a request as sent whose capture carries the bill (`measured`) but no output
 *   count (an older log's usage), the assistant turn the next request of the conversation carries
 *   right after this request's messages (counted, and approximate: the reply as the next request
 *   re-sends it, which leaves out reasoning and may be trimmed). A request with no bill at all (a
 *   hand-written body, a fold's own request) is not given one: its cost stays what it was, input
 *   plus any settled result, and its output is "—".
 *
 * None of them: unknown (null), shown as "—" and left out of the cost — never priced as 0.
 * Pure; reads any request payload's `measured.outputTokens` and `requestOffset` + `result.text`.
 */
import type { RenderedMessage } from '../folds/types.ts';
import type { RenderedScenario } from '../prompt/render.ts';

export type OutputSource = 'billed' | 'result' | 'next-request';

/** A request's output: the billed count, or the text to count. */
export type Output = { source: 'billed'; tokens: number } | { source: 'result' | 'next-request'; text: string };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const same = (a: RenderedMessage, b: RenderedMessage | undefined): boolean => a === b || (!!b && a.role === b.role && a.content === b.content);

/** The output of every request of the chain that has one, by offset. */
export function outputsOf(r: RenderedScenario): Map<number, Output> {
  const out = new Map<number, Output>();
  const chain = r.chain;
  const billed = new Set(r.scenario.chain.filter((e) => (e.payload as { measured?: unknown } | null)?.measured).map((e) => e.offset));
  for (const [i, q] of chain.entries()) {
    const next = chain[i + 1];
    // Only a billed request as sent (imported): a fold's next request renders the fold's own view of the reply.
    if (!q.asSent || !billed.has(q.offset) || !next?.asSent || next.messages.length <= q.messages.length) continue;
    if (!q.messages.every((m, j) => same(m, next.messages[j]))) continue;
    const reply: string[] = [];
    for (const m of next.messages.slice(q.messages.length)) {
      if (m.role !== 'assistant') break;
      reply.push(m.content);
    }
    if (reply.length) out.set(q.offset, { source: 'next-request', text: reply.join('\n') });
  }
  for (const e of r.scenario.chain) {
    const p = e.payload as { requestOffset?: unknown; result?: { text?: unknown }; measured?: { outputTokens?: unknown } } | null;
    if (p && typeof p.requestOffset === 'number' && typeof p.result?.text === 'string') out.set(p.requestOffset, { source: 'result', text: p.result.text });
  }
  for (const e of r.scenario.chain) {
    const m = (e.payload as { measured?: { outputTokens?: unknown } } | null)?.measured;
    if (m && isCount(m.outputTokens)) out.set(e.offset, { source: 'billed', tokens: m.outputTokens });
  }
  return out;
}
