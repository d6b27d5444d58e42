/**
 * Capture formats: the bundled Codex rollout and Claude Code transcript (examples/traces/, written
 * for this project) rebuild into the requests the session sent — inputs, models, usage, times —
 * render clean, say what the capture lacks, report a secret once at its own line; and hostile
 * captures are errors at their line and column with the fix.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_FOLDS } from '../../builtin-folds/index.ts';
import { renderTexts } from '../../corpus/check.ts';
import { formatError } from '../../scenarios/errors.ts';
import { importCapture, importTrace } from '../index.ts';
import { readFolder } from '../folder.ts';
import { leftOutLine } from '../left-out.ts';
import { readChunks } from '../read.ts';
import type { InputError } from '../../scenarios/errors.ts';
import { withBodies } from '../../../tests/support/imported.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const sample = (name: string) => readFileSync(join(ROOT, 'examples/traces', name), 'utf8');
const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
type Ev = { off: number; t: string; note?: string; payload: { format: string; measured?: Record<string, number>; unrecorded?: string[]; body: Record<string, unknown> } };
const events = (yaml: string) => withBodies((parse(yaml) as { events: Ev[]; intro: string }).events);
/** The trace line an imported event came from (its note); events are numbered 1..N in the order sent. */
const traceLine = (e: { note?: string }): number => Number(/^line (\d+) of the trace$/.exec(e.note ?? '')?.[1]);
const jsonl = (...v: unknown[]) => `${v.map((x) => JSON.stringify(x)).join('\n')}\n`;
const errorsOf = (text: string, capture?: string) => importTrace(text, { file: 'c.jsonl', id: 'c', ...(capture && { capture }) }).errors.map(formatError);

describe('Claude Code transcript', () => {
  const { result, errors } = importTrace(sample('claude-code-session.jsonl'), { file: 'examples/traces/claude-code-session.jsonl', id: 'cc' });

  it('each new assistant message is a request: the main conversation before it, roles joined, its model and usage', () => {
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.format).toBe('anthropic');
    const ev = events(result!.yaml);
    // Numbered 1..N in the order sent; the trace line is the note.
    expect(ev.map((e) => e.off)).toEqual([1, 2, 3]);
    expect(ev.map((e) => [traceLine(e), e.t])).toEqual([
      [3, '0ms'],
      [7, '4.412s'],
      [11, '10.522s'],
    ]);
    const roles = (e: Ev) => (e.payload.body.messages as { role: string; content: { type: string }[] }[]).map((m) => `${m.role}:${m.content.map((b) => b.type).join('+')}`);
    expect(roles(ev[0]!)).toEqual(['user:text']);
    expect(roles(ev[1]!)).toEqual(['user:text', 'assistant:text+tool_use', 'user:tool_result']);
    // The sub-agent's reply and the system line are not part of it.
    expect(roles(ev[2]!)).toEqual(['user:text', 'assistant:text+tool_use', 'user:tool_result', 'assistant:tool_use', 'user:tool_result']);
    for (const e of ev) {
      expect(Object.keys(e.payload.body).sort()).toEqual(['messages', 'model']);
      expect(e.payload.body.model).toBe('claude-sonnet-4-5-20250929');
    }
    expect(ev.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 3 + 14210 + 1894, cachedTokens: 14210, cacheWriteTokens: 1894, outputTokens: 84 },
      { inputTokens: 5 + 16104 + 412, cachedTokens: 16104, cacheWriteTokens: 412, outputTokens: 212 },
      { inputTokens: 4 + 16516 + 318, cachedTokens: 16516, cacheWriteTokens: 318, outputTokens: 65 },
    ]);
    // Each request says what the transcript did not record (the billed usage counts it; the economics explain differences by it first).
    // The cache markers too: a transcript keeps no `cache_control`, so no request is said to ask for no caching (economics/measured.ts).
    expect(ev.map((e) => e.payload.unrecorded)).toEqual(
      Array(3).fill(['the system prompt', 'the tool definitions', 'the request parameters (max_tokens, thinking)', 'the cache markers (breakpoints such as cache_control)']),
    );
  });

  it('says what the transcript does not hold, renders clean, and reports the secret once at its own line', async () => {
    const intro = (parse(result!.yaml) as { intro: string }).intro;
    expect(intro).toContain(
      'Rebuilt from a Claude Code transcript, which does not record the system prompt, the tool definitions, the request parameters (max_tokens, thinking) and the cache markers (breakpoints such as cache_control)',
    );
    expect(intro).toContain('as far as the capture holds it');
    expect((await renderTexts([{ file: 'scenarios/cc.yaml', text: result!.yaml }], config, { everyEvent: false })).errors.map(formatError)).toEqual([]);
    expect(result!.dropped.map((d) => `${d.pos.line}:${d.pos.col} ${d.what}`)).toEqual(['8:342 an API key (sk-…)']);
    expect(result!.yaml).not.toContain('sk-proj-FAKE');
  });

  const user = (text: unknown, extra: Record<string, unknown> = {}) => ({
    type: 'user',
    sessionId: 's',
    timestamp: '2026-12-01T09:00:00Z',
    message: { role: 'user', content: text },
    ...extra,
  });
  const reply = (id: string, model: unknown, extra: Record<string, unknown> = {}) => ({
    type: 'assistant',
    sessionId: 's',
    timestamp: '2026-12-01T09:00:01Z',
    message: { id, model, role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ...extra,
  });

  it('hostile transcripts: errors at their line and column', () => {
    expect(errorsOf(jsonl(user('q'), { type: 'assistant', sessionId: 's', message: 'hi' }), 'claude-code')).toEqual([
      'c.jsonl:2:47 error: a `assistant` line of a Claude Code transcript needs its `message` object\n  fix: import the transcript as Claude Code wrote it (~/.claude/projects/<project>/<session>.jsonl), unedited',
    ]);
    // A reply with nothing before it (a transcript cut short) is no request: left out and said, and with no other request, the error says what it read past.
    expect(errorsOf(jsonl(reply('m1', 'claude-x'), user('q')))[0]).toMatch(
      /^c\.jsonl:1:1 error: this Claude Code transcript holds no request \(no model reply\); read past: 1 reply lines with no user message before them/,
    );
    expect(errorsOf(jsonl(user('q'), reply('m1', '')))[0]).toMatch(/^c\.jsonl:2:\d+ error: this assistant message has no `model`/);
    expect(errorsOf(jsonl(user(42), reply('m1', 'claude-x')))[0]).toMatch(/^c\.jsonl:1:\d+ error: `message.content` must be text or a list of content blocks/);
    expect(errorsOf(jsonl({ type: 'summary', summary: 's' }, user('q'), reply('m1', '<synthetic>')))).toEqual([
      'c.jsonl:1:1 error: this Claude Code transcript holds no request (no model reply); read past: 1 `summary` lines (Claude Code’s own records, not messages sent to the model), 1 `<synthetic>` replies (written by Claude Code itself, never sent by the API)\n  fix: import a capture of a session in which the model answered at least once',
    ]);
  });

  it('a sub-agent line and a <synthetic> reply are left out; a reply split over lines is one request', () => {
    const { result: r, errors: e } = importTrace(
      jsonl(
        user('q'),
        reply('m1', 'claude-x'),
        reply('m1', 'claude-x'),
        reply('s1', 'claude-x', { isSidechain: true }),
        user('q2'),
        reply('x', '<synthetic>'),
        reply('m2', 'claude-x'),
      ),
      {
        file: 'c.jsonl',
        id: 'c',
      },
    );
    expect(e).toEqual([]);
    expect(events(r!.yaml).map((x) => [traceLine(x), (x.payload.body.messages as unknown[]).length])).toEqual([
      [2, 1],
      [7, 3],
    ]);
  });

  it('says what it left out: each kind of line it read past, counted, with why and the first line', () => {
    const { result: r, errors: e } = importTrace(
      jsonl(
        { type: 'progress', sessionId: 's', data: {} },
        user('q'),
        { type: 'file-history-snapshot', snapshot: {} },
        reply('m1', 'claude-x'),
        { type: 'progress', sessionId: 's', data: {} },
        user('q2'),
        reply('x', '<synthetic>'),
        reply('m2', 'claude-x'),
      ),
      { file: 'c.jsonl', id: 'c' },
    );
    expect(e).toEqual([]);
    expect(r!.requests).toBe(2);
    expect(r!.leftOut).toEqual([
      { what: '`progress` lines', count: 2, why: 'Claude Code’s own records, not messages sent to the model', line: 1 },
      { what: '`file-history-snapshot` lines', count: 1, why: 'Claude Code’s own records, not messages sent to the model', line: 3 },
      { what: '`<synthetic>` replies', count: 1, why: 'written by Claude Code itself, never sent by the API', line: 7 },
    ]);
    expect(leftOutLine('c.jsonl', r!.leftOut[0]!)).toBe('left out of c.jsonl: 2 `progress` lines (Claude Code’s own records, not messages sent to the model; first at line 1)');
  });
});

describe('Codex rollout', () => {
  const { result, errors } = importTrace(sample('codex-rollout.jsonl'), { file: 'examples/traces/codex-rollout.jsonl', id: 'codex' });

  it('a request at each first output item: every item before it as input, the turn’s model, the next token_count’s usage', async () => {
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.format).toBe('openai-responses');
    const ev = events(result!.yaml);
    expect(ev.map((e) => [traceLine(e), e.t, (e.payload.body.input as unknown[]).length, e.payload.body.model])).toEqual([
      [7, '0ms', 3, 'gpt-5-codex'],
      [11, '5.392s', 6, 'gpt-5-codex'],
      [15, '13.801s', 9, 'gpt-5-codex'],
    ]);
    expect(ev.every((e) => !('instructions' in e.payload.body) && !('tools' in e.payload.body))).toBe(true);
    expect(ev.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 8214, cachedTokens: 0, outputTokens: 96 },
      { inputTokens: 8536, cachedTokens: 8064, cacheWriteTokens: 0, outputTokens: 306 },
      { inputTokens: 8640, cachedTokens: 8448, cacheWriteTokens: 0, outputTokens: 29 },
    ]);
    // 0.63 records no base instructions and no turn overrides them: every request lacks them too, and the intro says both.
    expect((parse(result!.yaml) as { intro: string }).intro).toContain(
      'Rebuilt from a Codex rollout, which does not record the tool definitions and Codex’s built-in base instructions:',
    );
    expect(ev.map((e) => (e.payload as { unrecorded?: string[] }).unrecorded)).toEqual(Array(3).fill(['the tool definitions', 'Codex’s built-in base instructions']));
    // The UI events beside the items are said, not dropped silently (token_count is read: not among them).
    expect(result!.leftOut.map((x) => `${x.count} ${x.what} @${x.line}`)).toEqual(['1 `event_msg` lines of type `user_message` @5']);
    expect((await renderTexts([{ file: 'scenarios/codex.yaml', text: result!.yaml }], config, { everyEvent: false })).errors.map(formatError)).toEqual([]);
  });

  const item = (p: unknown, type = 'response_item') => ({ timestamp: '2026-12-01T10:00:00Z', type, payload: p });
  const ctx = item({ model: 'gpt-5-codex' }, 'turn_context');
  const userMsg = item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] });
  const answer = item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] });

  it('a turn’s base_instructions become the instructions; a compaction replaces the items', () => {
    const compacted = item(
      { message: 'summary', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'summary so far' }] }] },
      'compacted',
    );
    const { result: r, errors: e } = importTrace(
      jsonl(item({ model: 'gpt-5-codex', base_instructions: 'You are Codex.' }, 'turn_context'), userMsg, answer, compacted, userMsg, answer),
      { file: 'c.jsonl', id: 'c' },
    );
    expect(e).toEqual([]);
    const ev = events(r!.yaml);
    expect(ev.map((x) => [x.payload.body.instructions, (x.payload.body.input as unknown[]).length])).toEqual([
      ['You are Codex.', 1],
      ['You are Codex.', 2],
    ]);
  });

  it('hostile rollouts: errors at their line and column', () => {
    expect(errorsOf(jsonl(userMsg, answer))).toEqual([
      'c.jsonl:2:1 error: the model answers here, but no `turn_context` line before it names the model\n  fix: import the whole rollout from its first line (each turn’s turn_context names the model)',
    ]);
    expect(errorsOf(jsonl(ctx, answer))[0]).toMatch(/^c\.jsonl:2:1 error: the model answers here, but nothing was sent before it/);
    expect(errorsOf(jsonl(ctx, item('x'), userMsg, answer))[0]).toMatch(/^c\.jsonl:2:70 error: a rollout line’s `payload` must be an object/);
    expect(errorsOf(jsonl(ctx, item({ role: 'user' }), answer))[0]).toMatch(/^c\.jsonl:2:\d+ error: this response item has no `type`/);
    expect(errorsOf(jsonl(ctx, userMsg, answer, item({ type: 'token_count', info: { last_token_usage: { input_tokens: -3 } } }, 'event_msg')))[0]).toMatch(
      /^c\.jsonl:4:\d+ error: response usage: `input_tokens` must be a whole number of tokens/,
    );
    // --format codex on request bodies: each line named.
    expect(errorsOf(jsonl({ model: 'gpt-5', input: 'q' }), 'codex')[0]).toMatch(/^c\.jsonl:1:1 error: a rollout line’s `payload` must be an object/);
  });
});

describe('AI SDK DevTools capture', () => {
  const text = sample('ai-sdk-devtools.generations.json');
  const { result, errors } = importTrace(text, { file: 'examples/traces/ai-sdk-devtools.generations.json', id: 'devtools' });
  const steps = (JSON.parse(text) as { steps: { raw_request: string | null }[] }).steps;

  it('each recorded step is its raw provider request, as sent, with the call’s usage; an aborted step is left out', () => {
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.format).toBe('anthropic');
    const ev = events(result!.yaml);
    expect(ev.map((e) => [e.off, e.t])).toEqual([
      [1, '0ms'],
      [2, '2.07s'],
      [3, '1m 48.33s'],
    ]);
    const redacted = (s: string) => JSON.parse(s.replace(/sk-ant-api03-FAKE-EXAMPLE-KEY-0+/, '[redacted secret]'));
    expect(ev.map((e) => e.payload.body)).toEqual(steps.slice(0, 3).map((s) => redacted(s.raw_request!)));
    expect(ev.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 1412, cachedTokens: 0, cacheWriteTokens: 1376, outputTokens: 41 },
      { inputTokens: 1571, cachedTokens: 1376, cacheWriteTokens: 0, outputTokens: 52 },
      { inputTokens: 1660, cachedTokens: 1376, cacheWriteTokens: 0, outputTokens: 38 },
    ]);
    expect((parse(result!.yaml) as { intro: string }).intro).toContain('Read from an AI SDK DevTools capture: each request is the provider request body it recorded, as sent.');
    expect(result!.dropped.map((d) => `${d.pos.line}:${d.pos.col}`)).toEqual(['50:22', '68:22']);
  });

  it('renders clean', async () => {
    expect((await renderTexts([{ file: 'scenarios/devtools.yaml', text: result!.yaml }], config, { everyEvent: false })).errors.map(formatError)).toEqual([]);
  });

  const db = (...s: unknown[]) => JSON.stringify({ runs: [], steps: s }, null, 2);
  const step = (over: Record<string, unknown>) => ({
    run_id: 'r',
    step_number: 1,
    provider: 'openai.chat',
    started_at: '2026-12-01T10:00:00Z',
    raw_request: JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'q' }] }),
    usage: JSON.stringify({ inputTokens: { total: 10, cacheRead: 0 } }),
    ...over,
  });

  it('hostile captures: errors at the step’s field, with the fix', () => {
    const first = (...s: unknown[]) => errorsOf(db(...s))[0]?.split('\n')[0];
    expect(first(step({ raw_request: '{"model": ' }))).toMatch(/^c\.jsonl:9:\d+ error: `raw_request` is not JSON text$/);
    expect(first(step({ raw_request: 5 }))).toMatch(/^c\.jsonl:9:\d+ error: `raw_request` must be the provider request body as JSON text$/);
    expect(first(step({ raw_request: '[1]' }))).toMatch(/error: `raw_request` must be a request body \(a JSON object\)$/);
    expect(first(step({ raw_request: '{"model": "x", "prompt": "q"}', provider: 'gateway' }))).toMatch(
      /error: this step's request is not a body the `requests` fold reads: not OpenAI Chat Completions: it has no `messages`/,
    );
    expect(first(step({ usage: JSON.stringify({ inputTokens: { total: 1.5 } }) }))).toMatch(/^c\.jsonl:10:\d+ error: usage: `inputTokens.total` must be a whole number of tokens/);
    expect(first(step({ usage: JSON.stringify({ inputTokens: { total: 10, cacheRead: 8, cacheWrite: 5 } }) }))).toMatch(
      /error: usage: the cached \(8\) and written \(5\) input tokens add up to more than the total \(10\)$/,
    );
    expect(first('x')).toMatch(/^c\.jsonl:4:\d+ error: a step must be an object$/);
    expect(
      first(step({}), step({ provider: 'anthropic.messages', raw_request: JSON.stringify({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'q' }] }) })),
    ).toMatch(/error: this request is an Anthropic Messages one, but an earlier one is OpenAI Chat Completions — mixed providers$/);
    expect(errorsOf(db(step({ raw_request: null })))).toEqual([
      'c.jsonl:1:1 error: this AI SDK DevTools capture holds no request (no model reply)\n  fix: import a capture of a session in which the model answered at least once',
    ]);
    expect(errorsOf(jsonl({ runs: [], steps: [] }, { runs: [], steps: [] }), 'ai-sdk-devtools')[0]).toMatch(
      /^c\.jsonl:2:1 error: an AI SDK DevTools capture is one JSON document with `runs` and `steps`/,
    );
  });

  it('the step’s provider decides a body two formats fit (the registry maps the AI SDK’s names); a body that is not the named format is an error naming the ones read', () => {
    // `max_tokens` on every body would make the tie-break pick Anthropic Messages; the step says Chat Completions.
    const both = JSON.stringify({ model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'q' }] });
    const { result, errors: found } = importTrace(db(step({ raw_request: both })), { file: 'c.json', id: 'd' });
    expect(found.map(formatError)).toEqual([]);
    expect(result!.format).toBe('openai-chat');
    expect(importTrace(db(step({ raw_request: both, provider: 'anthropic.messages' })), { file: 'c.json', id: 'd' }).result!.format).toBe('anthropic');
    const wrong = errorsOf(db(step({ provider: 'openai.responses' })))[0]!;
    expect(wrong.split('\n')[0]).toMatch(/error: this step's request is not a body the `requests` fold reads as openai\.responses$/);
    expect(wrong.split('\n')[1]).toBe(
      '  fix: capture calls of a provider whose raw body the import reads: OpenAI Chat Completions (openai.chat), OpenAI Responses (openai.responses), Anthropic Messages (anthropic.messages); a gateway or another provider’s body is not read',
    );
  });
});

/** A capture of several conversations, split as `--out-dir` does: [grouped by, key, requests, lines] of each. */
function split(text: string, file = 'c.jsonl') {
  const errors: InputError[] = [];
  const { conversations, errors: found } = importCapture(readChunks(text, file, errors), { file, id: 'c', idOf: (c) => `c-${c.key.slice(0, 8)}` });
  expect([...errors, ...found].map(formatError)).toEqual([]);
  return conversations!;
}

describe('a capture of several conversations (--out-dir)', () => {
  it('Claude Code transcripts joined: one conversation per sessionId, each rebuilt from its own lines only', () => {
    const one = sample('claude-code-session.jsonl');
    // A second session, its lines interleaved with the first's (as a projects folder's files joined by time would be).
    const other = one.replaceAll('4f1c2b7e-0d3a-4c55-9a61-6f2e8b1d9c07', '9a0b8c7d-1111-4222-8333-444455556666').replaceAll('"msg_', '"msg_b_');
    const a = one.trim().split('\n');
    const b = other.trim().split('\n');
    const joined = `${a.flatMap((l, i) => [l, b[i]!]).join('\n')}\n`;
    const cs = split(joined);
    expect(cs.map((c) => [c.conversation.by, c.conversation.key, c.result.requests])).toEqual([
      ['sessionId', '4f1c2b7e-0d3a-4c55-9a61-6f2e8b1d9c07', 3],
      ['sessionId', '9a0b8c7d-1111-4222-8333-444455556666', 3],
    ]);
    // Each session's requests are the single transcript's, byte for byte.
    const alone = events(importTrace(one, { file: 'c.jsonl', id: 'c' }).result!.yaml).map((e) => e.payload);
    for (const c of cs) expect(events(c.result.yaml).map((e) => e.payload)).toEqual(alone);
    expect((parse(cs[1]!.result.yaml) as { intro: string }).intro).toContain(
      'One conversation of a capture of 2: the requests whose `sessionId` is `9a0b8c7d-1111-4222-8333-444455556666`.',
    );
    // A capture of one session says so, not "of several".
    const [only] = split(one);
    expect((parse(only!.result.yaml) as { intro: string }).intro).toContain(
      'The capture’s only conversation: the requests whose `sessionId` is `4f1c2b7e-0d3a-4c55-9a61-6f2e8b1d9c07`.',
    );
    // Without --out-dir: an error at the second session's first request, with the fix.
    expect(errorsOf(joined)[0]).toMatch(/^c\.jsonl:6:\d+ error: this Claude Code transcript holds more than one conversation: .*\n {2}fix: import it with --out-dir/);
  });

  it('Codex rollouts joined: one conversation per session_meta id', () => {
    const one = sample('codex-rollout.jsonl');
    const other = one.replaceAll('0199d6f2-3c1e-7a40-9b1e-5d2c7f9a0e11', '0199d6f2-0000-7a40-9b1e-000000000002');
    const cs = split(one + other);
    expect(cs.map((c) => [c.conversation.by, c.conversation.key, c.result.requests, c.lines])).toEqual([
      ['session_meta.id', '0199d6f2-3c1e-7a40-9b1e-5d2c7f9a0e11', 3, [expect.any(Number), expect.any(Number)]],
      ['session_meta.id', '0199d6f2-0000-7a40-9b1e-000000000002', 3, [expect.any(Number), expect.any(Number)]],
    ]);
    expect(cs[1]!.lines[0]).toBeGreaterThan(16);
    expect(events(cs[1]!.result.yaml).map((e) => e.payload)).toEqual(events(cs[0]!.result.yaml).map((e) => e.payload));
  });

  it('a day’s folder of Codex rollouts (~/.codex/sessions/YYYY/MM/DD/): one conversation per rollout, each event naming its own file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-codex-day-'));
    try {
      const one = sample('codex-rollout.jsonl');
      mkdirSync(join(dir, '2025', '11', '17'), { recursive: true });
      writeFileSync(join(dir, '2025', '11', '17', 'rollout-a.jsonl'), one);
      writeFileSync(join(dir, '2025', '11', '17', 'rollout-b.jsonl'), one.replaceAll('0199d6f2-3c1e-7a40-9b1e-5d2c7f9a0e11', '0199d6f2-0000-7a40-9b1e-000000000002'));
      const errors: InputError[] = [];
      const { chunks } = readFolder(dir, 'sessions', errors);
      const r = importCapture(chunks, { file: 'sessions', id: 'c', idOf: (c) => `c-${c.key.slice(-4)}` });
      expect([...errors, ...r.errors].map(formatError)).toEqual([]);
      expect(r.conversations!.map((c) => [c.conversation.key, c.result.requests])).toEqual([
        ['0199d6f2-3c1e-7a40-9b1e-5d2c7f9a0e11', 3],
        ['0199d6f2-0000-7a40-9b1e-000000000002', 3],
      ]);
      const notes = (yaml: string) => (parse(yaml) as { events: { note: string }[] }).events.map((e) => e.note.replace(/line \d+ of /, ''));
      expect(new Set(notes(r.conversations![1]!.result.yaml))).toEqual(new Set(['2025/11/17/rollout-b.jsonl']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('AI SDK DevTools runs: grouped by the prefix chain (a run carries no conversation id) — the sample’s second run continues the first', () => {
    const cs = split(sample('ai-sdk-devtools.generations.json'), 'g.json');
    expect(cs.map((c) => [c.conversation.by, c.conversation.key, c.result.requests])).toEqual([['prefix chain', 'chain 1', 3]]);
    // A run that does not continue it is another conversation.
    const db = JSON.parse(sample('ai-sdk-devtools.generations.json')) as { steps: { run_id: string; raw_request?: string }[] };
    const last = db.steps.filter((s) => s.raw_request).at(-1)!;
    const body = JSON.parse(last.raw_request!) as { messages: { role: string; content: unknown }[] };
    last.raw_request = JSON.stringify({ ...body, messages: [{ role: 'user', content: [{ type: 'text', text: 'Another question altogether.' }] }] });
    expect(split(JSON.stringify(db, null, 2), 'g.json').map((c) => [c.conversation.key, c.result.requests])).toEqual([
      ['chain 1', 2],
      ['chain 2', 1],
    ]);
  });
});
