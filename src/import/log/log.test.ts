/**
 * A log of many conversations → one scenario per conversation: grouped by each key the formats
 * carry (prompt_cache_key, user, metadata.user_id, conversation) and, failing those, by the prefix
 * chain; every position still names the log's own line; problems from every conversation are
 * collected (nothing handed over as a result); a single-conversation import of such a log is
 * refused with the fix; a re-import keeps annotations.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatError } from '../../scenarios/errors.ts';
import { importTrace, type ImportResult } from '../index.ts';
import { Grouper, type Conversation } from './group.ts';
import { idPart, importLog, MAX_PROBLEMS, scenarioId, type LogConversation } from './index.ts';
import { withBodies } from '../../../tests/support/imported.ts';

const dir = mkdtempSync(join(tmpdir(), 'import-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function run(lines: unknown[], o: { previous?: (id: string) => string | undefined; raw?: string } = {}) {
  const path = join(dir, `log-${++n}.jsonl`);
  writeFileSync(path, o.raw ?? `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const got: { conv: LogConversation; result: ImportResult }[] = [];
  const out = await importLog({ file: 'logs/day.jsonl', path, prefix: 'day', ...(o.previous && { previous: o.previous }) }, (conv, result) => {
    got.push({ conv, result });
    return [];
  });
  return { ...out, got, messages: out.errors.map(formatError) };
}

const events = (yaml: string) => withBodies((parse(yaml) as { events: { off: number; note: string; payload: { body: Record<string, unknown> } }[] }).events);
/** The trace line an imported event came from (its note); events are numbered 1..N in the order sent. */
const traceLine = (e: { note?: string }): number => Number(/^line (\d+) of the trace$/.exec(e.note ?? '')?.[1]);
const chat = (key: Record<string, unknown>, turns: number) => ({
  model: 'gpt-5',
  ...key,
  messages: [{ role: 'system', content: 'S' }, ...Array.from({ length: turns }, (_, i) => ({ role: 'user', content: `q${i}` }))],
});

describe('text encodings', () => {
  it('reads past a UTF-8 byte order mark, reads a gzipped log decompressed, and stops at the first line of UTF-16 text or where a cut-short gzip ends, saying so once', async () => {
    const lines = [chat({ prompt_cache_key: 'k' }, 1), chat({ prompt_cache_key: 'k' }, 2)].map((l) => JSON.stringify(l));
    const bom = await run([], { raw: `\uFEFF${lines.join('\n')}\n` });
    expect(bom.messages).toEqual([]);
    expect(bom.got.map((g) => g.conv.lines)).toEqual([[1, 2]]);
    const path = join(dir, 'utf16.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf16le')]));
    const out = await importLog({ file: 'logs/day.jsonl', path, prefix: 'day' }, () => []);
    expect(out.result).toBeUndefined();
    expect(out.errors.map(formatError)).toEqual([expect.stringMatching(/^logs\/day\.jsonl:1:4 error: the file holds a NUL character here: it is UTF-16 text/)]);
    // A rotated log, gzipped: read decompressed, its lines numbered as the text's.
    writeFileSync(path, gzipSync(`${lines.join('\n')}\n`));
    const got: LogConversation[] = [];
    const packed = await importLog({ file: 'logs/day.jsonl.gz', path, prefix: 'day' }, (conv) => {
      got.push(conv);
      return [];
    });
    expect(packed.errors).toEqual([]);
    expect(got.map((c) => c.lines)).toEqual([[1, 2]]);
    // Cut short (a copy of a log still being written): the lines before are read, then one error where it ends.
    const many = Array.from({ length: 400 }, (_, i) => JSON.stringify(chat({ prompt_cache_key: `k${i % 5}` }, 1 + (i % 3)))).join('\n');
    const whole = gzipSync(`${many}\n`, { level: 0 }); // stored, not squeezed: half the bytes are half the lines
    writeFileSync(path, whole.subarray(0, whole.length >> 1));
    const cut = await importLog({ file: 'logs/day.jsonl.gz', path, prefix: 'day' }, () => []);
    expect(cut.result).toBeUndefined();
    expect(cut.errors.map(formatError)).toEqual([
      expect.stringMatching(
        /^logs\/day\.jsonl\.gz:(\d+):1 error: the file is gzip-compressed but does not decompress after line \d+: unexpected end of file\n {2}fix: check that the file is whole \(a download cut short\? a log still being written\?\) — `gunzip -t day\.jsonl\.gz` tests it$/,
      ),
    ]);
    const [, at, after] = /:(\d+):1 .* after line (\d+):/.exec(formatError(cut.errors[0]!))!;
    expect(Number(at)).toBe(Number(after) + 1);
    expect(Number(after)).toBeGreaterThan(100); // the lines before the cut were read
  });
});

describe('one scenario per conversation', () => {
  it('interleaved prompt_cache_key conversations: each scenario holds its own lines, in order, and says its key', async () => {
    const a = { prompt_cache_key: 'conv-a', user: 'u1' };
    const b = { prompt_cache_key: 'conv-b', user: 'u1' };
    const r = await run([chat(a, 1), chat(b, 1), chat(a, 2), chat(b, 2), chat(b, 3)]);
    expect(r.messages).toEqual([]);
    expect(r.got.map((g) => [g.conv.id, g.conv.conversation, g.conv.requests, g.conv.lines])).toEqual([
      ['day-conv-a', { by: 'prompt_cache_key', key: 'conv-a' }, 2, [1, 3]],
      ['day-conv-b', { by: 'prompt_cache_key', key: 'conv-b' }, 3, [2, 5]],
    ]);
    const ev = events(r.got[1]!.result.yaml);
    expect(ev.map((e) => [traceLine(e), e.note])).toEqual([
      [2, 'line 2 of the trace'],
      [4, 'line 4 of the trace'],
      [5, 'line 5 of the trace'],
    ]);
    expect(r.got[1]!.result.yaml).toContain('One conversation of a log: the requests whose `prompt_cache_key` is `conv-b`.');
    expect(r.got[1]!.result.yaml).toContain('title: Imported trace — day.jsonl · prompt_cache_key `conv-b`');
    expect(r.got[1]!.result.yaml).toContain('(openai-chat, grouped by prompt_cache_key)');
    expect(r.result!.conversations).toHaveLength(2);
  });

  it('user, Anthropic metadata.user_id and Responses conversation ids group too; wrapped lines are read', async () => {
    const anth = (u: string, q: string) => ({
      timestamp: '2026-12-01T10:00:00Z',
      body: { model: 'claude-x', max_tokens: 9, system: 'S', metadata: { user_id: u }, messages: [{ role: 'user', content: q }] },
    });
    const r = await run([
      chat({ user: 'alice' }, 1),
      anth('u-9', 'x'),
      { model: 'gpt-5', conversation: { id: 'conv_123' }, input: 'hi' },
      chat({ user: 'alice' }, 2),
      anth('u-9', 'y'),
    ]);
    expect(r.messages).toEqual([]);
    expect(r.got.map((g) => [g.conv.id, g.conv.conversation.by, g.conv.requests, g.result.format])).toEqual([
      ['day-alice', 'user', 2, 'openai-chat'],
      ['day-u-9', 'metadata.user_id', 2, 'anthropic'],
      ['day-conv_123', 'conversation', 1, 'openai-responses'],
    ]);
  });

  it('without keys, by prefix chain: a request joins the conversation it extends (the longest); a retry joins too', async () => {
    const m = (...qs: string[]) => ({ model: 'gpt-5', messages: qs.map((q, i) => ({ role: i % 2 ? 'assistant' : 'user', content: q })) });
    const r = await run([m('a'), m('b'), m('a', 'A', 'a2'), m('b', 'B', 'b2'), m('b', 'B', 'b2'), m('a', 'A', 'a2', 'A2', 'a3'), m('c')]);
    expect(r.messages).toEqual([]);
    expect(r.got.map((g) => [g.conv.id, g.conv.conversation, events(g.result.yaml).map((e) => traceLine(e))])).toEqual([
      ['day-chain-1', { by: 'prefix chain', key: 'chain 1' }, [1, 3, 6]],
      ['day-chain-2', { by: 'prefix chain', key: 'chain 2' }, [2, 4, 5]],
      ['day-chain-3', { by: 'prefix chain', key: 'chain 3' }, [7]],
    ]);
    expect(r.got[0]!.result.yaml).toContain('grouped by its prefix chain (chain 1');
  });

  it('ids: keys become [a-z0-9-] parts, and two keys of one part are told apart', async () => {
    expect(idPart('User@Example.COM')).toBe('user-example-com');
    expect(idPart('***')).toBe('conversation');
    const r = await run([chat({ user: 'A b' }, 1), chat({ user: 'a-b' }, 1), chat({ user: 'A b' }, 2)]);
    expect(r.got.map((g) => g.conv.id)).toEqual(['day-a-b', 'day-a-b-2']);
  });

  it('ids: a file named after its conversation (a Claude Code transcript is `<sessionId>.jsonl`, a Codex rollout ends with its session id) is not named twice', () => {
    const session: Conversation = { by: 'sessionId', key: 'FA81-2b' };
    expect(scenarioId('fa81-2b', session, new Set())).toBe('fa81-2b');
    expect(scenarioId('rollout-2026-02-23t12-54-34-fa81-2b', session, new Set())).toBe('rollout-2026-02-23t12-54-34-fa81-2b');
    // Only a whole part at the end counts: `xfa81-2b` is another name.
    expect(scenarioId('xfa81-2b', session, new Set())).toBe('xfa81-2b-fa81-2b');
    // Unique still: the second conversation of that name gets a number.
    const ids = new Set(['fa81-2b']);
    expect(scenarioId('fa81-2b', session, ids)).toBe('fa81-2b-2');
  });

  it('a key with markdown or backticks stays inert text in the title and intro', async () => {
    const r = await run([chat({ user: '<script>x</script> `tick`' }, 1)]);
    expect(r.messages).toEqual([]);
    const doc = parse(r.got[0]!.result.yaml) as { title: string; intro: string };
    expect(doc.title).toContain('`` <script>x</script> `tick` ``');
    expect(doc.intro).toContain('`` <script>x</script> `tick` ``');
  });

  it('the prefix chain reads each format’s own message list (its adapter’s messageList): Gemini `contents` chain too', () => {
    const g = new Grouper();
    const turn = (text: string, role = 'user') => ({ role, parts: [{ text }] });
    const a = g.assign({ model: 'gemini-2.5-flash', contents: [turn('q')] });
    const b = g.assign({ model: 'gemini-2.5-flash', contents: [turn('other')] });
    const a2 = g.assign({ model: 'gemini-2.5-flash', contents: [turn('q'), turn('a', 'model'), turn('q2')] });
    expect([a.key, b.key, a2.key]).toEqual(['chain 1', 'chain 2', 'chain 1']);
  });

  it('a cache marker moved forward is the same conversation (cache_control, a Converse cachePoint block)', () => {
    const g = new Grouper();
    const cc = { type: 'ephemeral' };
    const text = (t: string, marked = false) => [{ type: 'text', text: t, ...(marked && { cache_control: cc }) }];
    const a = g.assign({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: text('q', true) }] });
    const a2 = g.assign({
      model: 'claude-haiku-4-5',
      messages: [
        { role: 'user', content: text('q') },
        { role: 'assistant', content: text('a') },
        { role: 'user', content: text('q2', true) },
      ],
    });
    const other = g.assign({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: text('another q', true) }] });
    const c = g.assign({ modelId: 'm', messages: [{ role: 'user', content: [{ text: 'x' }, { cachePoint: { type: 'default' } }] }] });
    const c2 = g.assign({
      modelId: 'm',
      messages: [
        { role: 'user', content: [{ text: 'x' }] },
        { role: 'assistant', content: [{ text: 'y' }, { cachePoint: { type: 'default' } }] },
      ],
    });
    expect([a.key, a2.key, other.key, c.key, c2.key]).toEqual(['chain 1', 'chain 1', 'chain 2', 'chain 3', 'chain 3']);
  });

  it('the Grouper keeps one digest per conversation, not the requests', () => {
    const g = new Grouper();
    for (let i = 0; i < 50; i++) g.assign({ model: 'm', messages: [{ role: 'user', content: `q${i}` }] });
    expect((g as unknown as { tips: Map<string, number> }).tips.size).toBe(50);
    g.assign({
      model: 'm',
      messages: [
        { role: 'user', content: 'q3' },
        { role: 'assistant', content: 'x' },
      ],
    });
    expect((g as unknown as { tips: Map<string, number> }).tips.size).toBe(50);
  });
});

describe('problems, located in the log; nothing handed over', () => {
  it('not JSON, not a body, an OTLP document and an empty log', async () => {
    const bad = await run([], { raw: `${JSON.stringify(chat({ user: 'a' }, 1))}\n{"model": "gpt-5", \n[1]\n{"hello": 1}\n{"resourceSpans": []}\n` });
    expect(bad.result).toBeUndefined();
    expect(bad.got).toEqual([]);
    expect(bad.messages.map((m) => m.split('\n')[0])).toEqual([
      'logs/day.jsonl:2:20 error: not JSON: expected a field name in double quotes, found the end of the line',
      'logs/day.jsonl:3:1 error: line 3 is a JSON list, not an object',
      'logs/day.jsonl:4:1 error: not a request body (no `model`, `messages` or `input`) nor a wrapped one (`body`)',
      'logs/day.jsonl:5:1 error: this line is an OTLP trace document; a log is read as request bodies, one per line',
    ]);
    expect((await run([], { raw: '\n\n' })).messages).toEqual([expect.stringMatching(/^logs\/day\.jsonl:1:1 error: the log is empty\n {2}fix: /)]);
  });

  it('a file that is no log stops being read after MAX_PROBLEMS problems, saying where', async () => {
    const r = await run(Array.from({ length: MAX_PROBLEMS + 30 }, (_, i) => ({ type: 'user', n: i })));
    expect(r.messages).toHaveLength(MAX_PROBLEMS + 1);
    expect(r.messages.at(-1)).toMatch(
      new RegExp(`^logs/day\\.jsonl:${MAX_PROBLEMS + 1}:1 error: reading stopped here, after ${MAX_PROBLEMS} problems in the lines before\n {2}fix: `),
    );
  });

  it("a request the fold rejects names the log's line and field; every conversation's problems are reported", async () => {
    const r = await run([chat({ user: 'a' }, 1), { model: 'gpt-5', user: 'b', messages: [] }, { model: 7, user: 'c', messages: [{ role: 'user', content: 'q' }] }]);
    expect(r.result).toBeUndefined();
    expect(r.messages.map((m) => m.split('\n')[0])).toEqual([
      'logs/day.jsonl:2:40 error: OpenAI Chat Completions request: `messages` must not be empty',
      'logs/day.jsonl:3:10 error: OpenAI Chat Completions request: `model` must be a string, got number 7',
    ]);
  });
});

describe('single-conversation import of a log; re-import', () => {
  it('importing a log of several conversations as one scenario is refused, naming both lines and the fix', () => {
    const text = [chat({ prompt_cache_key: 'k1' }, 1), chat({ prompt_cache_key: 'k1' }, 2), chat({ prompt_cache_key: 'k2' }, 1)].map((x) => JSON.stringify(x)).join('\n');
    const errs = importTrace(text, { file: 'logs/day.jsonl', id: 'x' }).errors.map(formatError);
    expect(errs).toEqual([
      'logs/day.jsonl:3:1 error: this trace holds more than one conversation: line 1\'s `prompt_cache_key` is "k1", this line\'s "k2"\n  fix: import it as a log, one scenario per conversation: npm run import -- <trace> --out-dir <folder> (see the README, "Import a trace")',
    ]);
  });

  it('re-importing keeps each conversation scenario’s annotations and expect', async () => {
    const lines = [chat({ user: 'a' }, 1), chat({ user: 'b' }, 1), chat({ user: 'a' }, 2)];
    const first = await run(lines);
    const edited = `${first.got[0]!.result.yaml}expect:\n  busts: []\nannotations:\n  - request: "@3"\n    find: q1\n    comment: the second question\n`;
    const again = await run(lines, { previous: (id) => (id === 'day-a' ? edited : undefined) });
    expect(again.messages).toEqual([]);
    expect(again.got[0]!.result.yaml).toBe(edited);
    expect(again.got[1]!.result.yaml).toBe(first.got[1]!.result.yaml);
  });
});
