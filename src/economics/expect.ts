/**
 * The `expect:` block of a scenario (docs/cache-economics.md, "Expectations a scenario states"), checked like anchors: `busts` lists
 * exactly the own requests whose ✂ line sits above the end of the previous request — decided by
 * the printed bytes, whatever the provider — and `maxInputTokens` caps every own request's input
 * tokens. Each violation is an input error at the `expect` entry with what happened (which request
 * busted, caused by which event) and how to fix it; the check, the fixture test and the build all
 * fail on it.
 */
import type { RenderedRequest, RenderedScenario } from '../prompt/render.ts';
import type { InputError } from '../scenarios/errors.ts';
import type { ScenarioEconomics } from './compute.ts';
import { checkCachedClaims } from './expect-cached.ts';
import { formatTokens } from './format.ts';
import { expiryText } from './view.ts';

export interface Bust {
  offset: number;
  previous: number;
  /** Plain line index of the ✂ line in this request. */
  cut: number;
  /** Lines of the previous request. */
  previousLines: number;
}

/** Own requests whose ✂ line sits above the end of the previous request of the chain. */
export function bustsOf(r: RenderedScenario): Bust[] {
  const chain = new Map<number, RenderedRequest>(r.chain.map((q) => [q.offset, q]));
  const out: Bust[] = [];
  for (const q of r.requests) {
    const prev = q.previous === null ? undefined : chain.get(q.previous);
    if (!prev || q.cut === null || q.cut >= prev.lines.length) continue;
    out.push({ offset: q.offset, previous: prev.offset, cut: q.cut, previousLines: prev.lines.length });
  }
  return out;
}

/**
 * A request the provider's API would reject under its own profile (Anthropic: more than 4 cache
 * breakpoints, or a mid-conversation system message on a model without it) is an input error at the request event: the scenario shows a request that could
 * never have been sent. (Under the other profiles of the side-by-side table it is only flagged.)
 */
export function checkApiErrors(r: RenderedScenario, econ: ScenarioEconomics, errors: InputError[]): void {
  const pos = new Map(r.scenario.chain.map((e) => [e.offset, e.pos]));
  for (const e of econ.requests) {
    if (!e.apiError) continue;
    errors.push({
      pos: pos.get(e.offset) ?? r.scenario.pos,
      message: `request @${e.offset} (${e.model}, profile ${e.profile}) carries ${e.apiError}${e.apiRule ? ` (the provider's rule: ${e.apiRule.source}, read ${e.apiRule.read})` : ''}`,
      fix: e.apiFix ?? 'mark at most that many cache breakpoints on the request (in the fold’s snapshot or the trace’s cache_control markers)',
    });
  }
}

export function checkExpectations(r: RenderedScenario, econ: ScenarioEconomics, errors: InputError[]): void {
  const exp = r.scenario.expect;
  if (!exp) {
    checkApiErrors(r, econ, errors);
    return;
  }
  const typeOf = new Map(r.scenario.chain.map((e) => [e.offset, e.type]));
  const byOffset = new Map(econ.chain.map((e) => [e.offset, e]));
  const busts = bustsOf(r);
  const busted = new Set(busts.map((b) => b.offset));
  const expected = new Set(exp.busts);
  for (const b of busts) {
    if (expected.has(b.offset)) continue;
    const e = byOffset.get(b.offset);
    const events = e?.cacheBreak?.events ?? [];
    const cause = events.length
      ? `caused by ${events.map((o) => `@${o} ${typeOf.get(o) ?? ''}`.trim()).join(', ')}`
      : 'no event since the previous request produced the differing line';
    const lost = e?.cacheBreak?.tokensLost ? `; ${formatTokens(e.cacheBreak.tokensLost, e.exact)} cached tokens lost` : '; nothing cached was lost';
    const expiry = e?.expired ? `; the cache entry also ${expiryText(e)}` : '';
    errors.push({
      pos: exp.bustsPos,
      message: `request @${b.offset} busts the cache but \`expect.busts\` does not list it: its ✂ line sits at line ${b.cut + 1}, above the end of request @${b.previous} (${b.previousLines} lines) — ${e?.cacheBreak?.cause ?? 'prefix changed'}, ${cause}${lost}${expiry}`,
      fix: `if this scenario means to bust the cache at @${b.offset}, add "@${b.offset}" to expect.busts; otherwise change the fold or the events so that @${b.offset} only appends to @${b.previous}`,
    });
  }
  exp.busts.forEach((off, i) => {
    if (busted.has(off)) return;
    const q = r.requests.find((x) => x.offset === off);
    const why = !q
      ? `@${off} is not an accepted request of this scenario`
      : q.previous === null
        ? `request @${off} is the first request of its chain, so there is no previous request to bust`
        : `request @${off} keeps the whole of request @${q.previous} as its byte-stable prefix (its ✂ line sits at the end of @${q.previous})`;
    errors.push({
      pos: exp.bustPos[i] ?? exp.bustsPos,
      message: `\`expect.busts\` lists "@${off}", but ${why}`,
      fix: `remove "@${off}" from expect.busts, or change the events so that @${off} rewrites part of the previous request`,
    });
  });
  checkApiErrors(r, econ, errors);
  checkCachedClaims(r, econ, errors);
  if (exp.maxInputTokens !== undefined) {
    for (const e of econ.requests) {
      if (e.inputTokens <= exp.maxInputTokens) continue;
      errors.push({
        pos: exp.maxInputTokensPos ?? exp.pos,
        message: `request @${e.offset} has ${formatTokens(e.inputTokens, e.exact)} input tokens (profile ${e.profile}), more than expect.maxInputTokens ${exp.maxInputTokens}`,
        fix: `raise maxInputTokens to at least ${e.inputTokens}, or shorten the request`,
      });
    }
  }
}
