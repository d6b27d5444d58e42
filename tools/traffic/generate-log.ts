/**
 * Writes a synthetic gateway log for measuring `npm run import -- <log> --by-conversation` (issue 41):
 * JSON Lines of wrapped OpenAI Chat Completions requests — `{timestamp, headers, body, response}` —
 * from many agent conversations interleaved in time, as a gateway records a day of traffic. Each
 * body carries its conversation in `user` and `prompt_cache_key`; the response carries only a
 * plausible `usage` (prompt tokens ≈ characters ÷ 4.8, about o200k_base on this text; cached tokens the previous request's prompt
 * rounded down to 128 when its prefix is unchanged and the idle gap is under 5 minutes; made up,
 * nothing here was sent to a provider). Some conversations break their own cache the way agents
 * do: the harness writes the date into the system prompt and the day turns (every 7th), a tool
 * definition is re-ordered (every 10th), or the user leaves for 12 minutes (every 15th).
 *
 *   npm run traffic:generate -- day  <out.jsonl>   # 200 conversations, 5,000 requests, ≈73 MB
 *   npm run traffic:generate -- long <out.jsonl>   # 1 conversation, 400 requests, ≈40 MB
 *   npm run traffic:generate -- <conversations> <requests> <turn bytes> <out.jsonl>
 *
 * Deterministic (a seeded generator, no clock): the same arguments write the same bytes. Streams
 * its output, so memory stays small however large the log.
 */
import { createWriteStream } from 'node:fs';
import { rng } from './seeded.ts';

interface Shape {
  conversations: number;
  requests: number;
  /** Bytes of tool output per turn (the main knob of the log's size). */
  turnBytes: number;
}

const PRESETS: Record<string, Shape> = {
  day: { conversations: 200, requests: 5000, turnBytes: 400 },
  long: { conversations: 1, requests: 400, turnBytes: 225 },
};

const WORDS =
  'invoice customer ledger refund tax currency rounding payment gateway webhook retry queue handler schema migration index column test fixture route service config deploy branch commit module export import async await error'.split(
    ' ',
  );
const words = (r: () => number, n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
const text = (r: () => number, bytes: number): string => {
  let s = '';
  while (s.length < bytes) s += `${words(r, 8)}.\n`;
  return s.slice(0, bytes);
};

const TOOLS = ['read_file', 'write_file', 'run_tests', 'search_code', 'list_dir', 'git_diff'].map((name, i) => ({
  type: 'function',
  function: {
    name,
    description: `${name.replace('_', ' ')}: ${text(rng(1000 + i), 260)}`,
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'Repository-relative path' }, query: { type: 'string' } }, required: ['path'] },
  },
}));

const TOOLS_REORDERED = [...TOOLS].reverse();
const SYSTEM = text(rng(7), 3000);
const DAY0 = Date.parse('2026-11-30T06:00:00.000Z');

/** One turn of conversation `c`: the assistant's tool call and the tool's output (same bytes every time it is asked for). */
function turn(c: number, k: number, turnBytes: number): unknown[] {
  const r = rng(c * 100_003 + k);
  const tool = TOOLS[Math.floor(r() * TOOLS.length)]!.function.name;
  const id = `call_${c}_${k}`;
  const out: unknown[] = [];
  if (k % 6 === 0) out.push({ role: 'user', content: `Next: ${words(r, 14)}?` });
  out.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: tool, arguments: JSON.stringify({ path: `src/${words(r, 1)}.ts` }) } }] });
  out.push({ role: 'tool', tool_call_id: id, content: text(r, Math.round(turnBytes * (0.6 + r() * 0.8))) });
  return out;
}

interface Conv {
  id: number;
  model: string;
  /** Request times (ms since DAY0). */
  times: number[];
}

/** Every conversation's request times: starts spread over the day, 5–60 s apart, some idle 12 min. */
function plan(shape: Shape): Conv[] {
  const r = rng(42);
  const per = Math.floor(shape.requests / shape.conversations);
  const extra = shape.requests - per * shape.conversations;
  return Array.from({ length: shape.conversations }, (_, c) => {
    const n = per + (c < extra ? 1 : 0);
    let t = shape.conversations === 1 ? 0 : Math.floor(r() * 16 * 3600_000);
    const times: number[] = [];
    for (let k = 0; k < n; k++) {
      if (k) t += c % 15 === 5 && k === Math.floor(n / 2) ? 12 * 60_000 : 5000 + Math.floor(r() * 55_000);
      times.push(t);
    }
    return { id: c, model: c % 4 === 3 ? 'gpt-5-mini' : 'gpt-5', times };
  });
}

function body(conv: Conv, k: number, shape: Shape): Record<string, unknown> {
  const at = new Date(DAY0 + conv.times[k]!);
  // Every 7th conversation's harness writes the date into its system prompt: it changes at midnight (here: halfway).
  const dated = conv.id % 7 === 2;
  const day = dated && k >= Math.floor(conv.times.length / 2) ? '2026-12-01' : at.toISOString().slice(0, 10);
  const system = dated ? `Today is ${day}.\n${SYSTEM}` : SYSTEM;
  const tools = conv.id % 10 === 4 && k >= Math.floor((conv.times.length * 2) / 3) ? TOOLS_REORDERED : TOOLS;
  const messages: unknown[] = [
    { role: 'system', content: system },
    { role: 'user', content: `Task ${conv.id}: ${words(rng(conv.id), 30)}` },
  ];
  for (let j = 0; j < k; j++) messages.push(...turn(conv.id, j, shape.turnBytes));
  const key = `conv-${String(conv.id).padStart(4, '0')}`;
  return { model: conv.model, messages, tools, user: `user-${key}`, prompt_cache_key: key, stream: true };
}

function main(): void {
  const args = process.argv.slice(2);
  const preset = PRESETS[args[0] ?? ''];
  const shape: Shape | undefined = preset ?? (args.length === 4 ? { conversations: Number(args[0]), requests: Number(args[1]), turnBytes: Number(args[2]) } : undefined);
  const out = preset ? args[1] : args[3];
  if (!shape || !out || !(shape.conversations >= 1 && shape.requests >= shape.conversations && shape.turnBytes >= 1)) {
    process.stderr.write('usage: npm run traffic:generate -- day|long <out.jsonl>  |  <conversations> <requests> <turn bytes> <out.jsonl>\n');
    process.exit(2);
  }
  const convs = plan(shape);
  // File order: by time (ties by conversation), as a gateway appends requests.
  const order = convs.flatMap((c) => c.times.map((t, k) => ({ c, k, t }))).sort((a, b) => a.t - b.t || a.c.id - b.c.id);
  const prev = new Map<number, { prompt: number; system: string; tools: unknown; t: number }>();
  const stream = createWriteStream(out);
  let bytes = 0;
  let i = 0;
  const write = (): void => {
    while (i < order.length) {
      const { c, k, t } = order[i++]!;
      const b = body(c, k, shape);
      const chars = JSON.stringify(b.messages).length + JSON.stringify(b.tools).length;
      const prompt = Math.round(chars / 4.8);
      const system = (b.messages as { content: string }[])[0]!.content;
      const p = prev.get(c.id);
      const reused = p && p.system === system && p.tools === b.tools && t - p.t < 5 * 60_000;
      const cached = reused && p.prompt >= 1024 ? Math.floor(p.prompt / 128) * 128 : 0;
      prev.set(c.id, { prompt, system, tools: b.tools, t });
      const r = rng(c.id * 7919 + k);
      const line = {
        timestamp: new Date(DAY0 + t).toISOString(),
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-proj-FAKE-GENERATED-KEY-000000000000' },
        body: b,
        response: { usage: { prompt_tokens: prompt, completion_tokens: 40 + Math.floor(r() * 400), prompt_tokens_details: { cached_tokens: cached } } },
      };
      const s = `${JSON.stringify(line)}\n`;
      bytes += Buffer.byteLength(s);
      if (!stream.write(s)) {
        stream.once('drain', write);
        return;
      }
    }
    stream.end(() => process.stdout.write(`wrote ${out}: ${convs.length} conversation(s), ${order.length} requests, ${(bytes / 1e6).toFixed(1)} MB\n`));
  };
  write();
}

main();
