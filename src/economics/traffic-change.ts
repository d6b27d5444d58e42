/**
 * A short, log-wide label for the change that broke a conversation's cache, so that a traffic
 * summary can add up the misses of many conversations by what caused them: the parts of the
 * request body that differ from the conversation's previous request, in prompt order (model,
 * tools, system, messages), e.g. "tools re-ordered", "system prompt changed", "an earlier user
 * message rewritten". When nothing in the body changed (an entry expired, a prefix too short) the
 * cause itself is the label. Works on the three body formats the `requests` fold reads (Chat
 * Completions, Responses, Anthropic Messages) and OTel GenAI spans by their field names.
 */
import type { Cause } from './compute.ts';

type Obj = Record<string, unknown>;

const CAUSE_LABEL: Record<Cause, string> = {
  'first-request': 'first request',
  'below-minimum': 'prefix below the minimum',
  'not-asked': 'the request asks for no caching',
  'previous-not-asked': 'the request before asked for no caching',
  'markers-unrecorded': 'cache markers not in the capture',
  expired: 'idle past the cache retention',
  'out-of-reach': 'entry out of the lookback reach',
  'model-changed': 'model changed',
  'system-changed': 'system prompt changed',
  'earlier-message-changed': 'an earlier message changed',
  'fold-changed': 'fold changed',
  'parameter-changed': 'a request parameter changed (tool_choice, images or thinking)',
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function toolsChange(a: unknown, b: unknown): string | undefined {
  if (same(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    const key = (x: unknown) => JSON.stringify(x);
    const sa = a.map(key).sort();
    const sb = b.map(key).sort();
    if (same(sa, sb)) return 'tools re-ordered';
  }
  return 'tools changed';
}

const SYSTEM_ROLES = new Set(['system', 'developer']);

/** Causes that are not a change in the request body: their own label. */
const NOT_BODY = new Set<Cause>(['expired', 'below-minimum', 'not-asked', 'previous-not-asked', 'markers-unrecorded', 'first-request', 'out-of-reach']);

/** The label for a miss of `cause`, from the request before the responsible change and the one that made it. */
export function changeOf(cause: Cause, before: Obj | undefined, after: Obj | undefined): string {
  if (!before || !after || NOT_BODY.has(cause)) return CAUSE_LABEL[cause];
  if (!same(before.model, after.model)) return 'model changed';
  const tools = toolsChange(before.tools ?? before.tool_definitions, after.tools ?? after.tool_definitions);
  if (tools) return tools;
  for (const k of ['system', 'instructions', 'system_instructions']) if (!same(before[k], after[k])) return 'system prompt changed';
  const list = (b: Obj): unknown[] => (Array.isArray(b.messages) ? b.messages : Array.isArray(b.input) ? b.input : Array.isArray(b.input_messages) ? b.input_messages : []);
  const ma = list(before);
  const mb = list(after);
  for (let i = 0; i < Math.min(ma.length, mb.length); i++) {
    if (same(ma[i], mb[i])) continue;
    const role = isObj(mb[i]) && typeof (mb[i] as Obj).role === 'string' ? String((mb[i] as Obj).role) : 'item';
    if (SYSTEM_ROLES.has(role)) return 'system prompt changed';
    return `an earlier ${role} message rewritten`;
  }
  if (mb.length < ma.length) return 'messages removed (compaction)';
  return CAUSE_LABEL[cause];
}
