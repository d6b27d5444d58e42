/**
 * Anthropic's mid-conversation tool change (anthropic/tool-changes.ts): a tool declared with
 * `defer_loading: true` is not in the prefix, and a `tool_addition` in a mid-conversation system
 * message surfaces its definition at that position — so on a model that accepts the system
 * message, the request after the change reads the prefix before it; rewriting the `tools` list
 * instead invalidates every entry; on a model without the feature the API rejects the request.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importTrace } from '../import/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { anthropic } from './anthropic.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const SYSTEM = 'You are a careful build agent. Read the repository before you change it, and say what you did. '.repeat(80);
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} tool.`,
  input_schema: { type: 'object', properties: { arg: { type: 'string' } } },
  ...extra,
});
const first = [{ role: 'user', content: 'Find the failing test.' }];
const later = [...first, { role: 'assistant', content: 'It is run.test.ts.' }];

/**
 * Two bodies: before and after the tool change, made the given way. Mid-conversation: the new tool
 * joins `tools` with `defer_loading: true` and a `tool_addition` surfaces it; rewrite: it joins
 * `tools` as an ordinary tool.
 */
function trace(model: string, how: 'mid-conversation' | 'rewrite'): string {
  // The requests ask for caching: a breakpoint on the system prompt, and automatic caching for the last block.
  const before = {
    model,
    max_tokens: 100,
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    cache_control: { type: 'ephemeral' },
    tools: [tool('read_file')],
    messages: first,
  };
  const after =
    how === 'mid-conversation'
      ? {
          ...before,
          tools: [tool('read_file'), tool('query_db', { defer_loading: true })],
          messages: [
            ...later,
            { role: 'system', content: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'query_db' } }] },
            { role: 'user', content: 'Check the staging table.' },
          ],
        }
      : { ...before, tools: [tool('read_file'), tool('query_db')], messages: [...later, { role: 'user', content: 'Check the staging table.' }] };
  return `${[before, after].map((body, i) => JSON.stringify({ timestamp: `2026-08-24T16:4${1 + i}:00.000Z`, body })).join('\n')}\n`;
}

async function economics(model: string, how: 'mid-conversation' | 'rewrite') {
  const { result, errors } = importTrace(trace(model, how), { file: 'traces/tools.jsonl', id: 'tools' });
  expect(errors.map(formatError)).toEqual([]);
  const r = await renderTexts([{ file: 'scenarios/tools.yaml', text: result!.yaml }], config, { everyEvent: false });
  return { r, requests: r.economics.get('tools')!.requests };
}

describe('Anthropic mid-conversation tool changes', () => {
  it('normalise: a deferred tool is not in the tools message; a tool_addition carries its definition where it stands', () => {
    const body = JSON.parse(trace('claude-opus-4-8', 'mid-conversation').split('\n')[1]!).body;
    const [tools, , , , change] = anthropic.normalise(body);
    expect(tools!.role).toBe('tools');
    expect(JSON.parse(tools!.text).map((t: { name: string }) => t.name)).toEqual(['read_file']);
    expect(change).toEqual({
      role: 'system',
      text: `[tool_addition] ${JSON.stringify({ name: 'query_db', description: 'The query_db tool.', parameters: tool('query_db').input_schema })}`,
    });
    // A tool_addition naming no deferred tool, and a tool_removal, keep the generic one-line form.
    const other = anthropic.normalise({
      ...body,
      messages: [...later, { role: 'system', content: [{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'read_file' } }] }],
    });
    expect(other.at(-1)!.text).toBe('[tool_removal] {"tool":{"type":"tool_reference","name":"read_file"}}');
  });

  it('on Claude Opus 4.8 the request after the change reads the prefix the first request wrote', async () => {
    const { r, requests } = await economics('claude-opus-4-8', 'mid-conversation');
    expect(r.errors.map(formatError)).toEqual([]);
    const [one, two] = requests;
    expect(two!.apiError).toBeUndefined();
    expect(two!.readFrom).toBe(one!.offset);
    expect(two!.cachedTokens).toBe(one!.breakpointTokens.at(-1));
    expect(two!.cacheBreak).toBeNull();
  });

  it('rewriting the tools list instead invalidates every entry', async () => {
    const { r, requests } = await economics('claude-opus-4-8', 'rewrite');
    expect(r.errors.map(formatError)).toEqual([]);
    const two = requests[1]!;
    expect(two.cachedTokens).toBe(0);
    expect(two.cacheBreak).toMatchObject({ cause: 'system-changed' });
    expect(two.cacheBreak!.tokensLost).toBe(requests[0]!.breakpointTokens.at(-1));
  });

  it('on a model without mid-conversation system messages the check reports the request the API rejects', async () => {
    const { r, requests } = await economics('claude-sonnet-4-5', 'mid-conversation');
    expect(requests[1]!.apiError).toMatch(/mid-conversation system message/);
    expect(requests[1]!.costUsd).toBeNull();
    expect(r.errors.map(formatError)).toEqual([
      expect.stringMatching(/request @\d+ \(claude-sonnet-4-5, profile anthropic-claude-sonnet-4\.5\) carries a mid-conversation system message/),
    ]);
  });
});
