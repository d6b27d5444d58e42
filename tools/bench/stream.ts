/**
 * A deterministic synthetic `context-protocol` event stream for `npm run bench:fold`: what a busy
 * agent's stream looks like after days of work, at any length. One request per `requestEvery`
 * events (default 100); each cycle of that many events holds a user turn, the request, the token
 * usage report, the assistant reply (with `llmRequestOffset`) and its settlement, then script runs
 * (requested, settled) each followed by the developer script result, more token-usage reports,
 * keyed re-adds of a few working keys (sent ones supersede at the tail, unsent ones coalesce) and
 * summary updates. Every `compactEvery` requests the stream compacts (an unkeyed developer summary
 * replacing the history before the current cycle), as real agents do — so prompts stay bounded and
 * the fold's cost per event can be compared across stream lengths.
 *
 * The events are already valid (the fold benchmark measures the fold and the printer, not the
 * loader); offsets start at 1 and increase by one.
 */
import type { StreamEvent } from '../../src/folds/types.ts';
import { prose, Rng, sentence, blob, word } from './text.ts';

export interface StreamOptions {
  /** Total number of events. */
  events: number;
  /** One request per this many events. Default 100. */
  requestEvery?: number;
  /** Compact after this many requests. Default 10. */
  compactEvery?: number;
  seed?: number;
}

export interface SyntheticStream {
  events: StreamEvent[];
  /** Offsets of the request events. */
  requests: number[];
  compactions: number;
}

const TIME_ZERO = Date.parse('2026-08-24T16:41:00.000Z');
const MODEL = 'openai/gpt-5.6-terra';
const WORKING_KEYS = ['workspace/status', 'project/open-prs', 'project/agents-md', 'ci/last-run'];

export function syntheticStream(opts: StreamOptions): SyntheticStream {
  const every = opts.requestEvery ?? 100;
  const compactEvery = opts.compactEvery ?? 10;
  const rng = new Rng(opts.seed ?? 1);
  const events: StreamEvent[] = [];
  const requests: number[] = [];
  let compactions = 0;
  let ms = 0;
  const push = (type: string, payload: unknown, stepMs = 250): number => {
    ms += stepMs;
    const offset = events.length + 1;
    events.push({ offset, type, createdAt: new Date(TIME_ZERO + ms).toISOString(), payload });
    return offset;
  };

  // Birth: the agent, then its standing document (a few keyed sections of a few hundred words).
  push('agent/created', { streamPath: '/agents/web/harbor' });
  for (const key of ['identity', 'reply-format', 'scripts', 'repo-workflow', 'project/agents-md']) {
    push('agents/context-added', { role: 'system', key, content: prose(rng, rng.int(80, 250)) }, 0);
  }

  let cycle = 0;
  while (events.length < opts.events) {
    const cycleStart = events.length + 1;
    const end = Math.min(opts.events, events.length + every);
    push('agents/context-added', { role: 'user', content: sentence(rng, 6, 30), actor: { type: 'user', origin: 'web' } }, 60_000);
    if (events.length >= end) break;
    const request = push('agent/llm-request-requested', { model: MODEL, contractVersion: '7.0.0' }, 300);
    requests.push(request);
    if (events.length < end) push('agent/token-usage-reported', { inputTokens: rng.int(2_000, 60_000), outputTokens: rng.int(50, 2_000) });
    if (events.length < end) {
      const reply = rng.chance(0.2) ? `${sentence(rng)}\n\`\`\`ts\n${blob(rng, 60)}\n\`\`\`` : prose(rng, rng.int(20, 80));
      push('agents/context-added', { role: 'assistant', llmRequestOffset: request, content: reply }, 8_000);
    }
    if (events.length < end) push('agent/llm-request-settled', { requestOffset: request, result: { status: 'succeeded' } }, 0);
    const compactNow = (cycle + 1) % compactEvery === 0;
    let run = 0;
    while (events.length < end) {
      // The compaction, when due, is the cycle's last event: keep one slot for it.
      const room = end - events.length - (compactNow ? 1 : 0);
      if (room <= 0) {
        compactions++;
        push('agents/context-added', {
          role: 'developer',
          content: `Summary of the conversation so far:\n${prose(rng, 120)}`,
          compaction: { replacesHistoryThrough: cycleStart - 1 },
          llmRequestPolicy: 'dont-trigger-request',
        });
        break;
      }
      const slot = run % 5;
      if (slot === 0 && room >= 3) {
        const executionId = `exec-${rng.hex(6)}`;
        push('capability-host/script-run-requested', { executionId, code: `return await itx.workspace.exec(${JSON.stringify(`pnpm ${word(rng)}`)});` });
        push('capability-host/script-run-settled', { executionId, settlement: { status: 'succeeded', result: { exitCode: 0 } } }, 2_000);
        const output = rng.chance(0.15) ? blob(rng, 120) : sentence(rng, 6, 20);
        push('agents/context-added', { role: 'developer', content: `Script result:\n${output}`, actor: { type: 'script', executionId } }, 0);
      } else if (slot === 1) {
        push('agent/token-usage-reported', { inputTokens: rng.int(2_000, 60_000), outputTokens: rng.int(50, 2_000) });
      } else if (slot === 2) {
        push('agents/context-added', { role: 'system', key: rng.pick(WORKING_KEYS), content: prose(rng, rng.int(20, 60)) });
      } else {
        push('agent/summary-updated', { summary: sentence(rng) });
      }
      run++;
    }
    cycle++;
  }
  return { events, requests, compactions };
}
