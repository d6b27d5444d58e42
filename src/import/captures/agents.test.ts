/**
 * Agent captures as their tools write them today (fixtures written here, in the shapes of the
 * public rollouts and transcripts named in codex.ts and claude-code.ts):
 *
 * - Codex: reasoning items with `"content": null` import; encrypted reasoning is an opaque item
 *   counted as the `reasoning_output_tokens` billed for the call that produced it (never its base64:
 *   the modelled input stays within 5 % of the billed on every request, where counting the base64
 *   would exceed it); custom tool calls; a model switch mid-session; line types of newer versions
 *   and UI events said as left out; a compaction with and without its replacement history; the
 *   earlier format refused naming it.
 * - Claude Code: sub-agent calls (`isSidechain`) become conversations of their own linked to the
 *   parent with `sharesCache:` (by `agentId`, or by the `parentUuid` chain in older versions); a
 *   sub-agent's own file imports; compaction boundaries restart the conversation; lines written out
 *   of order by a millisecond import into a scenario that checks clean; a sub-agent known only from
 *   its session's `agent_progress` lines is said, with its billed input, as requests not in the capture.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_FOLDS } from '../../builtin-folds/index.ts';
import { renderTexts } from '../../corpus/check.ts';
import { measuredComparison } from '../../economics/measured.ts';
import { tokenizer } from '../../economics/tokens.ts';
import { openaiResponses } from '../../providers/openai-responses.ts';
import { formatError } from '../../scenarios/errors.ts';
import { parseTimeLabel } from '../../scenarios/time.ts';
import { importCapture, importTrace } from '../index.ts';
import { readFolder } from '../folder.ts';
import { importCaptureLog } from '../log/capture.ts';
import { leftOutLine } from '../left-out.ts';
import { readChunks } from '../read.ts';
import type { InputError } from '../../scenarios/errors.ts';
import { withBodies } from '../../../tests/support/imported.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
type Ev = { off: number; t: string; payload: { format: string; measured?: Record<string, number>; body: Record<string, unknown> } };
type Doc = { events: Ev[]; intro: string; sharesCache?: { scenario: string; at: string } };
/** The scenario with every body whole (a request stored as what it adds to the previous one is rebuilt, as the fold does). */
const doc = (yaml: string): Doc => {
  const d = parse(yaml) as Doc;
  return { ...d, events: withBodies(d.events) };
};
const jsonl = (...v: unknown[]) => `${v.map((x) => JSON.stringify(x)).join('\n')}\n`;
const render = async (...files: { file: string; text: string }[]) => await renderTexts(files, config, { everyEvent: false });

/** A deterministic stand-in for Codex's encrypted reasoning: base64 characters, `n` of them. */
function base64(n: number, seed: number): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let x = seed;
  let s = 'gAAAAAB';
  while (s.length < n) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    s += abc[x % 64];
  }
  return s;
}

describe('Codex rollout, as Codex 0.144 writes it', () => {
  let clock = Date.parse('2026-11-30T08:00:00.000Z');
  const line = (type: string, payload: unknown) => ({ timestamp: new Date((clock += 700)).toISOString(), type, payload });
  const item = (payload: unknown) => line('response_item', payload);
  const user = (text: string) => item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const usage = (input: number, cached: number, output: number, reasoning: number) =>
    line('event_msg', {
      type: 'token_count',
      info: {
        total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output },
        last_token_usage: {
          input_tokens: input,
          cached_input_tokens: cached,
          cache_write_input_tokens: 0,
          output_tokens: output,
          reasoning_output_tokens: reasoning,
          total_tokens: input + output,
        },
        model_context_window: 258400,
      },
      rate_limits: { limit_id: 'codex', primary: { used_percent: 3.0, window_minutes: 300, resets_at: 1783142674 }, secondary: null },
    });
  const reasoning = (summary: string, seed: number) =>
    item({ type: 'reasoning', summary: [{ type: 'summary_text', text: summary }], content: null, encrypted_content: base64(36_000, seed) });
  // The billed input: what the requests hold, plus Codex's base instructions and tool definitions (≈ 6,000 tokens the rollout does not record), plus the reasoning sent back.
  const lines = [
    line('session_meta', {
      id: '019ad0c1-0000-7000-8000-000000000144',
      timestamp: '2026-11-30T08:00:00.000Z',
      cwd: '/work/app',
      originator: 'codex_cli_rs',
      cli_version: '0.144.0',
      source: 'cli',
      model_provider: 'openai',
      base_instructions: { text: 'You are Codex, a coding agent.' },
    }),
    line('world_state', { agents_md: null }),
    line('turn_context', { cwd: '/work/app', approval_policy: 'on-request', model: 'gpt-5.1-codex-max', effort: 'high', summary: 'auto' }),
    user('<environment_context>\n  <cwd>/work/app</cwd>\n</environment_context>'),
    user('Rename the config loader and update its callers.'),
    line('event_msg', { type: 'user_message', message: 'Rename the config loader and update its callers.', images: [] }),
    reasoning('**Finding the loader**', 1), // 7
    item({ type: 'function_call', name: 'shell_command', arguments: '{"command":"rg -n loadConfig src"}', call_id: 'call_1' }),
    usage(6210, 0, 220, 180), // 9
    item({ type: 'function_call_output', call_id: 'call_1', output: 'src/config.ts:4:export function loadConfig() {}\nsrc/main.ts:2:loadConfig();' }),
    reasoning('**Patching both files**', 2), // 11
    item({
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_2',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Update File: src/config.ts\n-loadConfig\n+readConfig\n*** End Patch',
    }),
    usage(6490, 6144, 300, 240), // 13
    item({ type: 'custom_tool_call_output', call_id: 'call_2', output: 'Success. Updated the following files:\nM src/config.ts\n' }),
    item({ type: 'ghost_snapshot', ghost_commit: { id: 'a1b2c3', parent: null, preexisting_untracked_files: [], preexisting_untracked_dirs: [] } }),
    line('turn_context', { cwd: '/work/app', approval_policy: 'on-request', model: 'gpt-5-codex', effort: 'medium', summary: 'auto' }), // 16: /model
    user('Now explain the change in one sentence.'),
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'loadConfig is now readConfig, and main.ts calls it.' }] }), // 18
    usage(6620, 6400, 40, 0),
    line('event_msg', { type: 'token_count', info: null, rate_limits: { limit_id: 'codex', primary: { used_percent: 4.0, window_minutes: 300, resets_at: 1783142674 } } }),
    line('event_msg', { type: 'agent_message', message: 'loadConfig is now readConfig, and main.ts calls it.' }),
  ];
  const text = jsonl(...lines);
  const { result, errors } = importTrace(text, { file: 'rollout.jsonl', id: 'codex-now' });

  it('imports: a request at each call, the turn’s model (switched mid-session), reasoning with null content, custom tool calls', async () => {
    expect(errors.map(formatError)).toEqual([]);
    const ev = doc(result!.yaml).events;
    const types = (e: Ev) => (e.payload.body.input as { type: string }[]).map((i) => i.type).join(',');
    expect(ev.map((e) => [e.off, e.payload.body.model, types(e)])).toEqual([
      [1, 'gpt-5.1-codex-max', 'message,message'],
      [2, 'gpt-5.1-codex-max', 'message,message,reasoning,function_call,function_call_output'],
      [3, 'gpt-5-codex', 'message,message,reasoning,function_call,function_call_output,reasoning,custom_tool_call,custom_tool_call_output,message'],
    ]);
    // The base instructions session_meta records are the requests' instructions.
    expect(ev.map((e) => e.payload.body.instructions)).toEqual(['You are Codex, a coding agent.', 'You are Codex, a coding agent.', 'You are Codex, a coding agent.']);
    // So the requests lack only the tool definitions, and the page says only that (not the base instructions, which they hold).
    expect(ev.map((e) => (e.payload as { unrecorded?: string[] }).unrecorded)).toEqual([['the tool definitions'], ['the tool definitions'], ['the tool definitions']]);
    expect(doc(result!.yaml).intro).toContain('Rebuilt from a Codex rollout, which does not record the tool definitions:');
    expect(ev.map((e) => e.payload.measured)).toEqual([
      { inputTokens: 6210, cachedTokens: 0, cacheWriteTokens: 0, outputTokens: 220 },
      { inputTokens: 6490, cachedTokens: 6144, cacheWriteTokens: 0, outputTokens: 300 },
      { inputTokens: 6620, cachedTokens: 6400, cacheWriteTokens: 0, outputTokens: 40 },
    ]);
    expect((await render({ file: 'scenarios/codex-now.yaml', text: result!.yaml })).errors.map(formatError)).toEqual([]);
  });

  it('encrypted reasoning is stored as an opaque record carrying the reasoning tokens billed for the call that produced it, never its base64', () => {
    expect(result!.yaml).not.toContain('gAAAAAB');
    const last = doc(result!.yaml).events[2]!.payload.body.input as Record<string, unknown>[];
    const r = last.filter((i) => i.type === 'reasoning');
    expect(r.map((i) => i.encrypted_content)).toEqual([
      { opaque: 'encrypted reasoning', characters: 36_000, digest: expect.stringMatching(/^[0-9a-f]{8}$/), tokens: 180 },
      { opaque: 'encrypted reasoning', characters: 36_000, digest: expect.stringMatching(/^[0-9a-f]{8}$/), tokens: 240 },
    ]);
    expect(r.map((i) => i.content)).toEqual([null, null]);
    // The adapter counts each as those tokens; its text shows the summary and the record, not the bytes.
    const normal = openaiResponses.normalise(doc(result!.yaml).events[2]!.payload.body);
    const reasoningMessages = normal.filter((m) => m.text.startsWith('[reasoning]'));
    expect(reasoningMessages.map((m) => m.tokens)).toEqual([180, 240]);
    expect(reasoningMessages[0]!.text).toContain('**Finding the loader**');
  });

  it('modelled input never exceeds the billed input by more than 5 %; counting the base64 would', async () => {
    const r = await render({ file: 'scenarios/codex-now.yaml', text: result!.yaml });
    const econ = r.economics.get('codex-now')!.requests;
    const billed = doc(result!.yaml).events.map((e) => e.payload.measured!.inputTokens);
    expect(econ.map((e) => e.offset)).toEqual([1, 2, 3]);
    for (const [i, e] of econ.entries()) expect(e.inputTokens).toBeLessThanOrEqual(billed[i]! * 1.05);
    // The same request with the two reasoning items counted as their base64 text: 72,000 characters of base64 alone is past the bill.
    const t = tokenizer('o200k_base');
    const asText = t.count(base64(36_000, 1)) + t.count(base64(36_000, 2));
    expect(asText).toBeGreaterThan(billed[2]! * 1.05);
  });

  it('says what it left out: newer line types, Codex’s snapshots, UI events, usage lines with no call', () => {
    expect(result!.leftOut.map((x) => `${x.count} ${x.what} @${x.line}`)).toEqual([
      '1 `world_state` lines @2',
      '1 `event_msg` lines of type `user_message` @6',
      '1 `ghost_snapshot` items @15',
      '1 `token_count` lines without `last_token_usage` @20',
      '1 `event_msg` lines of type `agent_message` @21',
    ]);
  });

  it('a request’s time is when its input was written, not when Codex wrote the answer’s UI events (as a published 0.60.1 rollout orders them)', () => {
    const at = (iso: string, type: string, payload: unknown) => ({ timestamp: `2025-11-22T20:${iso}Z`, type, payload });
    const limits = { primary: { used_percent: 0.0, window_minutes: 300, resets_at: 1763862524 }, secondary: null };
    const use = (input: number) => ({ input_tokens: input, cached_input_tokens: 0, output_tokens: 31, reasoning_output_tokens: 0, total_tokens: input + 31 });
    const t = jsonl(
      at('45:35.610', 'session_meta', { id: 's-060', timestamp: '2025-11-22T20:45:35.590Z', cli_version: '0.60.1', instructions: null }),
      at('48:36.901', 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make a chess board.' }] }),
      at('48:36.901', 'event_msg', { type: 'user_message', message: 'Make a chess board.', images: [] }),
      at('48:36.903', 'turn_context', { model: 'gpt-5.1-codex-max', effort: 'high' }), // request 1 is sent after this line
      at('48:44.649', 'event_msg', { type: 'token_count', info: null, rate_limits: limits }), // the response's rate limits
      at('48:45.598', 'event_msg', { type: 'agent_reasoning', text: '**Inspecting repository**' }),
      at('48:46.593', 'event_msg', { type: 'token_count', info: { total_token_usage: use(3559), last_token_usage: use(3559) }, rate_limits: limits }),
      at('48:46.593', 'response_item', { type: 'reasoning', summary: [], content: null, encrypted_content: base64(400, 5) }),
      at('48:46.593', 'response_item', { type: 'function_call', name: 'shell_command', arguments: '{"command":"ls"}', call_id: 'c1' }),
      at('48:46.593', 'response_item', { type: 'function_call_output', call_id: 'c1', output: 'Exit code: 0' }),
      at('48:46.594', 'turn_context', { model: 'gpt-5.1-codex-max', effort: 'high' }), // request 2 is sent after this line
      at('48:48.023', 'event_msg', { type: 'agent_reasoning', text: '**Listing files**' }),
      at('48:48.947', 'event_msg', { type: 'token_count', info: { total_token_usage: use(7207), last_token_usage: use(3648) }, rate_limits: limits }),
      at('48:48.949', 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The repository is empty.' }] }),
    );
    const { result: r, errors: e } = importTrace(t, { file: 'r.jsonl', id: 'r' });
    expect(e.map(formatError)).toEqual([]);
    const d = parse(r!.yaml) as { startedAt?: string; events: { off: number; t: string }[] };
    // Sent 9.691 s apart (36.903 → 46.594), where the answers' usage lines (46.593, 48.947) put them 2.354 s apart.
    const times = d.events.map((x) => Date.parse(d.startedAt!) + parseTimeLabel(x.t)!);
    expect(times.map((ms) => new Date(ms).toISOString())).toEqual(['2025-11-22T20:48:36.903Z', '2025-11-22T20:48:46.594Z']);
  });

  it('a compaction: its replacement history replaces the items; without one (older rollouts), the user’s messages and the summary, said ≈', () => {
    const ctx = line('turn_context', { model: 'gpt-5-codex' });
    const answer = item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] });
    const withHistory = line('compacted', {
      message: '',
      replacement_history: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Rename the loader.' }] },
        { type: 'compaction', encrypted_content: base64(3_000, 9) },
      ],
    });
    const a = importTrace(jsonl(ctx, user('Rename the loader.'), answer, withHistory, user('Go on.'), answer), { file: 'c.jsonl', id: 'c' });
    expect(a.errors).toEqual([]);
    const after = doc(a.result!.yaml).events[1]!.payload.body.input as Record<string, unknown>[];
    expect(after.map((i) => i.type)).toEqual(['message', 'compaction', 'message']);
    expect(after[1]!.encrypted_content).toMatchObject({ opaque: 'encrypted compaction', characters: 3_000 });

    const summaryOnly = line('compacted', { message: 'We renamed loadConfig to readConfig.' });
    const b = importTrace(jsonl(ctx, user('Rename the loader.'), answer, summaryOnly, user('Go on.'), answer), { file: 'c.jsonl', id: 'c' });
    expect(b.errors).toEqual([]);
    const texts = (doc(b.result!.yaml).events[1]!.payload.body.input as { role: string; content: { text: string }[] }[]).map((m) => `${m.role}: ${m.content[0]!.text}`);
    expect(texts).toEqual(['user: Rename the loader.', 'user: We renamed loadConfig to readConfig.', 'user: Go on.']);
    expect(doc(b.result!.yaml).intro).toContain('For 1 of the 2 requests, after a compaction whose rebuilt history this rollout does not record');
  });

  it('Codex 0.58 writes a call’s token_count before its items, then again after them: each request gets its own call’s usage, the repeats are said', () => {
    const ctx = line('turn_context', { model: 'gpt-5-codex' });
    const call = (n: number) => ({ input_tokens: 9000 + n, cached_input_tokens: 0, output_tokens: 40 + n, reasoning_output_tokens: 30 + n, total_tokens: 9040 + 2 * n });
    const tc = (n: number) => line('event_msg', { type: 'token_count', info: { total_token_usage: call(n), last_token_usage: call(n) }, rate_limits: null });
    const t = jsonl(
      ctx,
      user('q'),
      tc(1), // 3: call 1's usage, before its items
      reasoning('**One**', 3), // 4: request 1
      item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' }),
      item({ type: 'function_call_output', call_id: 'c1', output: 'ok' }),
      ctx,
      tc(1), // 8: the repeat
      tc(2), // 9: call 2's, before its items
      reasoning('**Two**', 4), // 10: request 2
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
      tc(2), // 12: the repeat
    );
    const { result: r, errors: e } = importTrace(t, { file: 'r.jsonl', id: 'r' });
    expect(e.map(formatError)).toEqual([]);
    const ev = doc(r!.yaml).events;
    expect(ev.map((x) => x.payload.measured!.inputTokens)).toEqual([9001, 9002]);
    // Request 2 sends request 1's reasoning back, counted as the 31 reasoning tokens billed for call 1.
    const sent = (ev[1]!.payload.body.input as Record<string, unknown>[]).filter((i) => i.type === 'reasoning');
    expect(sent.map((i) => (i.encrypted_content as { tokens: number }).tokens)).toEqual([31]);
    expect(r!.leftOut.filter((x) => x.what.startsWith('`token_count`')).map((x) => `${x.count} ${x.what} @${x.line}`)).toEqual([
      '2 `token_count` lines repeating the usage just read @8',
    ]);
  });

  it('Codex 0.104 around a compaction writes a zero usage, then repeats it after the new turn_context: the call after it still gets its own usage, and every later call its own', () => {
    const ctx = line('turn_context', { model: 'gpt-5-codex' });
    const use = (input: number, cached: number, output: number) => ({
      input_tokens: input,
      cached_input_tokens: cached,
      output_tokens: output,
      reasoning_output_tokens: 0,
      total_tokens: input + output,
    });
    const tc = (u: ReturnType<typeof use>) => line('event_msg', { type: 'token_count', info: { total_token_usage: u, last_token_usage: u }, rate_limits: null });
    const call = (id: string) => item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: id });
    const out = (id: string) => item({ type: 'function_call_output', call_id: id, output: 'ok' });
    const t = jsonl(
      ctx,
      user('q'),
      call('c1'), // 3: request 1
      tc(use(9000, 0, 40)), // 4: its usage
      out('c1'),
      tc(use(0, 0, 0)), // 6: Codex's zero usage before a compaction
      line('compacted', { message: '', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] }] }),
      ctx,
      tc(use(0, 0, 0)), // 9: the zero usage repeated after the new turn_context
      call('c2'), // 10: request 2
      tc(use(3000, 0, 50)), // 11: its usage
      out('c2'),
      ctx,
      tc(use(3000, 0, 50)), // 14: the repeat
      call('c3'), // 15: request 3
      tc(use(3100, 2900, 60)), // 16: its usage
    );
    const { result: r, errors: e } = importTrace(t, { file: 'r.jsonl', id: 'r' });
    expect(e.map(formatError)).toEqual([]);
    // Each call its own usage (a published 0.104 rollout had every call after its compaction billed with the call before's).
    expect(doc(r!.yaml).events.map((x) => [x.payload.measured!.inputTokens, x.payload.measured!.outputTokens])).toEqual([
      [9000, 40],
      [3000, 50],
      [3100, 60],
    ]);
    expect(r!.leftOut.filter((x) => x.what.startsWith('`token_count`')).map((x) => `${x.count} ${x.what} @${x.line}`)).toEqual([
      // A usage of all zeros bills nothing: not "a call the rollout does not record".
      '1 `token_count` lines with a usage of all zeros @6',
      '2 `token_count` lines repeating the usage just read @9',
    ]);
  });

  it('the earlier format (a first line without `type`, bare items): refused, naming it', () => {
    const old = jsonl(
      { id: '5973b6c0-94b8-487b-a530-2aeb6098ae0e', timestamp: '2025-05-07T17:24:21.123Z', instructions: null },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
    );
    expect(importTrace(old, { file: 'old.jsonl', id: 'old' }).errors.map(formatError)).toEqual([
      'old.jsonl:1:1 error: this is a Codex rollout in the earlier format (a first line `{id, timestamp, instructions}`, then bare response items — before Codex CLI wrote `session_meta` and `turn_context` lines; 0.46 already writes those): it records no model, so no request can be rebuilt\n' +
        '  fix: import a rollout written by a current Codex CLI (lines of {"timestamp", "type", "payload"}); an old session resumed with a current Codex (codex resume) is written in that format',
    ]);
  });

  it('a folder of rollouts as Codex keeps them after a week (zstd, `.jsonl.zst`): each imports as its plain text would, and a plain rollout beside its compressed copy is read in its place — once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-codex-zst-'));
    try {
      const other = '019ad0c1-0000-7000-8000-000000000145';
      // Another session: its plain rollout, and beside it a stale compressed copy holding only its first lines (Codex reads the plain one).
      const second = [{ ...lines[0]!, payload: { ...(lines[0]!.payload as object), id: other } }, ...lines.slice(1)];
      mkdirSync(join(dir, '2026', '11', '30'), { recursive: true });
      writeFileSync(join(dir, '2026', '11', '30', 'rollout-2026-11-30T08-00-00-a.jsonl.zst'), zstdCompressSync(Buffer.from(text)));
      writeFileSync(join(dir, '2026', '11', '30', 'rollout-2026-11-30T09-00-00-b.jsonl'), jsonl(...second));
      writeFileSync(join(dir, '2026', '11', '30', 'rollout-2026-11-30T09-00-00-b.jsonl.zst'), zstdCompressSync(Buffer.from(jsonl(...second.slice(0, 6)))));
      const errors: InputError[] = [];
      const { chunks, files } = readFolder(dir, 'archived_sessions', errors);
      expect(errors.map(formatError)).toEqual([]);
      expect(files).toEqual(['2026/11/30/rollout-2026-11-30T08-00-00-a.jsonl.zst', '2026/11/30/rollout-2026-11-30T09-00-00-b.jsonl']);
      const r = importCapture(chunks, { file: 'archived_sessions', id: 'codex', idOf: (c) => `codex-${c.key.slice(-3)}` });
      expect(r.errors.map(formatError)).toEqual([]);
      expect(r.conversations!.map((c) => [c.conversation.key, c.result.requests, c.result.measured])).toEqual([
        ['019ad0c1-0000-7000-8000-000000000144', result!.requests, result!.measured],
        [other, result!.requests, result!.measured],
      ]);
      // The compressed rollout's requests are the plain text's, line for line (each event names its file and line).
      const bodies = (yaml: string) => doc(yaml).events.map((e) => e.payload.body);
      expect(bodies(r.conversations![0]!.result.yaml)).toEqual(bodies(result!.yaml));
      const notes = (yaml: string) => (parse(yaml) as { events: { note: string }[] }).events.map((e) => e.note);
      expect(notes(r.conversations![0]!.result.yaml)).toEqual(notes(result!.yaml).map((n) => n.replace('the trace', '2026/11/30/rollout-2026-11-30T08-00-00-a.jsonl.zst')));
      expect(notes(result!.yaml)[0]).toBe('line 7 of the trace');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Claude Code transcript with sub-agents', () => {
  const S = '6d1f0a52-3b7e-4c1a-9e2f-0a1b2c3d4e5f';
  let clock = Date.parse('2026-11-30T09:00:00.000Z');
  const at = (ms?: number) => new Date(ms ?? (clock += 1000)).toISOString();
  const base = (extra: Record<string, unknown>) => ({ userType: 'external', cwd: '/work/app', sessionId: S, version: '2.1.121', ...extra });
  const user = (uuid: string, parent: string | null, content: unknown, extra: Record<string, unknown> = {}) =>
    base({
      parentUuid: parent,
      isSidechain: false,
      type: 'user',
      uuid,
      timestamp: at(extra.ms as number | undefined),
      message: { role: 'user', content },
      ...extra,
      ms: undefined,
    });
  const reply = (uuid: string, parent: string, id: string, content: unknown[], u: Record<string, number>, extra: Record<string, unknown> = {}) =>
    base({
      parentUuid: parent,
      isSidechain: false,
      type: 'assistant',
      uuid,
      timestamp: at(extra.ms as number | undefined),
      requestId: `req_${id}`,
      message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: 'tool_use', usage: { output_tokens: 50, ...u } },
      ...extra,
      ms: undefined,
    });
  const usage = (input: number, read: number, write: number) => ({ input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: write });
  const task = {
    type: 'tool_use',
    id: 'toolu_task',
    name: 'Task',
    input: { subagent_type: 'general-purpose', description: 'Find callers', prompt: 'List every caller of loadConfig.' },
  };
  const side = { isSidechain: true, agentId: 'a7c41e09' };
  /** The system line Claude Code writes where it compacted the conversation (after line u4). */
  const compactBoundary = () =>
    base({
      type: 'system',
      subtype: 'compact_boundary',
      parentUuid: null,
      logicalParentUuid: 'u4',
      uuid: 'c1',
      timestamp: at(),
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 155_000 },
    });
  const lines = [
    user('u1', null, 'Rename loadConfig everywhere.'), // 1
    reply('u2', 'u1', 'msg_main_1', [task], usage(3, 0, 14_210)), // 2: the Task call
    user('s1', null, 'List every caller of loadConfig.', side), // 3: the sub-agent's prompt
    reply('s2', 's1', 'msg_sub_1', [{ type: 'tool_use', id: 'toolu_g', name: 'Grep', input: { pattern: 'loadConfig' } }], usage(3, 0, 9_800), side), // 4
    { type: 'progress', sessionId: S, uuid: 'p1', timestamp: at(), data: { type: 'agent_progress' } }, // 5
    user('s3', 's2', [{ type: 'tool_result', tool_use_id: 'toolu_g', content: 'src/main.ts:2' }], side), // 6
    reply('s4', 's3', 'msg_sub_2', [{ type: 'text', text: 'One caller: src/main.ts:2.' }], usage(3, 9_800, 40), side), // 7
    user('u3', 'u2', [{ type: 'tool_result', tool_use_id: 'toolu_task', content: [{ type: 'text', text: 'One caller: src/main.ts:2.' }] }], {
      toolUseResult: { status: 'completed' },
    }), // 8
    reply('u4', 'u3', 'msg_main_2', [{ type: 'text', text: 'Renamed in both files.' }], usage(3, 14_210, 60)), // 9
  ];
  const text = jsonl(...lines);
  const split = (t: string, file = 'session.jsonl') => {
    const errors: InputError[] = [];
    const chunks = readChunks(t, file, errors);
    const r = importCapture(chunks, { file, id: 'cc', idOf: (c) => `cc-${c.key.slice(0, 8)}` });
    expect(r.errors.map(formatError)).toEqual([]);
    return r.conversations!;
  };

  it('--out-dir: the sub-agent is a scenario of its own, sharing the parent’s cache from the parent’s Task call; both check clean together', async () => {
    const [main, sub] = split(text);
    expect([main!.id, main!.conversation, main!.result.requests]).toEqual(['cc-6d1f0a52', { by: 'sessionId', key: S }, 2]);
    expect([sub!.id, sub!.conversation, sub!.result.requests]).toEqual(['cc-a7c41e09', { by: 'agentId', key: 'a7c41e09' }, 2]);
    const d = doc(sub!.result.yaml);
    expect(d.sharesCache).toEqual({ scenario: 'cc-6d1f0a52', at: '@1' });
    expect(sub!.result.sharesCache).toEqual({ scenario: 'cc-6d1f0a52', at: 1 });
    // Its times count from the parent's @1 (line 2: the Task call, sent at +1 s, after line 1); the sub-agent's first request (line 4) is sent after its prompt (line 3, +3 s).
    expect(d.events.map((e) => [e.off, e.t])).toEqual([
      [1, '2s'],
      [2, '5s'],
    ]);
    expect(d.events.map((e) => (e.payload.body.messages as unknown[]).length)).toEqual([1, 3]);
    expect(d.intro).toContain('A sub-agent’s calls: it was started by the session imported as `cc-6d1f0a52`, after that scenario’s @1');
    // The parent's requests hold only its own lines.
    const m = doc(main!.result.yaml).events;
    expect(m.map((e) => [e.off, (e.payload.body.messages as unknown[]).length])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    const r = await render({ file: 'scenarios/cc-main.yaml', text: main!.result.yaml }, { file: 'scenarios/cc-sub.yaml', text: sub!.result.yaml });
    expect(r.errors.map(formatError)).toEqual([]);
  });

  it('one scenario: the session’s requests, and the sub-agent calls said as left out with how to import them', () => {
    const { result, errors } = importTrace(text, { file: 'session.jsonl', id: 'cc' });
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.requests).toBe(2);
    expect(result!.leftOut).toEqual([
      { what: '`progress` lines', count: 1, why: 'Claude Code’s own records, not messages sent to the model', line: 5 },
      {
        what: 'sub-agent calls (1 sub-agent)',
        count: 2,
        why: 'each sub-agent is a conversation of its own: import with --out-dir <folder> to get each as a scenario linked to this one (sharesCache)',
        line: 4,
      },
    ]);
  });

  it('a session folder as Claude Code writes it (<session>.jsonl and <session>/subagents/agent-<id>.jsonl): the sub-agent linked to its parent, each line named by its own file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-cc-folder-'));
    try {
      // The session's own lines in its file; the sub-agent's (and a progress line) in its own file, as versions ≥ 2.1 write them.
      writeFileSync(join(dir, `${S}.jsonl`), jsonl(lines[0], lines[1], lines[7], lines[8]));
      mkdirSync(join(dir, S, 'subagents'), { recursive: true });
      writeFileSync(join(dir, S, 'subagents', 'agent-a7c41e09.jsonl'), jsonl(lines[2], lines[3], lines[4], lines[5], lines[6]));
      // Claude Code leaves empty transcripts behind: skipped, not an error.
      writeFileSync(join(dir, 'empty.jsonl'), '');
      const errors: InputError[] = [];
      const { chunks, files } = readFolder(dir, 'projects/p', errors);
      expect(errors).toEqual([]);
      expect(files).toEqual([`${S}.jsonl`, `${S}/subagents/agent-a7c41e09.jsonl`]);
      const r = importCapture(chunks, { file: 'projects/p', id: 'cc', idOf: (c) => `cc-${c.key.slice(0, 8)}` });
      expect(r.errors.map(formatError)).toEqual([]);
      const [main, sub] = r.conversations!;
      expect([main!.conversation.key, main!.result.requests, sub!.conversation.key, sub!.result.requests]).toEqual([S, 2, 'a7c41e09', 2]);
      expect(sub!.result.sharesCache).toEqual({ scenario: 'cc-6d1f0a52', at: 1 });
      // Each event names the file and line it came from: the sub-agent's first request is line 2 of its own file (its reply), not of the session's.
      const notes = (yaml: string) => (parse(yaml) as { events: { note: string }[] }).events.map((e) => e.note);
      // Named from the folder, not from where the import ran (no local path in the scenario).
      expect(notes(main!.result.yaml)).toEqual([`line 2 of ${S}.jsonl`, `line 4 of ${S}.jsonl`]);
      expect(notes(sub!.result.yaml)).toEqual([`line 2 of ${S}/subagents/agent-a7c41e09.jsonl`, `line 5 of ${S}/subagents/agent-a7c41e09.jsonl`]);
      // What was left out says in which file it was first met.
      expect(r.leftOut!.map((e) => leftOutLine('projects/p', e))).toEqual([
        `left out of projects/p: 1 \`progress\` lines (Claude Code’s own records, not messages sent to the model; first at line 3 of projects/p/${S}/subagents/agent-a7c41e09.jsonl)`,
      ]);
      const checked = await render({ file: 'scenarios/cc-main.yaml', text: main!.result.yaml }, { file: 'scenarios/cc-sub.yaml', text: sub!.result.yaml });
      expect(checked.errors.map(formatError)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a project folder imports a session at a time, each with its sub-agents — in 2.1’s subagents/ folder or, as earlier versions wrote them, beside the session — the next read only after the one before is handed on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-cc-project-'));
    try {
      const S2 = '9a8b7c6d-0000-4000-8000-000000000002';
      const renamed = (v: Record<string, unknown>) => ({
        ...v,
        sessionId: S2,
        uuid: `b-${v.uuid}`,
        parentUuid: v.parentUuid ? `b-${v.parentUuid}` : null,
        ...(v.agentId !== undefined && { agentId: 'b9d2f311' }),
      });
      const pick = (is: number[], f = (v: Record<string, unknown>) => v) => is.map((i) => f(lines[i] as Record<string, unknown>));
      writeFileSync(join(dir, `${S}.jsonl`), jsonl(...pick([0, 1, 7, 8])));
      mkdirSync(join(dir, S, 'subagents'), { recursive: true });
      writeFileSync(join(dir, S, 'subagents', 'agent-a7c41e09.jsonl'), jsonl(...pick([2, 3, 4, 5, 6])));
      writeFileSync(join(dir, `${S2}.jsonl`), jsonl(...pick([0, 1, 7, 8], renamed)));
      // The earlier layout: the sub-agent's file beside the sessions, opening with a line that names no session.
      writeFileSync(join(dir, 'agent-b9d2f311.jsonl'), jsonl({ type: 'summary', summary: 'Callers of loadConfig', leafUuid: 'b-s4' }, ...pick([2, 3, 4, 5, 6], renamed)));
      const handed: { id: string; requests: number; sharesCache?: unknown }[] = [];
      const intros: string[] = [];
      const { result, errors } = await importCaptureLog({ file: 'projects/p', path: dir, prefix: 'cc' }, (c, r) => {
        handed.push({ id: c.id, requests: r.requests, ...(r.sharesCache && { sharesCache: r.sharesCache }) });
        intros.push(doc(r.yaml).intro);
        // The second session's file changes once the first session is handed on: read a session at a time, the import sees the change.
        if (handed.length === 1)
          appendFileSync(
            join(dir, `${S2}.jsonl`),
            jsonl(
              ...pick([0], renamed).map((v) => ({ ...v, uuid: 'b-u5', parentUuid: 'b-u4', timestamp: '2026-11-30T10:00:00.000Z' })),
              renamed({ ...(lines[8] as Record<string, unknown>), uuid: 'u6', parentUuid: 'b-u5', timestamp: '2026-11-30T10:00:01.000Z' }),
            ),
          );
        return [];
      });
      expect(errors.map(formatError)).toEqual([]);
      const [main1, sub1, main2, sub2] = handed;
      expect(handed.map((h) => h.requests)).toEqual([2, 2, 3, 2]);
      expect([main1!.id, sub1!.id, main2!.id, sub2!.id]).toEqual([`cc-${S}`, 'cc-a7c41e09', `cc-${S2}`, 'cc-b9d2f311']);
      expect(sub1!.sharesCache).toEqual({ scenario: main1!.id, at: 1 });
      expect(sub2!.sharesCache).toEqual({ scenario: main2!.id, at: 1 });
      // Each says it is one of the folder's sessions' conversations, not "of a capture of 2" (its session's count).
      expect(intros.map((t) => t.split(':')[0])).toEqual(Array(4).fill('One conversation of a folder of 2 sessions'));
      // What was left out, counted over the whole folder, first met in the first file that holds one.
      expect(result!.leftOut!.map((e) => [e.what, e.count, e.line, e.file])).toEqual([
        ['`progress` lines', 2, 3, `projects/p/${S}/subagents/agent-a7c41e09.jsonl`],
        ['`summary` lines', 1, 1, 'projects/p/agent-b9d2f311.jsonl'],
      ]);
      expect(result!.lines).toBe(4 + 5 + 6 + 6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Claude Code’s compaction call (subagents/agent-acompact-<id>.jsonl, 2.1.x): linked to its session, and its request says it lacks the conversation it summarises', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-cc-acompact-'));
    try {
      writeFileSync(join(dir, `${S}.jsonl`), jsonl(lines[0], lines[1], lines[7], lines[8]));
      mkdirSync(join(dir, S, 'subagents'), { recursive: true });
      const compactor = { isSidechain: true, agentId: 'acompact-e1f845' };
      // Its lines: the summary request (its parent the session's last line) and the summary; its bill reads the session's cache.
      writeFileSync(
        join(dir, S, 'subagents', 'agent-acompact-e1f845.jsonl'),
        jsonl(
          user('k1', 'u4', 'Your task is to create a detailed summary of the conversation so far.', compactor),
          reply('k2', 'k1', 'msg_compact', [{ type: 'text', text: '<summary>Renamed loadConfig.</summary>' }], usage(3, 14_270, 90), compactor),
        ),
      );
      const got: { id: string; yaml: string; unrecorded?: string[] }[] = [];
      const { errors } = await importCaptureLog({ file: 'projects/p', path: dir, prefix: 'cc' }, (c, r) => {
        got.push({ id: c.id, yaml: r.yaml, unrecorded: (doc(r.yaml).events[0]!.payload as { unrecorded?: string[] }).unrecorded });
        return [];
      });
      expect(errors.map(formatError)).toEqual([]);
      const compaction = got.find((g) => g.id === 'cc-acompact-e1f845')!;
      const summarised = 'the conversation it summarises (the session’s messages before it, which Claude Code sends ahead of its summary request)';
      expect(compaction.unrecorded).toContain(summarised);
      const d = doc(compaction.yaml);
      expect(d.sharesCache).toEqual({ scenario: `cc-${S}`, at: '@2' });
      expect(d.intro.replace(/\s+/g, ' ')).toContain('this is Claude Code compacting the session (an `agent-acompact-*` transcript)');
      // The session's own requests say nothing of it.
      expect(got.find((g) => g.id === `cc-${S}`)!.unrecorded ?? []).not.toContain(summarised);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a folder with no .jsonl file is an error that says what to give', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-cc-empty-'));
    try {
      writeFileSync(join(dir, 'notes.txt'), 'not a transcript');
      const errors: InputError[] = [];
      expect(readFolder(dir, 'projects/none', errors).chunks).toEqual([]);
      expect(errors.map(formatError)).toEqual([
        'projects/none:1:1 error: the folder holds no .jsonl (or .jsonl.zst) file\n  fix: give a Claude Code project folder (~/.claude/projects/<project>/), a session’s folder, a folder of Codex rollouts (~/.codex/sessions/), or a capture file',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parallel tool calls: one reply written as a line per tool_use with the first result between them is one request, and the next holds both calls then both results', () => {
    const A = { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { file_path: 'a.ts' } };
    const B = { type: 'tool_use', id: 'toolu_b', name: 'Read', input: { file_path: 'b.ts' } };
    const t = jsonl(
      user('p1', null, 'Compare a.ts and b.ts.'),
      reply('r1', 'p1', 'msg_par', [A], usage(3, 0, 9_000)),
      user('x1', 'r1', [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'A' }]),
      reply('r2', 'x1', 'msg_par', [B], usage(3, 0, 9_000)),
      user('x2', 'r2', [{ type: 'tool_result', tool_use_id: 'toolu_b', content: 'B' }]),
      reply('r3', 'x2', 'msg_next', [{ type: 'text', text: 'They differ.' }], usage(3, 9_000, 120)),
    );
    const { result, errors } = importTrace(t, { file: 'par.jsonl', id: 'par' });
    expect(errors.map(formatError)).toEqual([]);
    const d = doc(result!.yaml);
    // Two API calls (msg_par, msg_next), not three: the usage of msg_par is billed once.
    expect(d.events.map((e) => e.payload.measured?.cacheWriteTokens)).toEqual([9_000, 120]);
    const messages = d.events[1]!.payload.body.messages as { role: string; content: { type: string; id?: string; tool_use_id?: string }[] }[];
    expect(messages.map((m) => [m.role, m.content.map((b) => b.id ?? b.tool_use_id ?? b.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['toolu_a', 'toolu_b']],
      ['user', ['toolu_a', 'toolu_b']],
    ]);
  });

  it('a hook that can add to the context ran (a `hook_progress` line, as 2.1.39 writes it): the requests after it say they lack its output, if any; a PreToolUse hook says nothing', () => {
    const progress = (uuid: string, parent: string, hookEvent: string) =>
      base({ type: 'progress', uuid, parentUuid: parent, timestamp: at(), data: { type: 'hook_progress', hookEvent, hookName: `${hookEvent}:Edit`, command: 'lint.sh' } });
    const said = (text: string) =>
      importTrace(text, { file: 'hooks.jsonl', id: 'hooks' }).result!.yaml.includes('the context its hooks added, if any (SessionStart, UserPromptSubmit or PostToolUse hooks ran');
    const withHook = (event: string) => jsonl(lines[0], progress('h1', 'u1', event), reply('u2x', 'u1', 'msg_h', [{ type: 'text', text: 'Done.' }], usage(3, 0, 100)));
    expect(said(withHook('PostToolUse'))).toBe(true);
    expect(said(withHook('SessionStart'))).toBe(true);
    expect(said(withHook('PreToolUse'))).toBe(false);
    const d = doc(importTrace(withHook('PostToolUse'), { file: 'hooks.jsonl', id: 'hooks' }).result!.yaml);
    expect((d.events[0]!.payload as { unrecorded?: string[] }).unrecorded).toContain(
      'the context its hooks added, if any (SessionStart, UserPromptSubmit or PostToolUse hooks ran — its `hook_progress` lines — and the transcript does not hold their output)',
    );
  });

  it('a rewind: the prompt written after it continues from the line its parentUuid names, so the abandoned turn is not sent again (the shape of claude-code-log’s dag_compact_after_rewind test data)', () => {
    const text = (t: string) => [{ type: 'text', text: t }];
    const t = jsonl(
      user('w1', null, 'Start.'),
      reply('w2', 'w1', 'msg_w1', text('Ready.'), usage(3, 0, 5_000)),
      user('w3', 'w2', 'First attempt.'),
      reply('w4', 'w3', 'msg_w2', text('First answer.'), usage(3, 5_000, 40)),
      // Rewound to after "Ready.": the new prompt's parent is w2, not w4.
      user('w5', 'w2', 'Second attempt.'),
      reply('w6', 'w5', 'msg_w3', text('Second answer.'), usage(3, 5_000, 30)),
      user('w7', 'w6', 'Thanks.'),
      reply('w8', 'w7', 'msg_w4', text('You are welcome.'), usage(3, 5_030, 10)),
    );
    const { result, errors } = importTrace(t, { file: 'rewind.jsonl', id: 'rewind' });
    expect(errors.map(formatError)).toEqual([]);
    const said = (e: Ev) => (e.payload.body.messages as { content: { text?: string }[] }[]).map((m) => m.content.map((b) => b.text).join(' '));
    expect(doc(result!.yaml).events.map(said)).toEqual([
      ['Start.'],
      ['Start.', 'Ready.', 'First attempt.'],
      ['Start.', 'Ready.', 'Second attempt.'],
      ['Start.', 'Ready.', 'Second attempt.', 'Second answer.', 'Thanks.'],
    ]);
  });

  it('a sub-agent’s own file (subagents/agent-<id>.jsonl: only its lines) imports, and says its session is not in the trace', () => {
    const own = jsonl(lines[2], lines[3], lines[5], lines[6]);
    const { result, errors } = importTrace(own, { file: 'agent-a7c41e09.jsonl', id: 'agent' });
    expect(errors.map(formatError)).toEqual([]);
    expect(doc(result!.yaml).events.map((e) => e.off)).toEqual([1, 2]);
    expect(doc(result!.yaml).intro.replace(/\s+/g, ' ')).toContain(
      `A sub-agent’s calls: it was started by the conversation whose \`sessionId\` is \`${S}\`, which the capture does not hold — so the provider cache it started from is not linked (\`sharesCache:\`), and its first request is read as if nothing were cached.`,
    );
  });

  it('older versions (no agentId): sub-agents told apart by their parentUuid chains, two at once', () => {
    const old = (l: Record<string, unknown>) => {
      const { agentId: _, ...rest } = l;
      return { ...rest, version: '1.0.17' };
    };
    // A second sub-agent started by the same Task turn, its lines interleaved with the first's.
    const started = Date.parse((lines[2] as { timestamp: string }).timestamp);
    const second = [
      user('t1', null, 'Find the tests of loadConfig.', { isSidechain: true, ms: started + 100 }),
      reply('t2', 't1', 'msg_sub_b', [{ type: 'text', text: 'config.test.ts' }], usage(3, 0, 9_700), { isSidechain: true, ms: started + 600 }),
    ];
    const t = jsonl(lines[0], lines[1], old(lines[2]!), second[0], old(lines[3]!), second[1], old(lines[5]!), old(lines[6]!), lines[7], lines[8]);
    const cs = split(t);
    expect(cs.map((c) => [c.conversation.by, c.conversation.key, c.result.requests, c.result.sharesCache])).toEqual([
      ['sessionId', S, 2, undefined],
      ['sub-agent chain from uuid', 's1', 2, { scenario: 'cc-6d1f0a52', at: 1 }],
      ['sub-agent chain from uuid', 't1', 1, { scenario: 'cc-6d1f0a52', at: 1 }],
    ]);
  });

  it('a compaction boundary: the next request holds the summary and what follows, not the turns before', () => {
    const t = jsonl(
      lines[0],
      lines[1],
      lines[7],
      lines[8],
      compactBoundary(),
      user('c2', 'c1', 'This session is being continued from a previous conversation. Summary: loadConfig was renamed.', {
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      }),
      user('c3', 'c2', 'Now update the docs.'),
      reply('c4', 'c3', 'msg_main_3', [{ type: 'text', text: 'Docs updated.' }], usage(3, 0, 900)),
    );
    const { result, errors } = importTrace(t, { file: 's.jsonl', id: 's' });
    expect(errors.map(formatError)).toEqual([]);
    const ev = doc(result!.yaml).events;
    expect(ev.map((e) => e.off)).toEqual([1, 2, 3]);
    const after = ev[2]!.payload.body.messages as { role: string; content: { text: string }[] }[];
    expect(after.map((m) => [m.role, m.content.map((b) => b.text)])).toEqual([
      ['user', ['This session is being continued from a previous conversation. Summary: loadConfig was renamed.', 'Now update the docs.']],
    ]);
  });

  it('2.1.121: a line written a millisecond before the one above it imports into a scenario that checks clean, and says so', async () => {
    const t0 = Date.parse('2026-11-30T10:00:00.000Z');
    const t = jsonl(
      user('v1', null, 'First question.', { ms: t0 }),
      reply('v2', 'v1', 'msg_v_1', [{ type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: 'a.ts' } }], usage(3, 0, 14_000), { ms: t0 + 1_500 }),
      user('v3', 'v2', [{ type: 'tool_result', tool_use_id: 'toolu_r', content: 'export {}' }], { ms: t0 + 1_800 }),
      reply('v4', 'v3', 'msg_v_2', [{ type: 'tool_use', id: 'toolu_s', name: 'Read', input: { file_path: 'b.ts' } }], usage(3, 14_000, 30), { ms: t0 + 2_600 }),
      // Written after, stamped a millisecond before the request above was sent.
      user('v5', 'v4', [{ type: 'tool_result', tool_use_id: 'toolu_s', content: 'export {}' }], { ms: t0 + 1_799 }),
      reply('v6', 'v5', 'msg_v_3', [{ type: 'text', text: 'Both are empty.' }], usage(3, 14_030, 20), { ms: t0 + 3_000 }),
    );
    const { result, errors } = importTrace(t, { file: 's.jsonl', id: 'ooo' });
    expect(errors.map(formatError)).toEqual([]);
    const d = doc(result!.yaml);
    expect(d.events.map((e) => e.t)).toEqual(['0ms', '1.8s', '1.8s']);
    expect(d.intro).toContain('For 1 of the 3 requests, its recorded time is before the previous request’s (by 1ms at most');
    expect((await render({ file: 'scenarios/ooo.yaml', text: result!.yaml })).errors.map(formatError)).toEqual([]);
  });

  it('2.1.x `attachment` lines (a hook’s context, the skill listing): counted as context not rebuilt, and each request after one says it lacks it — until a compaction', async () => {
    const attachment = (uuid: string, parent: string, a: Record<string, unknown>) =>
      base({ parentUuid: parent, isSidechain: false, type: 'attachment', uuid, timestamp: at(), attachment: a });
    const t = jsonl(
      lines[0],
      lines[1], // request 1: before any attachment
      attachment('a1', 'u2', { type: 'hook_additional_context', content: ['Run the tests before you commit.'], hookName: 'PostToolUse' }),
      lines[7],
      lines[8], // request 2: after it
      compactBoundary(),
      user('c2', 'c1', 'Now update the docs.'),
      reply('c3', 'c2', 'msg_main_3', [{ type: 'text', text: 'Docs updated.' }], usage(3, 0, 900)), // request 3: after the compaction
    );
    const { result, errors } = importTrace(t, { file: 's.jsonl', id: 'att' });
    expect(errors.map(formatError)).toEqual([]);
    const lacks = (e: Ev): boolean => ((e.payload as { unrecorded?: string[] }).unrecorded ?? []).some((u) => u.startsWith('the context Claude Code attached to the turns'));
    expect(doc(result!.yaml).events.map(lacks)).toEqual([false, true, false]);
    expect(result!.leftOut.find((l) => l.what === '`attachment` lines')).toMatchObject({ count: 1, line: 3, why: expect.stringContaining('not as the text the model read') });
    // The page's bill comparison names it among what the capture lacks, on request 2 only.
    const rendered = await render({ file: 'scenarios/att.yaml', text: result!.yaml });
    expect(rendered.errors.map(formatError)).toEqual([]);
    const m = measuredComparison(rendered.scenarios[0]!, rendered.economics.get('att')!)!;
    expect(m.requests.map((q) => q.unrecorded.some((u) => u.includes('`attachment` lines')))).toEqual([false, true, false]);
  });

  describe('2.1.x `agent_progress` lines: the session’s transcript repeating a sub-agent (as 2.1.39 writes them in marot/spotter’s published transcripts)', () => {
    /** A `progress` line repeating one line of the sub-agent's own transcript (`data.message`), as the session's transcript holds it. */
    const mirror = (uuid: string, line: Record<string, unknown>, agentId = 'a7c41e09') =>
      base({
        parentUuid: 'u2',
        isSidechain: false,
        type: 'progress',
        uuid,
        timestamp: at(),
        toolUseID: `agent_msg_${uuid}`,
        parentToolUseID: 'toolu_task',
        data: { type: 'agent_progress', agentId, prompt: 'List every caller of loadConfig.', normalizedMessages: [], message: line },
      });
    const sub = (type: 'user' | 'assistant', message: Record<string, unknown>, uuid: string) => ({
      type,
      message,
      uuid,
      timestamp: at(),
      ...(type === 'assistant' && { requestId: `req_${uuid}` }),
    });
    const subReply = (id: string, block: Record<string, unknown>, u: Record<string, number>, output: number) => ({
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5-20251001',
      content: [block],
      stop_reason: null,
      usage: { ...u, output_tokens: output },
    });
    const grep = (id: string) => ({ type: 'tool_use', id, name: 'Grep', input: { pattern: 'loadConfig' } });
    // Its prompt, a reply with one tool call, its result, a reply of two parallel calls (a line each, the output count so far on each), their results.
    // Its last reply (text only) is not repeated, as Claude Code writes it.
    const mirrored = (agentId?: string) => [
      mirror('m1', sub('user', { role: 'user', content: [{ type: 'text', text: 'List every caller of loadConfig.' }] }, 's1'), agentId),
      mirror('m2', sub('assistant', subReply('msg_sub_1', grep('toolu_g'), usage(3, 0, 9_800), 1), 's2'), agentId),
      mirror('m3', sub('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_g', content: 'src/main.ts:2' }] }, 's3'), agentId),
      mirror('m4', sub('assistant', subReply('msg_sub_2', grep('toolu_h'), usage(5, 9_800, 120), 1), 's4'), agentId),
      mirror('m5', sub('assistant', subReply('msg_sub_2', grep('toolu_i'), usage(5, 9_800, 120), 7), 's5'), agentId),
      mirror('m6', sub('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_h', content: 'none' }] }, 's6'), agentId),
    ];
    /** The session's own lines with the sub-agent's repeated between its Task call and the call's result. */
    const session = (agentId?: string) => jsonl(lines[0], lines[1], ...mirrored(agentId), lines[7], lines[8]);
    // What the provider billed for its two tool-calling replies, input of every kind (the fixture's own numbers).
    const billedInput = 3 + 0 + 9_800 + (5 + 9_800 + 120);

    it('without the sub-agent’s own transcript: its requests are not in the capture, and the import and the session’s page say how many and what they were billed', async () => {
      const t = session();
      const { result, errors } = importTrace(t, { file: 'session.jsonl', id: 'mirrored' });
      expect(errors.map(formatError)).toEqual([]);
      expect(result!.requests).toBe(2);
      expect(result!.leftOut).toEqual([
        {
          what: '`agent_progress` lines',
          count: 6,
          why: 'a sub-agent’s prompt, tool calls and tool results as its session’s transcript repeats them, not the requests it sent (see the requests of the sub-agent)',
          line: 3,
        },
        {
          what: 'requests of sub-agent `a7c41e09`',
          count: 2,
          why: `its own transcript (\`agent-a7c41e09.jsonl\` in the session’s \`subagents/\` folder) was not read, and the session’s \`agent_progress\` lines repeat its prompt, tool calls and tool results, not the requests it sent: its 2 tool-calling replies, counted here, were billed ${billedInput.toLocaleString('en-US')} input tokens (cached and written ones included), and its last reply is not repeated at all; import the session’s folder to read it as a scenario linked to this one`,
          line: 3,
          requests: { conversation: { by: 'sessionId', key: S } },
        },
      ]);
      expect(billedInput.toLocaleString('en-US')).toBe('19,728');
      const d = doc(result!.yaml);
      expect(d.intro).toContain('Not in the capture — requests of sub-agent `a7c41e09` (2): its own transcript');
      expect(d.intro).toContain('billed 19,728 input tokens');
      const rendered = await render({ file: 'scenarios/mirrored.yaml', text: result!.yaml });
      expect(rendered.errors.map(formatError)).toEqual([]);
    });

    it('--out-dir: the session’s scenario says it, not the other conversations of the capture', () => {
      const other = (x: Record<string, unknown>) => ({ ...x, sessionId: 'other-session', uuid: `o-${String(x.uuid)}` });
      const t = `${session()}${jsonl(other(user('x1', null, 'Unrelated.')), other(reply('x2', 'o-x1', 'msg_other', [{ type: 'text', text: 'Ok.' }], usage(3, 0, 0))))}`;
      const errors: InputError[] = [];
      const r = importCapture(readChunks(t, 'two.jsonl', errors), { file: 'two.jsonl', id: 'cc', idOf: (c) => `cc-${c.key.slice(0, 8)}` });
      expect([...errors, ...r.errors].map(formatError)).toEqual([]);
      const intros = r.conversations!.map((c) => [c.conversation.key, doc(c.result.yaml).intro.includes('Not in the capture — requests of sub-agent')]);
      expect(intros).toEqual([
        [S, true],
        ['other-session', false],
      ]);
    });

    it('with the sub-agent’s own transcript: the repeats are said as repeats, and nothing is said missing', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pfe-cc-mirror-'));
      try {
        writeFileSync(join(dir, `${S}.jsonl`), session());
        mkdirSync(join(dir, S, 'subagents'), { recursive: true });
        writeFileSync(join(dir, S, 'subagents', 'agent-a7c41e09.jsonl'), jsonl(lines[2], lines[3], lines[5], lines[6]));
        const errors: InputError[] = [];
        const { chunks } = readFolder(dir, 'projects/p', errors);
        const r = importCapture(chunks, { file: 'projects/p', id: 'cc', idOf: (c) => `cc-${c.key.slice(0, 8)}` });
        expect([...errors, ...r.errors].map(formatError)).toEqual([]);
        expect(r.leftOut).toEqual([
          {
            what: '`agent_progress` lines',
            count: 6,
            why: 'a sub-agent’s lines as its session’s transcript repeats them, read from the sub-agent’s own transcript instead',
            line: 3,
            file: `projects/p/${S}.jsonl`,
          },
        ]);
        expect(r.conversations!.map((c) => [c.conversation.key, c.result.requests, doc(c.result.yaml).intro.includes('Not in the capture')])).toEqual([
          [S, 2, false],
          ['a7c41e09', 2, false],
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a `continued-in` line (the session went on under a new id): said with the session that holds the rest', () => {
      const next = '9b2e4c1d-0000-4000-8000-00000000beef';
      const t = jsonl(lines[0], lines[1], lines[7], lines[8], { type: 'continued-in', timestamp: at(), sessionId: S, continuedInSessionId: next });
      const { result, errors } = importTrace(t, { file: 'session.jsonl', id: 'cont' });
      expect(errors.map(formatError)).toEqual([]);
      expect(result!.requests).toBe(2);
      expect(result!.leftOut).toEqual([
        {
          what: '`continued-in` lines',
          count: 1,
          why: `the conversation went on as session \`${next}\` (Claude Code continues a session sent to the background, or forked, under a new id): its later requests are in that session’s transcript`,
          line: 5,
        },
      ]);
    });

    it('a sub-agent id with backticks is fenced as code on the page, not read as Markdown', () => {
      const { result, errors } = importTrace(session('a`b'), { file: 'session.jsonl', id: 'mirrored' });
      expect(errors.map(formatError)).toEqual([]);
      expect(doc(result!.yaml).intro).toContain('Not in the capture — requests of sub-agent `` a`b `` (2): its own transcript (`` agent-a`b.jsonl `` in the session’s');
    });
  });
});
