/**
 * The generated Codex rollout (generate-rollout.ts) is what bench:storage times the import of, so
 * it must stay a rollout the importer reads whole: every model call a request with its own usage,
 * encrypted reasoning an opaque record counted as its call's reasoning tokens, nothing refused; the
 * preset is at least 2 MB (the size) and the same bytes every time.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importTrace } from '../../src/import/index.ts';
import { formatError } from '../../src/scenarios/errors.ts';
import { withBodies } from '../../tests/support/imported.ts';
import { ROLLOUT_2MB, rolloutLines } from './generate-rollout.ts';

type Line = { type: string; payload: Record<string, unknown> };
type Ev = {
  off: number;
  payload: { measured?: { inputTokens: number; cachedTokens: number; outputTokens: number }; body: { model: string; instructions?: string; input: Record<string, unknown>[] } };
};

describe('the generated Codex rollout', () => {
  const lines = rolloutLines({ turns: 3, outputBytes: 300 });
  const parsed = lines.map((l) => JSON.parse(l) as Line);
  const usages = parsed.flatMap((l) =>
    l.type === 'event_msg' && l.payload.type === 'token_count' && l.payload.info ? [(l.payload.info as { last_token_usage: Record<string, number> }).last_token_usage] : [],
  );
  const { result, errors } = importTrace(`${lines.join('\n')}\n`, { file: 'rollout.jsonl', id: 'gen' });
  /** The scenario's events with every body whole (a request stored as what it adds is rebuilt, as the fold does). */
  const events = (): Ev[] => withBodies((parse(result!.yaml) as { events: Ev[] }).events);

  it('imports as a Codex rollout: one request per model call, each with that call’s billed usage', () => {
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.format).toBe('openai-responses');
    const ev = events();
    expect(usages.length).toBeGreaterThan(6);
    expect(ev).toHaveLength(usages.length);
    // 0.104 reports no cache writes: the figure is absent, not 0.
    expect(ev.map((e) => e.payload.measured)).toEqual(usages.map((u) => ({ inputTokens: u.input_tokens, cachedTokens: u.cached_input_tokens, outputTokens: u.output_tokens })));
    expect(new Set(ev.map((e) => e.payload.body.model))).toEqual(new Set(['gpt-5.3-codex']));
    // session_meta's base_instructions are the requests' instructions.
    const meta = parsed[0]!.payload.base_instructions as { text: string };
    expect(ev[0]!.payload.body.instructions).toBe(meta.text);
  });

  it('its encrypted reasoning is an opaque record carrying the reasoning tokens billed for the call that produced it', () => {
    const last = events()
      .at(-1)!
      .payload.body.input.filter((i) => i.type === 'reasoning');
    // Every call but the last sent its reasoning back in the last request: one reasoning item each.
    expect(last.map((i) => (i.encrypted_content as { tokens: number }).tokens)).toEqual(usages.slice(0, -1).map((u) => u.reasoning_output_tokens));
    expect(result!.yaml).not.toContain('gAAAAA');
  });

  it('the preset is at least 2 MB, and the same bytes every time', () => {
    const a = rolloutLines(ROLLOUT_2MB).join('\n');
    expect(Buffer.byteLength(a)).toBeGreaterThanOrEqual(2_000_000);
    expect(rolloutLines(ROLLOUT_2MB).join('\n')).toBe(a);
  });
});
