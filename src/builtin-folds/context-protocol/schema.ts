/**
 * Payload schemas of the event types the context-protocol fold consumes (src/pages/reference/context-protocol.mdx), plus the
 * cross-field rules a schema cannot say (compaction only on unkeyed developer items, …).
 * Strict: an unknown field, a wrong type or a missing required field is an input error.
 */
import * as z from 'zod';
import type { Issue } from '../../folds/types.ts';

const str = z.string();
const offset = z.int().nonnegative();

const actor = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('user'), origin: z.enum(['web', 'mcp']), userId: str.optional() }),
  z.strictObject({ type: z.literal('agent'), path: str }),
  z.strictObject({ type: z.literal('script'), executionId: str }),
  z.strictObject({ type: z.literal('integration'), name: str }),
  z.strictObject({ type: z.literal('slack'), userId: str.optional(), botName: str.optional() }),
  z.strictObject({ type: z.literal('telegram'), userId: str.optional(), username: str.optional() }),
  z.strictObject({ type: z.literal('email'), address: str.optional(), name: str.optional() }),
  z.strictObject({ type: z.literal('github'), login: str.optional(), senderType: str.optional() }),
]);
export type Actor = z.infer<typeof actor>;

const ref = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('event'), streamPath: str, offset, eventType: str.optional() }),
  z.strictObject({ type: z.literal('user'), userId: str }),
  z.strictObject({ type: z.literal('file'), path: str }),
  z.strictObject({ type: z.literal('git-commit'), repoPath: str, commitOid: str }),
  z.strictObject({ type: z.literal('repo-file'), repoPath: str, path: str }),
]);
export type Ref = z.infer<typeof ref>;

const file = z.strictObject({ contentType: str, filename: str, path: str, size: z.int().nonnegative(), url: str });

export const ROLES = ['system', 'developer', 'user', 'assistant'] as const;

const contextAdded = z.strictObject({
  role: z.enum(ROLES),
  content: str,
  key: str.min(1).optional(),
  actor: actor.optional(),
  refs: z.array(ref).optional(),
  files: z.array(file).optional(),
  llmRequestPolicy: z.enum(['after-current-request', 'interrupt-current-request', 'dont-trigger-request']).optional(),
  llmRequestOffset: offset.optional(),
  compaction: z.strictObject({ replacesHistoryThrough: offset, usage: z.unknown().optional() }).optional(),
});
export type ContextPayload = z.infer<typeof contextAdded>;

const contextRewritten = z.strictObject({ op: z.enum(['replace', 'delete']), key: str.min(1), content: str.optional() });
export type RewritePayload = z.infer<typeof contextRewritten>;

const freeForm = z.record(z.string(), z.unknown());

export const SCHEMAS: Record<string, z.ZodType> = {
  'agent/created': freeForm,
  'agent/configured': z.strictObject({ config: freeForm }),
  'agents/context-added': contextAdded,
  'agents/context-rewritten': contextRewritten,
  'agent/llm-request-requested': z.strictObject({ model: str.min(1), contractVersion: str.optional(), expiresAt: z.iso.datetime().optional() }),
  'agent/llm-request-settled': z.strictObject({
    requestOffset: offset,
    result: z.strictObject({ status: z.enum(['succeeded', 'failed', 'cancelled']), text: str.optional() }),
  }),
  'capability-host/script-run-requested': z.strictObject({ executionId: str, code: str, expiresAt: z.iso.datetime().optional() }),
  'capability-host/script-run-settled': z.strictObject({
    executionId: str,
    settlement: z.strictObject({ status: str, result: z.unknown().optional(), error: z.unknown().optional() }),
  }),
  'agent/paused': freeForm,
  'agent/resumed': freeForm,
  'agent/token-usage-reported': freeForm,
  'agent/summary-updated': freeForm,
};

/** Rules across fields of a context-added payload that already matches its schema. */
function contextAddedRules(p: ContextPayload): Issue[] {
  const out: Issue[] = [];
  if (p.compaction) {
    if (p.key !== undefined) out.push({ path: ['key'], message: 'a compaction summary cannot be keyed', fix: 'remove `key:` — compaction summaries are unkeyed developer items' });
    if (p.role !== 'developer') out.push({ path: ['role'], message: `a compaction summary must be stored as developer, not ${p.role}`, fix: 'set `role: developer`' });
    if (p.llmRequestPolicy !== 'dont-trigger-request')
      out.push({ path: ['compaction'], message: 'a compaction summary must not trigger a request', fix: 'add `llmRequestPolicy: dont-trigger-request`' });
  }
  if (p.llmRequestOffset !== undefined && p.role !== 'assistant') {
    out.push({
      path: ['llmRequestOffset'],
      message: `\`llmRequestOffset\` belongs on assistant items, this one is ${p.role}`,
      fix: 'remove `llmRequestOffset:` or set `role: assistant`',
    });
  }
  return out;
}

function rewriteRules(p: RewritePayload): Issue[] {
  if (p.op === 'replace' && p.key === '*') return [{ path: ['key'], message: '`replace` cannot target every key (`*`)', fix: 'name one key, or use `op: delete` with `key: "*"`' }];
  if (p.op === 'replace' && p.content === undefined)
    return [{ path: ['content'], message: 'missing required field `content` for `op: replace`', fix: 'add `content:` with the replacement text' }];
  if (p.op === 'delete' && p.content !== undefined) return [{ path: ['content'], message: '`op: delete` takes no `content`', fix: 'remove `content:`, or use `op: replace`' }];
  return [];
}

/** The rules a payload's schema cannot say (run once the schema passes: defineFold's `checkEvent`). */
export function payloadRules(type: string, payload: unknown): Issue[] {
  if (type === 'agents/context-added') return contextAddedRules(payload as ContextPayload);
  if (type === 'agents/context-rewritten') return rewriteRules(payload as RewritePayload);
  return [];
}
