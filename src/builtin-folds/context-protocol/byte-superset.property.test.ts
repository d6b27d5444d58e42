/**
 * Property test of the byte-superset invariant (src/pages/reference/context-protocol.mdx): on any event stream WITHOUT rewrites
 * or compaction, every accepted request starts with the previous accepted request byte for byte —
 * both as message arrays and as the printed request text. Streams are random mixes of keyed and
 * unkeyed adds of every role and actor, requests, settlements (all statuses, stale offsets), pauses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printRequest } from '../../prompt/print.ts';
import type { StreamEvent } from '../../folds/types.ts';
import { contextProtocol } from './index.ts';
import type { MetadataLines } from './protocol-prompt.ts';
import type { ContextPayload } from './schema.ts';
import { snapshots, timeAt } from '../../../tests/support/context-protocol.ts';

type Actor = NonNullable<ContextPayload['actor']>;
type Ref = NonNullable<ContextPayload['refs']>[number];

const text = fc.oneof(
  fc.constantFrom('', 'hi', 'two\nlines', 'trailing\n', '\n\nblank start', '<section key="x">\nfake\n</section>', '"quoted" \\ back'),
  fc.string({ maxLength: 12 }),
);
const actor: fc.Arbitrary<Actor | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom<Actor>(
    { type: 'user', origin: 'web' },
    { type: 'user', origin: 'mcp', userId: 'u' },
    { type: 'agent', path: '/agents/child' },
    { type: 'script', executionId: 'exec-1' },
    { type: 'integration', name: 'linear' },
    { type: 'slack', userId: 'U1' },
    { type: 'slack' },
    { type: 'telegram', username: 'tg' },
    { type: 'email', address: 'a@b.c' },
    { type: 'github', senderType: 'Bot' },
  ),
);
const ref = fc.constantFrom<Ref>(
  { type: 'event', streamPath: '/s', offset: 1 },
  { type: 'user', userId: 'u' },
  { type: 'file', path: '/f' },
  { type: 'git-commit', repoPath: '/r', commitOid: 'c0' },
  { type: 'repo-file', repoPath: '/r', path: 'p' },
);
const file = { contentType: 'text/plain', filename: 'a.txt', path: '/a.txt', size: 1, url: 'https://x/a.txt' };

interface Add {
  kind: 'add';
  role: ContextPayload['role'];
  key?: string;
  content: string;
  actor?: Actor;
  refs?: Ref[];
  files: boolean;
  policy?: ContextPayload['llmRequestPolicy'];
  /** For an assistant item: which request it says it answers. */
  answers: 'none' | 'open-request' | 'stale';
}
type Cmd =
  | Add
  | { kind: 'request' }
  /** A whole exchange: a triggering user/developer add, a request, the assistant's reply, a settlement. */
  | { kind: 'turn'; trigger: Add; reply: string; status: 'succeeded' | 'failed' }
  | { kind: 'settle'; status: 'succeeded' | 'failed' | 'cancelled'; stale: boolean }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'noise' };

const add: fc.Arbitrary<Add> = fc.record({
  kind: fc.constant('add' as const),
  role: fc.constantFrom('system', 'developer', 'user', 'assistant'),
  key: fc.option(fc.constantFrom('a', 'b', 'c', 'config/agents-md'), { nil: undefined }),
  content: text,
  actor,
  refs: fc.option(fc.array(ref, { maxLength: 2 }), { nil: undefined }),
  files: fc.boolean(),
  policy: fc.option(fc.constantFrom('after-current-request', 'interrupt-current-request', 'dont-trigger-request'), { nil: undefined }),
  answers: fc.constantFrom('none', 'open-request', 'open-request', 'stale'),
});

const turn: fc.Arbitrary<Cmd> = fc.record({
  kind: fc.constant('turn' as const),
  trigger: add.map((a): Add => ({ ...a, role: a.role === 'user' ? 'user' : 'developer', policy: 'after-current-request' })),
  reply: text,
  status: fc.constantFrom('succeeded', 'succeeded', 'failed'),
});

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 3, arbitrary: turn },
  { weight: 8, arbitrary: add },
  { weight: 2, arbitrary: fc.constant<Cmd>({ kind: 'request' }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      status: fc.constantFrom('succeeded', 'succeeded', 'failed', 'cancelled'),
      stale: fc.constantFrom(false, false, false, true),
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom<Cmd>({ kind: 'pause' }, { kind: 'resume' }, { kind: 'resume' }, { kind: 'noise' }) },
);

/**
 * Commands → events with increasing offsets (gaps included). Settlements and assistant replies
 * mostly name the request that is actually open — asked of the fold as the stream is built, so
 * that streams keep accepting requests — and sometimes a stale offset.
 */
function toEvents(cmds: readonly Cmd[], gaps: readonly number[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  let offset = 0;
  let lastRequest: number | undefined;
  let open: number | undefined;
  const flat = cmds.flatMap((c): Cmd[] =>
    c.kind === 'turn'
      ? [
          c.trigger,
          { kind: 'request' },
          { kind: 'add', role: 'assistant', content: c.reply, files: false, answers: 'open-request' },
          { kind: 'settle', status: c.status, stale: false },
        ]
      : [c],
  );
  for (const [i, c] of flat.entries()) {
    offset += 1 + (gaps[i % gaps.length] ?? 0);
    let type: string;
    let payload: unknown;
    switch (c.kind) {
      case 'add': {
        const p: ContextPayload = { role: c.role, content: c.content };
        if (c.key !== undefined) p.key = c.key;
        if (c.actor) p.actor = c.actor;
        if (c.refs) p.refs = c.refs;
        if (c.files) p.files = [file];
        if (c.policy) p.llmRequestPolicy = c.policy;
        if (c.role === 'assistant' && c.answers !== 'none') {
          p.llmRequestOffset = c.answers === 'stale' ? Math.max(0, offset - 1) : (open ?? lastRequest ?? 0);
        }
        type = 'agents/context-added';
        payload = p;
        break;
      }
      case 'request':
        type = 'agent/llm-request-requested';
        payload = { model: 'm' };
        lastRequest = offset;
        break;
      case 'settle':
        type = 'agent/llm-request-settled';
        payload = { requestOffset: c.stale || open === undefined ? offset - 1 : open, result: { status: c.status } };
        if (!c.stale) open = undefined;
        break;
      case 'pause':
        type = 'agent/paused';
        payload = {};
        break;
      case 'resume':
        type = 'agent/resumed';
        payload = {};
        break;
      case 'noise':
        type = 'agent/token-usage-reported';
        payload = { tokens: i };
        break;
      case 'turn':
        throw new Error('flattened above');
    }
    events.push({ offset, type, createdAt: timeAt(offset), payload });
    if (c.kind === 'request' && snapshots(events, [offset])[0]!.request) open = offset;
  }
  return events;
}

const printed = (msgs: Parameters<typeof printRequest>[1], mode: MetadataLines): string[] =>
  printRequest(null, msgs, contextProtocol.abridgements({ metadataLines: mode })).map((l) => l.text);

/** Pairs of consecutive accepted requests that break the byte-superset rule (empty = holds). */
function violations(events: readonly StreamEvent[], mode: MetadataLines): { pairs: number; broken: string[] } {
  const requests = events.filter((e) => e.type === 'agent/llm-request-requested').map((e) => e.offset);
  const accepted = snapshots(events, requests, mode).filter((s) => s.request);
  const broken: string[] = [];
  for (let k = 1; k < accepted.length; k++) {
    const [prev, next] = [accepted[k - 1]!, accepted[k]!];
    const [a, b] = [printed(prev.messages, mode), printed(next.messages, mode)];
    const sameMessages = JSON.stringify(next.messages.slice(0, prev.messages.length)) === JSON.stringify(prev.messages);
    const samePrint = b.length > a.length && a.every((line, i) => b[i] === line);
    if (!sameMessages || !samePrint) broken.push(`@${prev.offset} → @${next.offset}`);
  }
  return { pairs: Math.max(0, accepted.length - 1), broken };
}

describe('byte-superset property (no rewrites, no compaction)', () => {
  for (const mode of ['synthesized-only', 'every-item'] as const) {
    it(`holds for every pair of consecutive accepted requests (${mode})`, () => {
      let pairs = 0;
      fc.assert(
        fc.property(fc.array(cmd, { minLength: 1, maxLength: 60, size: 'max' }), fc.array(fc.nat(3), { minLength: 1, maxLength: 5 }), (cmds, gaps) => {
          const events = toEvents(cmds, gaps);
          for (const e of events) expect(contextProtocol.validateEvent(e.type, e.payload), `@${e.offset}`).toEqual([]);
          const v = violations(events, mode);
          pairs += v.pairs;
          expect(v.broken).toEqual([]);
        }),
        { numRuns: 200, seed: 20260824 },
      );
      // the property was exercised, not vacuously true (this seed yields ~760 pairs)
      expect(pairs).toBeGreaterThan(400);
    });
  }

  it('the checker detects a broken prefix (a rewrite between two requests)', () => {
    const events = toEvents(
      [
        { kind: 'add', role: 'system', key: 'a', content: 'A1', files: false, answers: 'none' },
        { kind: 'add', role: 'user', content: 'hi', files: false, answers: 'none' },
        { kind: 'request' },
        { kind: 'settle', status: 'succeeded', stale: false },
        { kind: 'add', role: 'user', content: 'again', files: false, answers: 'none' },
        { kind: 'request' },
      ],
      [0],
    );
    expect(violations(events, 'synthesized-only')).toEqual({ pairs: 1, broken: [] });
    const rewrite: StreamEvent = { offset: 4.5, type: 'agents/context-rewritten', createdAt: timeAt(4), payload: { op: 'replace', key: 'a', content: 'A2' } };
    const withRewrite = [...events.slice(0, 4), rewrite, ...events.slice(4)];
    expect(violations(withRewrite, 'synthesized-only')).toEqual({ pairs: 1, broken: ['@3 → @6'] });
  });
});
