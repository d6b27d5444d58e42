/**
 * Test support: a small Claude Code session transcript of our own (issue 49, item 8), written in
 * the shape Claude Code writes `~/.claude/projects/<project>/<session id>.jsonl` — one line per
 * message, an assistant reply one line per content block repeating its `message.id` and `usage`,
 * tool results as `tool_result` blocks of the next user line, `summary` and `file-history-snapshot`
 * lines that are not sent to the model. The shape was read from public descriptions of the format
 * (see src/import/captures/claude-code.ts for the sources); the content is made up here.
 *
 * 16 model calls with billed usage, 15 of them tool calls (Read, Bash, Edit, Grep) and their results,
 * a Read of a 600-line file at call 5, one idle gap of 12 minutes (the user steps away, then writes) before call 11 (past the 5-minute retention: the bill reads nothing from
 * the cache there), and a tool input carrying hostile text. Deterministic: the same bytes every time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importTrace } from '../../src/import/index.ts';
import { formatError } from '../../src/scenarios/errors.ts';

export const CC_ID = 'claude-code-session';
export const CC_CALLS = 16;
/** Text a tool input carries: must stay text on the page. */
export const CC_HOSTILE = '</script><img src=x onerror="window.__pwned=1">';
/** The call (1-based) after the idle gap: the bill reads nothing from the cache there. */
export const CC_IDLE_CALL = 11;
/** The call whose Read returns a 600-line file: the requests after it are long enough to fold. */
export const CC_LONG_READ = 5;
/** The system prompt and tool definitions the transcript does not record: billed on every call. */
export const CC_UNSEEN = 9_000;

const SESSION = '3f1c2b9a-8d4e-4f6a-9b21-7c5d0e8a1f42';
const START = Date.UTC(2026, 10, 30, 9, 0, 0);

const TOOLS: { name: string; input: (n: number) => Record<string, unknown>; result: (n: number) => string }[] = [
  {
    name: 'Read',
    input: (n) => ({ file_path: `/home/dev/harbor/src/invoice/rounding-${n}.ts` }),
    // Call 5 reads a long file (600 lines, as Claude Code numbers them): every later request carries it, and folds it.
    result: (n) =>
      n === CC_LONG_READ
        ? Array.from({ length: 600 }, (_, i) => `${String(i + 1).padStart(6)}→  total += line${i}.cents; // ledger row ${i}`).join('\n')
        : `     1→export function round${n}(cents: number): number {\n     2→  return Math.round(cents);\n     3→}\n`,
  },
  {
    name: 'Bash',
    input: (n) => ({ command: `npm test -- rounding-${n} 2>&1 | tail -20`, description: `Run the rounding tests (${n})` }),
    result: (n) => `PASS src/invoice/rounding-${n}.test.ts\n  ✓ rounds half to even (3 ms)\nTests: 1 passed`,
  },
  {
    name: 'Edit',
    input: (n) => ({
      file_path: `/home/dev/harbor/src/invoice/rounding-${n}.ts`,
      old_string: 'return Math.round(cents);',
      new_string: `return roundHalfEven(cents); // "quoted" \\ ${n === 7 ? CC_HOSTILE : 'ok'}`,
    }),
    result: () => 'The file has been updated.',
  },
  {
    name: 'Grep',
    input: (n) => ({ pattern: `round${n}\\(`, path: 'src', output_mode: 'files_with_matches' }),
    result: (n) => `src/invoice/rounding-${n}.ts\nsrc/invoice/totals.ts`,
  },
];

/** The transcript's text. */
export function claudeCodeTranscript(): string {
  const lines: unknown[] = [{ type: 'summary', summary: 'Rounding fix in the invoice totals', leafUuid: 'leaf-0001' }];
  let t = START;
  let parent: string | null = null;
  let uuid = 0;
  const next = (): string => `00000000-0000-4000-8000-${String(++uuid).padStart(12, '0')}`;
  const base = () => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/home/dev/harbor', sessionId: SESSION, version: '2.0.74', gitBranch: 'main' });
  const push = (line: Record<string, unknown>): void => {
    const u = next();
    lines.push({ ...base(), ...line, uuid: u, timestamp: new Date(t).toISOString() });
    parent = u;
  };
  push({ type: 'user', message: { role: 'user', content: 'The invoice totals are off by a cent on some invoices. Find the rounding code and fix it; run the tests.' } });
  // Tokens the conversation has so far (what the model reads besides the unseen system prompt and tools).
  let seen = 40;
  let cachedBefore = 0;
  for (let n = 1; n <= CC_CALLS; n++) {
    if (n === CC_IDLE_CALL) {
      // The reader stepped away: 12 minutes, then a message of their own; the request is sent at it.
      t += 12 * 60_000;
      push({ type: 'user', message: { role: 'user', content: 'Back — carry on, and run the whole suite at the end.' } });
      seen += 15;
    }
    t += 4_000;
    const total = CC_UNSEEN + seen;
    // What the bill says: after the idle gap nothing is read from the cache and everything is written again.
    const read = n === 1 || n === CC_IDLE_CALL ? 0 : cachedBefore;
    const written = total - read - 3;
    const usage = { input_tokens: 3, cache_creation_input_tokens: written, cache_read_input_tokens: read, output_tokens: 120 + n, service_tier: 'standard' };
    cachedBefore = read + written;
    const id = `msg_01${String(n).padStart(4, '0')}Rounding`;
    const model = 'claude-sonnet-4-5-20250929';
    const last = n === CC_CALLS;
    push({
      type: 'assistant',
      requestId: `req_${n}`,
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: last ? 'Fixed: the totals now round half to even, and the tests pass.' : `Step ${n}: checking the rounding code.` }],
        stop_reason: last ? 'end_turn' : null,
        usage,
      },
    });
    if (last) break;
    const tool = TOOLS[(n - 1) % TOOLS.length]!;
    const toolId = `toolu_01${String(n).padStart(4, '0')}`;
    push({
      type: 'assistant',
      requestId: `req_${n}`,
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'tool_use', id: toolId, name: tool.name, input: tool.input(n) }],
        stop_reason: 'tool_use',
        usage,
      },
    });
    t += 1_500;
    push({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: tool.result(n), is_error: false }] },
      toolUseResult: { stdout: tool.result(n), stderr: '' },
    });
    if (n === 5) lines.push({ type: 'file-history-snapshot', messageId: `snap-${n}`, snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false });
    // The long read is about 9,000 tokens of file the next requests carry (billed with them).
    seen += 130 + n * 7 + (n === CC_LONG_READ ? 9_000 : 0);
  }
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** Writes the transcript (the same bytes each time) and returns its path. */
export function claudeCodeTranscriptFile(): string {
  const dir = join(tmpdir(), 'pfe-claude-code-session');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${SESSION}.jsonl`);
  writeFileSync(file, claudeCodeTranscript());
  return file;
}

/** The transcript imported (src/import, as `npm run import` does) into a scenario file for the shared build; returns its path. */
export function claudeCodeScenarioFile(): string {
  const { result, errors } = importTrace(claudeCodeTranscript(), { file: `${SESSION}.jsonl`, id: CC_ID });
  if (!result) throw new Error(`the Claude Code fixture does not import:\n${errors.map(formatError).join('\n')}`);
  const dir = join(tmpdir(), 'pfe-claude-code-session');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `92-${CC_ID}.yaml`);
  writeFileSync(file, result.yaml);
  return file;
}

/** What the transcript's replies billed, summed from its own usage lines (each reply's last line): the page's billed figures, computed apart from the page's code. */
export function transcriptBill(): {
  calls: number;
  input: number;
  cached: number;
  written: number;
  output: number;
  perCall: { input: number; cached: number; written: number; output: number }[];
} {
  const byId = new Map<string, { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number }>();
  for (const line of claudeCodeTranscript().trim().split('\n')) {
    const v = JSON.parse(line) as { type: string; message?: { id?: string; usage?: never } };
    if (v.type === 'assistant' && v.message?.id && v.message.usage) byId.set(v.message.id, v.message.usage);
  }
  const perCall = [...byId.values()].map((u) => ({
    input: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
    cached: u.cache_read_input_tokens,
    written: u.cache_creation_input_tokens,
    output: u.output_tokens,
  }));
  const sum = (k: 'input' | 'cached' | 'written' | 'output'): number => perCall.reduce((n, c) => n + c[k], 0);
  return { calls: perCall.length, input: sum('input'), cached: sum('cached'), written: sum('written'), output: sum('output'), perCall };
}
