/**
 * Payload validation of the context-protocol fold (src/pages/reference/context-protocol.mdx): strict schemas, and the rules
 * across fields. Every issue must say where (path), what is wrong (message) and how to fix it (fix)
 * — the loader turns these into file:line:column errors, so the exact text matters.
 */
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../folds/types.ts';
import { contextProtocol } from './index.ts';

const added = (payload: unknown): Issue[] => contextProtocol.validateEvent('agents/context-added', payload);
const rewritten = (payload: unknown): Issue[] => contextProtocol.validateEvent('agents/context-rewritten', payload);
const ROLES = '"system", "developer", "user", "assistant"';
const ACTOR_KINDS = '"user", "agent", "script", "integration", "slack", "telegram", "email", "github"';
const REF_KINDS = '"event", "user", "file", "git-commit", "repo-file"';

describe('valid payloads pass', () => {
  it('accepts every field of a context-added payload', () => {
    expect(
      added({
        role: 'developer',
        content: 'x',
        key: 'k',
        actor: { type: 'github', login: 'octo', senderType: 'User' },
        refs: [
          { type: 'event', streamPath: '/s', offset: 3, eventType: 't' },
          { type: 'user', userId: 'u' },
          { type: 'file', path: 'p' },
          { type: 'git-commit', repoPath: '/r', commitOid: 'c' },
          { type: 'repo-file', repoPath: '/r', path: 'p' },
        ],
        files: [{ contentType: 'text/plain', filename: 'a', path: '/a', size: 0, url: 'u' }],
        llmRequestPolicy: 'interrupt-current-request',
      }),
    ).toEqual([]);
    expect(added({ role: 'assistant', content: '', llmRequestOffset: 4 })).toEqual([]);
    expect(added({ role: 'developer', content: 's', llmRequestPolicy: 'dont-trigger-request', compaction: { replacesHistoryThrough: 9, usage: { tokens: 1 } } })).toEqual([]);
  });

  it('accepts the other event types', () => {
    const ok: [string, unknown][] = [
      ['agent/created', { anything: { goes: true } }],
      ['agent/configured', { config: { a: 1 } }],
      ['agents/context-rewritten', { op: 'replace', key: 'k', content: '' }],
      ['agents/context-rewritten', { op: 'delete', key: '*' }],
      ['agent/llm-request-requested', { model: 'm', contractVersion: '7.0.0', expiresAt: '2026-08-24T16:41:30.000Z' }],
      ['agent/llm-request-settled', { requestOffset: 3, result: { status: 'failed' } }],
      ['capability-host/script-run-requested', { executionId: 'e', code: 'c' }],
      ['capability-host/script-run-settled', { executionId: 'e', settlement: { status: 'ok', error: 'boom' } }],
      ['agent/paused', {}],
      ['agent/resumed', {}],
      ['agent/token-usage-reported', { n: 1 }],
      ['agent/summary-updated', { title: 't' }],
    ];
    for (const [type, payload] of ok) expect(contextProtocol.validateEvent(type, payload), type).toEqual([]);
  });
});

describe('schema errors name the path, what is wrong, and the fix', () => {
  it('unknown field', () => {
    expect(added({ role: 'user', content: 'x', colour: 'red' })).toEqual([
      {
        path: ['colour'],
        message: 'unknown field `colour`',
        fix: 'remove it or fix its spelling; allowed here: role, content, key, actor, refs, files, llmRequestPolicy, llmRequestOffset, compaction',
      },
    ]);
  });

  it('unknown field inside a tagged actor lists that kind’s fields', () => {
    expect(added({ role: 'user', content: 'x', actor: { type: 'slack', team: 'T1' } })).toEqual([
      { path: ['actor', 'team'], message: 'unknown field `actor.team`', fix: 'remove it or fix its spelling; allowed here: type, userId, botName' },
    ]);
  });

  it('wrong type', () => {
    expect(added({ role: 'user', content: 42 })).toEqual([{ path: ['content'], message: '`content` must be a string, got number 42', fix: 'make `content` a string' }]);
    expect(added({ role: 'user', content: 'x', files: { path: 'a' } })).toEqual([
      { path: ['files'], message: '`files` must be a list, got a mapping', fix: 'make `files` a list' },
    ]);
  });

  it('missing role', () => {
    expect(added({ content: 'x' })).toEqual([{ path: ['role'], message: 'missing required field `role`', fix: `add \`role:\` with one of ${ROLES}` }]);
  });

  it('a role that is not one of the four', () => {
    expect(added({ role: 'tool', content: 'x' })).toEqual([{ path: ['role'], message: '`role` is the string "tool", which is not allowed', fix: `use one of: ${ROLES}` }]);
  });

  it('bad actor type', () => {
    expect(added({ role: 'developer', content: 'x', actor: { type: 'discord', userId: '1' } })).toEqual([
      { path: ['actor', 'type'], message: '`actor.type` is the string "discord", which is not a known kind', fix: `use one of: ${ACTOR_KINDS}` },
    ]);
  });

  it('an actor missing its required field', () => {
    expect(added({ role: 'user', content: 'x', actor: { type: 'user' } })).toEqual([
      { path: ['actor', 'origin'], message: 'missing required field `actor.origin`', fix: 'add `origin:` with one of "web", "mcp"' },
    ]);
    expect(added({ role: 'developer', content: 'x', actor: { type: 'agent' } })).toEqual([
      { path: ['actor', 'path'], message: 'missing required field `actor.path`', fix: 'add `path:` with a string' },
    ]);
  });

  it('bad ref shape', () => {
    // not a list
    expect(added({ role: 'user', content: 'x', refs: { type: 'file', path: 'a' } })).toEqual([
      { path: ['refs'], message: '`refs` must be a list, got a mapping', fix: 'make `refs` a list' },
    ]);
    // unknown kind
    expect(added({ role: 'user', content: 'x', refs: [{ type: 'url', href: 'h' }] })).toEqual([
      { path: ['refs', 0, 'type'], message: '`refs.0.type` is the string "url", which is not a known kind', fix: `use one of: ${REF_KINDS}` },
    ]);
    // missing field of a known kind, at the second entry
    expect(
      added({
        role: 'user',
        content: 'x',
        refs: [
          { type: 'file', path: 'a' },
          { type: 'event', streamPath: '/s' },
        ],
      }),
    ).toEqual([{ path: ['refs', 1, 'offset'], message: 'missing required field `refs.1.offset`', fix: 'add `offset:` with a whole number' }]);
    // a field of another kind
    expect(added({ role: 'user', content: 'x', refs: [{ type: 'file', path: 'a', repoPath: '/r' }] })).toEqual([
      { path: ['refs', 0, 'repoPath'], message: 'unknown field `refs.0.repoPath`', fix: 'remove it or fix its spelling; allowed here: type, path' },
    ]);
    // wrong type inside
    expect(added({ role: 'user', content: 'x', refs: [{ type: 'event', streamPath: '/s', offset: '3' }] })).toEqual([
      { path: ['refs', 0, 'offset'], message: '`refs.0.offset` must be a whole number, got the string "3"', fix: 'make `refs.0.offset` a whole number' },
    ]);
  });

  it('a payload that is not a mapping', () => {
    const [issue, ...rest] = added('hello');
    expect(rest).toEqual([]);
    expect(issue!.path).toEqual([]);
    expect(issue!.message).toMatch(/payload.* must be a mapping, got the string "hello"$/);
    expect(issue!.fix).toMatch(/payload.* a mapping$/);
  });

  it('a settlement status that is not allowed', () => {
    expect(contextProtocol.validateEvent('agent/llm-request-settled', { requestOffset: 3, result: { status: 'ok' } })).toEqual([
      { path: ['result', 'status'], message: '`result.status` is the string "ok", which is not allowed', fix: 'use one of: "succeeded", "failed", "cancelled"' },
    ]);
  });

  it('a request without a model', () => {
    expect(contextProtocol.validateEvent('agent/llm-request-requested', {})).toEqual([
      { path: ['model'], message: 'missing required field `model`', fix: 'add `model:` with a string' },
    ]);
  });
});

describe('cross-field rules', () => {
  const summary = { role: 'developer', content: 'S', llmRequestPolicy: 'dont-trigger-request', compaction: { replacesHistoryThrough: 3 } };

  it('a compaction summary cannot be keyed', () => {
    expect(added({ ...summary, key: 'k' })).toEqual([
      { path: ['key'], message: 'a compaction summary cannot be keyed', fix: 'remove `key:` — compaction summaries are unkeyed developer items' },
    ]);
  });

  it('a compaction summary must be stored as developer', () => {
    expect(added({ ...summary, role: 'system' })).toEqual([
      { path: ['role'], message: 'a compaction summary must be stored as developer, not system', fix: 'set `role: developer`' },
    ]);
  });

  it('a compaction summary must not trigger', () => {
    for (const policy of [undefined, 'after-current-request', 'interrupt-current-request']) {
      expect(added({ ...summary, llmRequestPolicy: policy })).toEqual([
        { path: ['compaction'], message: 'a compaction summary must not trigger a request', fix: 'add `llmRequestPolicy: dont-trigger-request`' },
      ]);
    }
  });

  it('every compaction rule broken at once is reported', () => {
    expect(added({ role: 'user', content: 'S', key: 'k', compaction: { replacesHistoryThrough: 3 } }).map((i) => i.path)).toEqual([['key'], ['role'], ['compaction']]);
  });

  it('a compaction needs replacesHistoryThrough', () => {
    expect(added({ ...summary, compaction: {} })).toEqual([
      {
        path: ['compaction', 'replacesHistoryThrough'],
        message: 'missing required field `compaction.replacesHistoryThrough`',
        fix: 'add `replacesHistoryThrough:` with a whole number',
      },
    ]);
  });

  it('llmRequestOffset belongs on assistant items', () => {
    expect(added({ role: 'user', content: 'x', llmRequestOffset: 3 })).toEqual([
      { path: ['llmRequestOffset'], message: '`llmRequestOffset` belongs on assistant items, this one is user', fix: 'remove `llmRequestOffset:` or set `role: assistant`' },
    ]);
  });

  it('rewrites: replace needs content, cannot target `*`; delete takes no content', () => {
    expect(rewritten({ op: 'replace', key: 'k' })).toEqual([
      { path: ['content'], message: 'missing required field `content` for `op: replace`', fix: 'add `content:` with the replacement text' },
    ]);
    expect(rewritten({ op: 'replace', key: '*', content: 'x' })).toEqual([
      { path: ['key'], message: '`replace` cannot target every key (`*`)', fix: 'name one key, or use `op: delete` with `key: "*"`' },
    ]);
    expect(rewritten({ op: 'delete', key: 'k', content: 'x' })).toEqual([
      { path: ['content'], message: '`op: delete` takes no `content`', fix: 'remove `content:`, or use `op: replace`' },
    ]);
    expect(rewritten({ op: 'rename', key: 'k' })).toEqual([{ path: ['op'], message: '`op` is the string "rename", which is not allowed', fix: 'use one of: "replace", "delete"' }]);
  });
});
