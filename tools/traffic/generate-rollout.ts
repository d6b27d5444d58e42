/**
 * Writes a synthetic Codex rollout for measuring `npm run import` on a capture of real size (issue
 * 49: "a 2 MB rollout imports in ≤ 10 s"; the largest rollouts found published are about 1 MB). The
 * lines are in the shape Codex CLI 0.104 and later writes (`{"timestamp", "type", "payload"}`; read
 * in openai/codex `codex-rs/protocol/src/protocol.rs` and `models.rs`, and in the 0.104.0-alpha.1
 * rollouts published in madshn/localpush `src-tauri/tests/fixtures/codex/2026-02-23/raw/sessions/`):
 * a `session_meta` with `base_instructions: {text}`, the developer and user context messages, then
 * per turn `task_started` and `user_message` events, a `turn_context` (model, effort, sandbox), the
 * user's message, and model calls — each a `reasoning` item with `"content": null` and an
 * `encrypted_content` (base64 the provider alone can read), then an `exec_command` `function_call`
 * and its `function_call_output`, or the turn's final assistant message — each call followed by a
 * `token_count` event with `last_token_usage`, and a `task_complete`. Every few turns a
 * `custom_tool_call` (`apply_patch`) and its output.
 *
 * The usage is made up but consistent (nothing here was sent to a provider): input tokens ≈ the
 * characters of the items sent ÷ 4, plus a fixed part the rollout does not record (tool
 * definitions), plus the reasoning tokens of the encrypted items sent back; cached tokens the
 * previous call's input rounded down to 128; output tokens the reasoning tokens plus ≈ the call's
 * characters ÷ 4.
 *
 *   npm run traffic:rollout -- <out.jsonl>                  # ≈ 2.2 MB, 60 turns
 *   npm run traffic:rollout -- <turns> <output bytes> <out.jsonl>
 *
 * Deterministic (a seeded generator, a fixed clock): the same arguments write the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { rng } from './seeded.ts';

export interface RolloutShape {
  turns: number;
  /** Bytes of a command's output (the main knob of the rollout's size). */
  outputBytes: number;
}

export const ROLLOUT_2MB: RolloutShape = { turns: 60, outputBytes: 2600 };

const WORDS = 'ledger refund invoice tax rounding webhook retry queue schema migration index fixture route service config deploy branch module async error test'.split(' ');
const words = (r: () => number, n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
const text = (r: () => number, bytes: number): string => {
  let s = '';
  while (s.length < bytes) s += `${words(r, 9)}.\n`;
  return s.slice(0, bytes);
};
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64 = (r: () => number, n: number): string => `gAAAAA${Array.from({ length: n - 6 }, () => B64[Math.floor(r() * 64)]).join('')}`;
const id = (r: () => number, n = 24): string => Array.from({ length: n }, () => B64[Math.floor(r() * 62)]).join('');
const uuid = (r: () => number): string => {
  const h = Array.from({ length: 32 }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${h.slice(13, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const START = Date.parse('2026-11-30T09:00:00.000Z');
const MODEL = 'gpt-5.3-codex';
/** Tokens of what every call sends that the rollout does not record (the tool definitions). */
const UNRECORDED_TOKENS = 5200;
const tokens = (chars: number): number => Math.ceil(chars / 4);

/** The rollout's lines, in order (JSON text, one per line). */
export function rolloutLines(shape: RolloutShape): string[] {
  const r = rng(49);
  const lines: string[] = [];
  let t = START;
  const line = (type: string, payload: unknown, dt = 0): void => {
    t += dt;
    lines.push(JSON.stringify({ timestamp: new Date(t).toISOString(), type, payload }));
  };
  const session = uuid(r);
  const cwd = '/home/dev/ledger-service';
  const baseInstructions = text(r, 13000);
  line('session_meta', {
    id: session,
    timestamp: new Date(t).toISOString(),
    cwd,
    originator: 'codex_cli_rs',
    cli_version: '0.104.0',
    source: 'cli',
    model_provider: 'openai',
    base_instructions: { text: baseInstructions },
    git: { commit_hash: id(r, 40).toLowerCase(), branch: 'main', repository_url: 'https://example.invalid/ledger-service.git' },
  });
  // What the requests send, in characters (for the made-up usage), and the reasoning tokens sent back.
  let sentChars = baseInstructions.length;
  let reasoningSent = 0;
  let prevInput = 0;
  const item = (payload: Record<string, unknown>, dt = 0): void => {
    line('response_item', payload, dt);
    if (payload.type !== 'reasoning') sentChars += JSON.stringify(payload).length;
  };
  item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: `<permissions instructions>\n${text(r, 3600)}\n</permissions instructions>` }] });
  item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\n${text(r, 2900)}\n</INSTRUCTIONS>` }] });
  // A call's usage: its input is what was sent before its first output item (`input`, taken then).
  const usage = (input: number, reasoning: number, outChars: number): void => {
    const last = {
      input_tokens: input,
      cached_input_tokens: Math.floor(Math.min(prevInput, input) / 128) * 128,
      output_tokens: reasoning + tokens(outChars),
      reasoning_output_tokens: reasoning,
      total_tokens: input + reasoning + tokens(outChars),
    };
    prevInput = input;
    line('event_msg', { type: 'token_count', info: { total_token_usage: last, last_token_usage: last, model_context_window: 258400 }, rate_limits: null }, 40);
  };
  for (let turn = 0; turn < shape.turns; turn++) {
    const turnId = uuid(r);
    const ask = `Turn ${turn + 1}: ${words(r, 18)}?`;
    line('event_msg', { type: 'task_started', turn_id: turnId, model_context_window: 258400, collaboration_mode_kind: 'default' }, turn ? 45_000 + Math.floor(r() * 60_000) : 0);
    line('event_msg', { type: 'user_message', message: ask, images: [], local_images: [], text_elements: [] });
    line('turn_context', {
      turn_id: turnId,
      cwd,
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write', writable_roots: [cwd], network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false },
      model: MODEL,
      personality: 'pragmatic',
      effort: 'high',
      summary: 'auto',
    });
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: ask }] });
    line('event_msg', { type: 'token_count', info: null, rate_limits: { limit_id: 'codex', primary: { used_percent: 12, window_minutes: 300 } } }, 300);
    const calls = 3 + Math.floor(r() * 4);
    for (let k = 0; k <= calls; k++) {
      const input = tokens(sentChars) + UNRECORDED_TOKENS + reasoningSent;
      const reasoning = 64 + Math.floor(r() * 700);
      const summary = words(r, 6);
      line('event_msg', { type: 'agent_reasoning', text: `**${summary}**` }, 2000 + Math.floor(r() * 6000));
      line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: `**${summary}**` }], content: null, encrypted_content: base64(r, 800 + reasoning * 4) });
      sentChars += summary.length + 40;
      reasoningSent += reasoning;
      if (k === calls) {
        const answer = text(r, 600 + Math.floor(r() * 1200));
        line('event_msg', { type: 'agent_message', message: answer });
        item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }], phase: 'final_answer' });
        usage(input, reasoning, answer.length);
        line('event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: answer.slice(0, 200) }, 20);
        break;
      }
      const callId = `call_${id(r)}`;
      if (k === 1 && turn % 4 === 3) {
        const patch = `*** Begin Patch\n*** Update File: src/${words(r, 1)}.ts\n@@\n-${words(r, 8)}\n+${words(r, 8)}\n*** End Patch\n`;
        item({ type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: patch });
        usage(input, reasoning, patch.length);
        item(
          {
            type: 'custom_tool_call_output',
            call_id: callId,
            output: JSON.stringify({ output: `Success. Updated the following files:\nM src/${words(r, 1)}.ts\n`, metadata: { exit_code: 0, duration_seconds: 0.1 } }),
          },
          900,
        );
        continue;
      }
      const args = JSON.stringify({ cmd: `rg -n "${words(r, 2)}" src`, workdir: cwd, yield_time_ms: 10000 });
      item({ type: 'function_call', name: 'exec_command', arguments: args, call_id: callId });
      usage(input, reasoning, args.length);
      const out = text(r, Math.round(shape.outputBytes * (0.5 + r())));
      item({ type: 'function_call_output', call_id: callId, output: `Chunk ID: ${id(r, 6)}\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n${out}` }, 150);
    }
  }
  return lines;
}

function main(): void {
  const args = process.argv.slice(2);
  const shape: RolloutShape | undefined = args.length === 1 ? ROLLOUT_2MB : args.length === 3 ? { turns: Number(args[0]), outputBytes: Number(args[1]) } : undefined;
  const out = args.at(-1);
  if (!shape || !out || !(Number.isInteger(shape.turns) && shape.turns >= 1 && shape.outputBytes >= 1)) {
    process.stderr.write('usage: npm run traffic:rollout -- <out.jsonl>  |  <turns> <output bytes> <out.jsonl>\n');
    process.exit(2);
  }
  const text = `${rolloutLines(shape).join('\n')}\n`;
  writeFileSync(out, text);
  process.stdout.write(`wrote ${out}: ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB, ${shape.turns} turns\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
