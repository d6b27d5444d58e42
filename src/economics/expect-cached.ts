/**
 * `expect.cached` (docs/cache-economics.md, "Expectations a scenario states"): a scenario names exactly the own requests
 * that read tokens from the provider cache under its model's profile. Prose that says "cached"
 * is a claim about the numbers beside it; stating it here makes the check, the fixture test and
 * the build fail when the two drift apart — a prompt that shrinks below the provider's minimum,
 * a pause longer than the retention, a fold change that moves a breakpoint. Each violation is an
 * input error at the `cached` entry (or list) with the figures and the reason, and the fix.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import type { InputError } from '../scenarios/errors.ts';
import type { RequestEconomics, ScenarioEconomics } from './compute.ts';
import { formatTokens } from './format.ts';

/** Why a request reads nothing from the cache, in a reader's words (from its cache break, if any). */
function whyUncached(e: RequestEconomics): string {
  const cause = e.cacheBreak?.cause;
  if (cause === 'first-request') return 'it is the first request of its chain';
  if (cause === 'below-minimum') return `its cacheable prefix is below the ${formatTokens(e.minPrefixTokens, true)}-token minimum of profile ${e.profile}`;
  if (cause === 'expired') return 'the entry it would read may have been evicted (idle longer than the documented retention)';
  if (cause) return `the cache broke (${cause})`;
  return `no alive cache entry is a prefix of it under profile ${e.profile}`;
}

export function checkCachedClaims(r: RenderedScenario, econ: ScenarioEconomics, errors: InputError[]): void {
  const exp = r.scenario.expect;
  if (!exp?.cached) return;
  const listPos = exp.cachedListPos ?? exp.pos;
  const claimed = new Set(exp.cached);
  const own = new Map(econ.requests.map((e) => [e.offset, e]));
  exp.cached.forEach((off, i) => {
    const e = own.get(off);
    const pos = exp.cachedPos?.[i] ?? listPos;
    if (!e) {
      errors.push({
        pos,
        message: `\`expect.cached\` lists "@${off}", which is not an accepted request of this scenario`,
        fix: `remove "@${off}", or name one of: ${econ.requests.map((q) => `"@${q.offset}"`).join(', ') || '(none)'}`,
      });
    } else if (e.cachedTokens === 0) {
      errors.push({
        pos,
        message: `\`expect.cached\` lists "@${off}", but request @${off} reads 0 of its ${formatTokens(e.inputTokens, e.exact)} input tokens from the cache: ${whyUncached(e)}`,
        fix: `remove "@${off}" from expect.cached (and any prose that calls it cached), or change the scenario so that @${off} reads a cache entry`,
      });
    }
  });
  for (const e of econ.requests) {
    if (claimed.has(e.offset) || e.cachedTokens === 0) continue;
    errors.push({
      pos: listPos,
      message: `request @${e.offset} reads ${formatTokens(e.cachedTokens, e.exact)} of its ${formatTokens(e.inputTokens, e.exact)} input tokens from the cache, but \`expect.cached\` does not list it`,
      fix: `add "@${e.offset}" to expect.cached, or remove \`cached:\` if the scenario makes no claim about which requests are cached`,
    });
  }
}
