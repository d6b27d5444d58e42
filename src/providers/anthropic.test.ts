/**
 * The Anthropic adapter's mid-conversation system messages (platform.claude.com/docs/zh-CN/build-with-claude/mid-conversation-system-messages,
 * read 2026-12-03: available on Claude Fable 5.1, Mythos 5.1, Fable 5, Mythos 5, Opus 5.5, Opus 4.8,
 * Opus 5, Sonnet 5.5 and Haiku 5.5; not on Sonnet 5): a trace with a `{"role": "system"}`
 * message after earlier turns imports; on Claude Opus 4.8 it is content appended at its position,
 * so the next request reads the cached prefix before it; on a model without the feature the import
 * warns at the message's line:column and the check reports the request as one the API rejects.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importTrace } from '../import/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { underEveryProfile } from '../economics/compute.ts';
import { DEFAULT_ECONOMICS } from '../economics/profiles.ts';
import { formatError } from '../scenarios/errors.ts';
import { anthropic } from './anthropic.ts';

const FILE = 'traces/mid.jsonl';
const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const SYSTEM = 'You are a careful assistant. Read the repository before you change it, and say what you did. '.repeat(80);

/** The system prompt with a breakpoint on it (with the top-level `cache_control`, automatic caching, for the last block): what the requests ask for. */
const ASKED = [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }];

function trace(model: string): string {
  const first = [{ role: 'user', content: 'Find the failing test.' }];
  const second = [
    ...first,
    { role: 'assistant', content: 'It is run.test.ts.' },
    { role: 'system', content: 'From now on, answer in French.' },
    { role: 'user', content: 'Fix it.' },
  ];
  return `${[first, second]
    .map((messages, i) =>
      JSON.stringify({ timestamp: `2026-08-24T16:4${1 + i}:00.000Z`, body: { model, max_tokens: 100, system: ASKED, cache_control: { type: 'ephemeral' }, messages } }),
    )
    .join('\n')}\n`;
}

const imported = (model: string) => importTrace(trace(model), { file: FILE, id: 'mid' });
const rendered = async (yaml: string) => await renderTexts([{ file: 'scenarios/mid.yaml', text: yaml }], config, { everyEvent: false });

describe('Anthropic mid-conversation system messages', () => {
  it('a body with a late system turn is an Anthropic body; one that starts with a system turn is not', () => {
    expect(
      anthropic.detect!({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
          { role: 'system', content: 's' },
        ],
      }),
    ).toBe(true);
    expect(
      anthropic.detect!({
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'q' },
        ],
      }),
    ).toMatch(/role "system"/);
  });

  it('imports, and on Claude Opus 4.8 the request after it reads the prefix the first request wrote', async () => {
    const { result, errors } = imported('claude-opus-4-8');
    expect(errors.map(formatError)).toEqual([]);
    expect(result!.format).toBe('anthropic');
    expect(result!.warnings).toEqual([]);
    const r = await rendered(result!.yaml);
    expect(r.errors.map(formatError)).toEqual([]);
    const [one, two] = r.economics.get('mid')!.requests;
    expect(one!.profile).toBe('anthropic-claude-opus-4.8');
    // The first request wrote an entry at its last breakpoint (the end of its user message): the second holds it byte for byte.
    expect(two!.apiError).toBeUndefined();
    expect(two!.cachedTokens).toBe(one!.breakpointTokens.at(-1));
    expect(two!.readFrom).toBe(one!.offset);
    expect(two!.cacheBreak).toBeNull();
  });

  it('on a model without the feature: a warning at the message in the trace, and the check reports the request the API rejects', async () => {
    const { result, errors } = imported('claude-sonnet-4-5');
    expect(errors).toEqual([]);
    const text = trace('claude-sonnet-4-5');
    const line2 = text.split('\n')[1]!;
    const col = line2.indexOf('{"role":"system"') + 1;
    expect(result!.warnings.map(formatError)).toEqual([
      expect.stringMatching(
        new RegExp(`^traces/mid\\.jsonl:2:${col} error: claude-sonnet-4-5 rejects this request: a mid-conversation system message, which this model does not accept`),
      ),
    ]);
    expect(result!.warnings[0]!.fix).toMatch(/Claude Opus 4\.8/);
    const r = await rendered(result!.yaml);
    const two = r.economics.get('mid')!.requests[1]!;
    expect(two.apiError).toMatch(/mid-conversation system message/);
    expect(two.costUsd).toBeNull();
    expect(r.errors.map(formatError)).toEqual([
      expect.stringMatching(
        /^scenarios\/mid\.yaml:\d+:\d+ error: request @\d+ \(claude-sonnet-4-5, profile anthropic-claude-sonnet-4\.5\) carries a mid-conversation system message/,
      ),
    ]);
    expect(r.errors[0]!.fix).toMatch(/Claude Opus 4\.8/);
  });

  it('under every profile (the side-by-side table), only the models that accept the feature price the request', async () => {
    const r = await rendered(imported('claude-opus-4-8').result!.yaml);
    const rows = new Map(underEveryProfile(r.scenarios[0]!, DEFAULT_ECONOMICS).map(({ profile, requests }) => [profile.id, requests[1]!]));
    // Opus 4.8 and Opus 4.1 cache alike (same minimum, TTLs, limits) but only Opus 4.8 accepts the message.
    expect(rows.get('anthropic-claude-opus-4.8')!.apiError).toBeUndefined();
    expect(rows.get('anthropic-claude-opus-4.8')!.cachedTokens).toBeGreaterThan(0);
    expect(rows.get('anthropic-claude-opus-4.1')!.apiError).toMatch(/mid-conversation system message/);
    expect(rows.get('anthropic-claude-opus-4.1')!.costUsd).toBeNull();
    // An OpenAI profile has no such feature: the request is priced.
    expect(rows.get('openai-gpt-5.6-terra')!.apiError).toBeUndefined();
  });

  it('the Anthropic profiles that accept it are exactly the models the page lists (Claude Sonnet 5 named as rejecting it)', async () => {
    const r = await rendered(imported('claude-opus-4-8').result!.yaml);
    const anthropicRows = underEveryProfile(r.scenarios[0]!, DEFAULT_ECONOMICS).filter(({ profile }) => profile.cache === 'anthropic');
    const accepting = anthropicRows.filter(({ requests }) => requests[1]!.apiError === undefined).map(({ profile }) => profile.id);
    // The page's list, written out by hand (Mythos 5 and 5.1 share the Fable 5 and 5.1 profiles).
    expect(accepting.sort()).toEqual(
      [
        'anthropic-claude-fable-5',
        'anthropic-claude-fable-5.1',
        'anthropic-claude-haiku-5.5',
        'anthropic-claude-opus-4.8',
        'anthropic-claude-opus-5',
        'anthropic-claude-opus-5.5',
        'anthropic-claude-sonnet-5.5',
      ].sort(),
    );
    for (const { profile, requests } of anthropicRows.filter(({ profile }) => !accepting.includes(profile.id))) {
      expect(requests[1]!.apiError, profile.id).toMatch(/mid-conversation system message, which this model does not accept/);
      expect(requests[1]!.costUsd, profile.id).toBeNull();
    }
    expect(anthropicRows.map(({ profile }) => profile.id)).toContain('anthropic-claude-sonnet-5');
    expect(accepting).not.toContain('anthropic-claude-sonnet-5');
    // The cached prefix before the message is read on a newly listed model too.
    const opus5 = anthropicRows.find(({ profile }) => profile.id === 'anthropic-claude-opus-5')!.requests;
    expect(opus5[1]!.cachedTokens).toBe(opus5[0]!.breakpointTokens.at(-1));
  });

  it('a trace sent to Claude Sonnet 5 (the model the page names) warns at the message; one sent to Claude Sonnet 5.5 imports clean', () => {
    expect(imported('claude-sonnet-5').result!.warnings.map(formatError)).toEqual([
      expect.stringMatching(/^traces\/mid\.jsonl:2:\d+ error: claude-sonnet-5 rejects this request: a mid-conversation system message/),
    ]);
    expect(imported('claude-sonnet-5-5').result!.warnings).toEqual([]);
    expect(imported('claude-haiku-5-5').result!.warnings).toEqual([]);
  });
});
