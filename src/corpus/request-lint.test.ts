/**
 * The request linter in the corpus check (what `npm run check`, the fixture test and the build run):
 * a finding the API would reject the request for is an error at the request's event, once, with the
 * provider's documented rule; the others are warnings at the event, citing their rule's source; and
 * every scenario's findings are on the rendered corpus for `report --json` and the pages.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importTrace } from '../import/index.ts';
import { formatError } from '../scenarios/errors.ts';
import { MID_SYSTEM_RULE } from '../providers/anthropic/catalog.ts';
import { ANTHROPIC_RULES } from '../providers/anthropic/catalog.ts';
import { renderTexts } from './check.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const SYSTEM = 'You are a careful assistant. Read the repository before you change it, and say what you did. '.repeat(80);
const CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';

/** A corpus of one scenario imported from these Anthropic bodies, one request a minute. */
async function corpusOf(bodies: object[]) {
  const text = `${bodies.map((body, i) => JSON.stringify({ timestamp: `2026-08-24T16:4${1 + i}:00.000Z`, body })).join('\n')}\n`;
  const { result, errors } = importTrace(text, { file: 'traces/t.jsonl', id: 't' });
  expect(errors).toEqual([]);
  const yaml = result!.yaml;
  const corpus = await renderTexts([{ file: 'scenarios/t.yaml', text: yaml }], config, { everyEvent: false });
  /** The line of the scenario file where request @offset's event starts. */
  const lineOf = (offset: number) => corpus.scenarios[0]!.scenario.chain.find((e) => e.offset === offset)!.pos.line;
  return { corpus, lineOf };
}

const ask = (content: string) => ({ role: 'user', content });

describe('the request linter in the corpus check', () => {
  it('a mid-conversation system message on a model that rejects it: one error at the request (the adapter’s flag), with the feature’s documented rule', async () => {
    const first = [ask('Find the failing test.')];
    const second = [...first, { role: 'assistant', content: 'It is run.test.ts.' }, { role: 'system', content: 'Answer in French.' }, ask('Fix it.')];
    // The system prompt asks for caching: the first request writes it (an imported request caches only what it asks for).
    const system = [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }];
    const { corpus, lineOf } = await corpusOf([first, second].map((messages) => ({ model: 'claude-sonnet-4-5', max_tokens: 100, system, messages })));
    const offset = corpus.scenarios[0]!.requests[1]!.offset;
    expect(corpus.errors.map(formatError)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^scenarios/t\\.yaml:${lineOf(offset)}:\\d+ error: request @${offset} \\(claude-sonnet-4-5, profile anthropic-claude-sonnet-4\\.5\\) carries a mid-conversation system message.* \\(the provider's rule: ${MID_SYSTEM_RULE.source}, read ${MID_SYSTEM_RULE.read}\\)`,
        ),
      ),
    ]);
    // The rejected request reads nothing: the first request's write is paid for nothing (a warning), and nothing else about @2's cache is reported.
    const findings = corpus.lint.get('t')!;
    expect(findings.map((x) => [x.rule, x.offset, x.severity])).toEqual([
      ['unread-write', corpus.scenarios[0]!.requests[0]!.offset, 'warning'],
      ['feature-rejected', offset, 'error'],
    ]);
    const f = findings[1];
    expect(f).toMatchObject({ offset, rule: 'feature-rejected', severity: 'error', source: { url: MID_SYSTEM_RULE.source, read: MID_SYSTEM_RULE.read } });
    expect(f!.source.rule).toContain('not available on Claude Sonnet 5');
    expect(f!.fix).toMatch(/Claude Opus 4\.8, Claude Opus 5, Claude Sonnet 5\.5, Claude Haiku 5\.5/);
  });

  it('five breakpoints: one error (the API’s 400), citing the documented limit of 4', async () => {
    const marked = (text: string) => ({ type: 'text', text, cache_control: { type: 'ephemeral' } });
    const content = ['a', 'b', 'c', 'd', 'e'].map((x) => marked(`part ${x}`));
    const { corpus } = await corpusOf([{ model: 'claude-sonnet-4-5', max_tokens: 100, system: SYSTEM, messages: [{ role: 'user', content }] }]);
    expect(corpus.errors.map(formatError)).toEqual([expect.stringContaining(`(the provider's rule: ${CACHING}, read ${ANTHROPIC_RULES.maxBreakpoints.read})`)]);
    expect(corpus.lint.get('t')!.map((f) => [f.rule, f.severity])).toEqual([['api-rejects', 'error']]);
  });

  it('a 1-hour breakpoint after a 5-minute one: an error at the request, with its fix and the documented order', async () => {
    const system = [
      { type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'The project rules.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ];
    const { corpus, lineOf } = await corpusOf([{ model: 'claude-sonnet-4-5', max_tokens: 100, system, messages: [ask('Hello.')] }]);
    const offset = corpus.scenarios[0]!.requests[0]!.offset;
    expect(corpus.errors.map(formatError)).toEqual([
      expect.stringContaining(
        `scenarios/t.yaml:${lineOf(offset)}:5 error: request @${offset}: breakpoint 2 asks for a 1-hour entry after a shorter one (ttl-order: ${CACHING}, read ${ANTHROPIC_RULES.ttl1hMinutes.read})`,
      ),
    ]);
    expect(corpus.errors[0]!.fix).toMatch(/^mark the 1-hour breakpoints before the shorter ones/);
  });

  it('a date in the system prompt that changes every request: a warning at the request, not an error; a stable prompt has none', async () => {
    const body = (date: string, messages: object[]) => ({ model: 'claude-sonnet-4-5', max_tokens: 100, system: `${SYSTEM}\nToday's date: ${date}.`, messages });
    const first = [ask('Find the failing test.')];
    const second = [...first, { role: 'assistant', content: 'It is run.test.ts.' }, ask('Fix it.')];
    const { corpus, lineOf } = await corpusOf([body('2026-11-30', first), body('2026-12-01', second)]);
    expect(corpus.errors.map(formatError)).toEqual([]);
    const offset = corpus.scenarios[0]!.requests[1]!.offset;
    const volatile = corpus.warnings.filter((w) => w.message.includes('(volatile-prefix: '));
    expect(volatile.map((w) => `${w.pos.file}:${w.pos.line} ${w.message}`)).toEqual([
      `scenarios/t.yaml:${lineOf(offset)} request @${offset}: a value that changes on every request sits inside the cached prefix: "Today's date: 2026-12-01." (request @${corpus.scenarios[0]!.requests[0]!.offset}: "Today's date: 2026-11-30.") (volatile-prefix: ${CACHING}, read ${ANTHROPIC_RULES.cacheOrder.read})`,
    ]);
    const stable = await corpusOf([body('2026-11-30', first), body('2026-11-30', second)]);
    expect(stable.corpus.lint.get('t')!.filter((f) => f.rule === 'volatile-prefix')).toEqual([]);
  });

  it('requests that never ask for caching: one warning at the first request, saying what one breakpoint would save; none once a request asks', async () => {
    const first = [ask('Find the failing test.')];
    const second = [...first, { role: 'assistant', content: 'It is run.test.ts.' }, ask('Fix it.')];
    const { corpus, lineOf } = await corpusOf([first, second].map((messages) => ({ model: 'claude-sonnet-4-5', max_tokens: 100, system: SYSTEM, messages })));
    expect(corpus.errors.map(formatError)).toEqual([]);
    const econ = corpus.economics.get('t')!;
    // Nothing asked: nothing cached or written on any request.
    expect(econ.requests.map((e) => [e.cachedTokens, e.cacheWriteTokens])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    const findings = corpus.lint.get('t')!.filter((f) => f.rule === 'no-caching-asked');
    expect(findings.map((f) => [f.offset, f.severity])).toEqual([[corpus.scenarios[0]!.requests[0]!.offset, 'warning']]);
    expect(findings[0]!.message).toMatch(/^These 2 requests never ask for caching: nothing is read from the cache or written to it/);
    expect(findings[0]!.message).toMatch(
      /One `cache_control` breakpoint after the system prompt would save ≈\$[0-9.]+ per conversation \(≈\$[0-9.]+ per 1,000 conversations like it\)/,
    );
    expect(findings[0]!.source.url).toBe(CACHING);
    expect(corpus.warnings.some((w) => w.pos.line === lineOf(findings[0]!.offset) && w.message.startsWith('These 2 requests never ask for caching'))).toBe(true);
    const system = [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }];
    const asked = await corpusOf([first, second].map((messages) => ({ model: 'claude-sonnet-4-5', max_tokens: 100, system, messages })));
    expect(asked.corpus.lint.get('t')!.filter((f) => f.rule === 'no-caching-asked')).toEqual([]);
    expect(asked.corpus.economics.get('t')!.unasked).toBeUndefined();
  });
});
