/**
 * Where Anthropic `cache_control` breakpoints go — the common agent strategy (spec
 * cache-economics §2): one breakpoint after the system prompt (the last message of the leading
 * run of system messages) and one on the last message of the request. One small function so the
 * cache-economics module can share it: both must agree on which prefixes a provider would cache.
 */
import { TOOLS_ROLE } from '../../folds/tools.ts';

/**
 * Indices of the messages a breakpoint sits on (ascending, no duplicates): the last `system`
 * message of the leading run of system messages (a leading tool list counts as part of that run),
 * and the last message that is not the tool list. [] for a request without messages.
 */
export function cacheBreakpoints(messages: readonly { role: string }[]): number[] {
  const out: number[] = [];
  let lastSystem = -1;
  for (let i = 0; i < messages.length; i++) {
    const role = messages[i]!.role;
    if (role === 'system') lastSystem = i;
    else if (role !== TOOLS_ROLE) break;
  }
  if (lastSystem >= 0) out.push(lastSystem);
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === TOOLS_ROLE) continue;
    if (out.at(-1) !== i) out.push(i);
    break;
  }
  return out;
}
