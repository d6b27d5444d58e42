/**
 * `prompt-fold-explainer/assert` — cache promises in a team's own JavaScript/TypeScript tests:
 * `assertCache` / `checkCache` (framework-neutral) and `cacheMatchers` for vitest and jest
 * (`expect.extend(cacheMatchers)`; `await expect(requests).toKeepCache({ busts: [] })`). The same
 * engine and the same located explanations as `npx prompt-fold assert` (src/assert/api.ts).
 */
export {
  assertCache,
  CacheAssertionError,
  CacheInputError,
  cacheMatchers,
  checkCache,
  type CacheCheck,
  type CacheExpectations,
  type CacheMatchers,
  type ConversationSummary,
  type Failure,
  type FoldRun,
  type KeepCacheOptions,
  type MatcherResult,
  type RecordedRequest,
  type Rule,
} from '../assert/api.ts';
