/** Each lint rule against the provider's documented rule it cites (each cache strategy's lint rules, src/providers/<provider>/catalog.ts: URL and date read). */
import { describe, expect, it } from 'vitest';
import { OPENAI_BREAKPOINT_RULES, OPENAI_RULES } from '../providers/openai/catalog.ts';
import { ANTHROPIC_RULES, MID_SYSTEM_RULE } from '../providers/anthropic/catalog.ts';
import { lintScenario } from './request-lint.ts';

const ANTHROPIC_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';

interface Req {
  offset: number;
  previous?: number;
  cut?: number;
  lines?: string[];
  ttls?: ('5m' | '1h' | undefined)[];
  writes?: number;
  readFrom?: number | null;
  apiError?: string;
  apiFix?: string;
  apiRule?: object;
  outOfReach?: boolean;
  cache?: string;
}

/** A scenario of these requests, each the previous one's successor, and its economics. */
function lint(reqs: Req[]) {
  const requests = reqs.map((q, i) => ({
    offset: q.offset,
    previous: q.previous ?? (i ? reqs[i - 1]!.offset : null),
    cut: q.cut ?? (i ? (q.lines?.length ?? 2) : null),
    lines: (q.lines ?? ['model: m', 'messages:']).map((text) => ({ text, from: [], message: -1 })),
    ...(q.ttls && { breakpoints: q.ttls.map((ttl, m) => ({ message: m, ...(ttl && { ttl }) })) }),
  }));
  const econ = reqs.map((q) => ({
    offset: q.offset,
    cache: q.cache ?? 'anthropic',
    cacheWriteTokens: q.writes ?? 0,
    readFrom: q.readFrom ?? null,
    ...(q.apiError && { apiError: q.apiError }),
    ...(q.apiFix && { apiFix: q.apiFix }),
    ...(q.apiRule && { apiRule: q.apiRule }),
    cacheBreak: q.outOfReach ? { cause: 'out-of-reach', events: [], tokensLost: 300, lostCostUsd: null } : null,
  }));
  return lintScenario({ requests, chain: requests } as never, { requests: econ, chain: econ } as never);
}

describe('the request linter', () => {
  it('api-rejects: more breakpoints than the provider allows is an error, citing the documented limit of 4', () => {
    const [f, ...rest] = lint([{ offset: 3, apiError: '5 cache breakpoints (the API allows 4)' }]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ offset: 3, rule: 'api-rejects', severity: 'error', source: { url: ANTHROPIC_CACHING, read: ANTHROPIC_RULES.maxBreakpoints.read } });
    expect(ANTHROPIC_RULES.maxBreakpoints.value).toBe(4);
    expect(f!.source.rule).toContain('up to 4 cache breakpoints');
  });

  it('feature-rejected: a feature the model rejects (the adapter’s flag) is an error citing the feature’s page, with the adapter’s fix', () => {
    const [f, ...rest] = lint([{ offset: 5, apiError: 'a mid-conversation system message', apiFix: 'send it to Claude Opus 4.8', apiRule: MID_SYSTEM_RULE }]);
    expect(rest).toEqual([]);
    expect(f).toEqual({
      offset: 5,
      rule: 'feature-rejected',
      severity: 'error',
      message: 'request @5 carries a mid-conversation system message',
      source: { url: 'https://platform.claude.com/docs/zh-CN/build-with-claude/mid-conversation-system-messages', read: '2026-12-03', rule: MID_SYSTEM_RULE.note },
      fix: 'send it to Claude Opus 4.8',
    });
    expect(f!.source.rule).toContain(
      'available on Claude Fable 5.1, Claude Mythos 5.1, Claude Fable 5, Claude Mythos 5, Claude Opus 5.5, Claude Opus 4.8, Claude Opus 5, Claude Sonnet 5.5, Claude Haiku 5.5',
    );
  });

  it('a request the API rejects gets that error only: its write, its break and its TTLs are not the cache’s (nothing is cached or read)', () => {
    const found = lint([{ offset: 3 }, { offset: 6, apiError: '5 cache breakpoints', writes: 500, outOfReach: true, ttls: ['5m', '1h'] }, { offset: 9 }]);
    expect(found.map((f) => [f.rule, f.offset])).toEqual([['api-rejects', 6]]);
    expect(found[0]!.fix).toMatch(/^mark at most that many cache breakpoints/);
  });

  it('ttl-order: a 1-hour breakpoint after a 5-minute (or default) one is an error; longest first is fine', () => {
    expect(lint([{ offset: 3, ttls: ['1h', '1h', '5m', undefined] }])).toEqual([]);
    const [f] = lint([{ offset: 3, ttls: ['1h', undefined, '1h'] }]);
    expect(f).toMatchObject({ rule: 'ttl-order', severity: 'error', message: 'request @3: breakpoint 3 asks for a 1-hour entry after a shorter one' });
    expect(f!.fix).toMatch(/^mark the 1-hour breakpoints before the shorter ones/);
    expect(lint([{ offset: 3, ttls: ['5m', '1h'] }]).map((x) => x.message)).toEqual(['request @3: breakpoint 2 asks for a 1-hour entry after a shorter one']);
    expect(f!.source).toMatchObject({ url: ANTHROPIC_CACHING });
    expect(f!.source.rule).toContain('entries with a longer TTL must appear before shorter ones');
  });

  it('unread-write: a write no later request reads is a warning; the last request (the conversation goes on) and a write read later are not', () => {
    const found = lint([
      { offset: 3, writes: 500 },
      { offset: 6, writes: 200, readFrom: null },
      { offset: 9, writes: 100, readFrom: 6 },
    ]);
    expect(found.map((f) => [f.rule, f.offset, f.severity])).toEqual([['unread-write', 3, 'warning']]);
    expect(found[0]!.message).toBe('request @3 writes 500 tokens to the cache that no later request of this conversation reads');
    expect(found[0]!.source.url).toBe('https://platform.claude.com/docs/en/about-claude/pricing');
  });

  it('unread-write cites the write price of the request’s own provider; on OpenAI’s prefix caching writes are free, so an unread one is no finding', () => {
    const openai = (cache: string) =>
      lint([
        { offset: 3, writes: 500, cache },
        { offset: 6, cache },
      ]);
    const [f] = openai('openai-breakpoints');
    expect(f).toMatchObject({ rule: 'unread-write', source: { url: OPENAI_BREAKPOINT_RULES.writeMultiplier.source } });
    expect(f!.source.rule).toContain('cache writes cost 1.25× the uncached input token rate');
    expect(openai('openai-prefix')).toEqual([]);
    expect(OPENAI_RULES.writeFeeBefore56.value).toBe(0);
    // A strategy with no documented rule here (a custom provider's ideal cache): nothing is claimed.
    expect(openai('ideal')).toEqual([]);
  });

  it('out-of-reach: an entry beyond the lookback of the next request is a warning citing the 20-block lookback', () => {
    const [f] = lint([{ offset: 3 }, { offset: 6, outOfReach: true }]);
    expect(f).toMatchObject({ rule: 'out-of-reach', offset: 6, severity: 'warning' });
    expect(ANTHROPIC_RULES.lookbackBlocks.value).toBe(20);
    expect(f!.source.rule).toContain('lookback window is 20 blocks');
  });

  it('volatile-prefix: the first differing text of the prefix differing only in a value is a warning; a rewrite is not', () => {
    const head = ['model: m', 'messages:'];
    const [f, ...rest] = lint([
      { offset: 3, lines: [...head, 'Current time: 10:01', 'hi'] },
      { offset: 6, lines: [...head, 'Current time: 10:02', 'hi', 'more'], cut: 2 },
    ]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: 'volatile-prefix', offset: 6, severity: 'warning' });
    expect(f!.message).toBe('request @6: a value that changes on every request sits inside the cached prefix: "Current time: 10:02" (request @3: "Current time: 10:01")');
    expect(f!.source.rule).toContain('a change at one level invalidates that level and all after it');
    // On OpenAI the same finding cites OpenAI's guide: a hit needs the exact prefix.
    const [o] = lint([
      { offset: 3, lines: [...head, 'Current time: 10:01', 'hi'], cache: 'openai-prefix' },
      { offset: 6, lines: [...head, 'Current time: 10:02', 'hi'], cut: 2, cache: 'openai-prefix' },
    ]);
    expect(o).toMatchObject({ rule: 'volatile-prefix', source: { url: 'https://developers.openai.com/api/docs/guides/prompt-caching' } });
    expect(o!.source.rule).toContain('Cache hits are only possible for exact prefix matches within a prompt');
    // An id (a long hex run) and a counter are values too.
    for (const [was, now] of [
      ['session 3f2a9c1b7e4d', 'session 9a8b7c6d5e0f'],
      ['turn 7 of the conversation', 'turn 8 of the conversation'],
    ])
      expect(
        lint([
          { offset: 3, lines: [...head, was!, 'hi'] },
          { offset: 6, lines: [...head, now!, 'hi'], cut: 2 },
        ]).map((x) => x.rule),
      ).toEqual(['volatile-prefix']);
    // Below the ✂ line (the prefix kept whole), a changing value is not in the cached prefix.
    expect(
      lint([
        { offset: 3, lines: [...head, 'turn 7'] },
        { offset: 6, lines: [...head, 'turn 7', 'turn 8'], cut: 3 },
      ]),
    ).toEqual([]);
    expect(
      lint([
        { offset: 3, lines: [...head, 'the rules'] },
        { offset: 6, lines: [...head, 'the rules, reworded'], cut: 2 },
      ]),
    ).toEqual([]);
  });
});
