/**
 * Where Anthropic `cache_control` breakpoints go — the common agent strategy (spec
 * docs/cache-economics.md, "What the provider would cache"): one breakpoint after the system prompt (the last message of the leading
 * run of system messages) and one on the last message of the request, for a fold's own request
 * that marks none. One small function so the cache-economics module can share it: both must agree
 * on which prefixes a provider would cache. `afterSystem` and `lastBlock` are also the two ways an
 * imported request that asks for no caching could ask (the adapter's `askCaching`).
 */
import { TOOLS_ROLE } from '../../folds/tools.ts';

/** The last message of the leading run of tools and system messages (the system prompt's end), or undefined without a system prompt. */
export function afterSystem(messages: readonly { role: string }[]): number | undefined {
  let lastSystem: number | undefined;
  for (let i = 0; i < messages.length; i++) {
    const role = messages[i]!.role;
    if (role === 'system') lastSystem = i;
    else if (role !== TOOLS_ROLE) break;
  }
  return lastSystem;
}

/** The last message that is not the tool list (where automatic caching's one breakpoint goes), or undefined. */
export function lastBlock(messages: readonly { role: string }[]): number | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role !== TOOLS_ROLE) return i;
  return undefined;
}

/**
 * Indices of the messages a breakpoint sits on (ascending, no duplicates): the last `system`
 * message of the leading run of system messages (a leading tool list counts as part of that run),
 * and the last message that is not the tool list. [] for a request without messages.
 */
export function cacheBreakpoints(messages: readonly { role: string }[]): number[] {
  const out: number[] = [];
  const system = afterSystem(messages);
  const last = lastBlock(messages);
  if (system !== undefined) out.push(system);
  if (last !== undefined && last !== system) out.push(last);
  return out;
}
