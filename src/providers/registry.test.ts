/**
 * The registry's contract: every adapter is one object that recognises its own body, accepts it
 * with its schema, reads it as messages, writes a rendered request back as a body it reads again
 * the same way (a round trip), reads its own usage and rejects another format's; ids, import names
 * and cache strategy ids are unique; every catalog entry names a registered strategy.
 */
import { describe, expect, it } from 'vitest';
import { schemaIssues } from '../folds/validate.ts';
import type { RenderedMessage } from '../folds/types.ts';
import {
  bodyIssues,
  CACHE_STRATEGIES,
  CATALOG,
  documentedFeature,
  EXAMPLE_REQUEST,
  exampleModel,
  FALLBACKS,
  formatOfAiSdkProvider,
  formatSentBy,
  isProviderPage,
  LOGGING_PROVIDERS,
  modelOf,
  PROVIDER_IDS,
  PROVIDERS,
  providerOf,
} from './registry.ts';
import type { ProviderAdapter } from './types.ts';
import { WIRE_FACES } from './wire-faces.ts';

const adapters: readonly ProviderAdapter[] = PROVIDERS;

/** One body per format, as a client sends it, with the usage its response reports. */
const SAMPLES: Record<string, { body: Record<string, unknown>; usage: Record<string, unknown>; measured: unknown }> = {
  'openai-chat': {
    body: {
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'hello' },
      ],
    },
    usage: { prompt_tokens: 2000, prompt_tokens_details: { cached_tokens: 1024 } },
    measured: { inputTokens: 2000, cachedTokens: 1024 },
  },
  'openai-responses': {
    body: { model: 'gpt-5', instructions: 'S', input: [{ role: 'user', content: 'hello' }] },
    usage: { input_tokens: 2000, input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 10 } },
    measured: { inputTokens: 2000, cachedTokens: 1024, cacheWriteTokens: 10 },
  },
  anthropic: {
    body: { model: 'claude-sonnet-4-5', max_tokens: 10, system: 'S', messages: [{ role: 'user', content: 'hello' }] },
    usage: { input_tokens: 5, cache_read_input_tokens: 1000, cache_creation_input_tokens: 20 },
    measured: { inputTokens: 1025, cachedTokens: 1000, cacheWriteTokens: 20 },
  },
  'bedrock-converse': {
    body: {
      modelId: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      system: [{ text: 'S' }],
      messages: [{ role: 'user', content: [{ text: 'hello' }] }],
      inferenceConfig: { maxTokens: 10 },
    },
    // Converse's inputTokens excludes the cache reads and writes.
    usage: { inputTokens: 5, outputTokens: 3, totalTokens: 1028, cacheReadInputTokens: 1000, cacheWriteInputTokens: 20 },
    measured: { inputTokens: 1025, cachedTokens: 1000, cacheWriteTokens: 20, outputTokens: 3 },
  },
  gemini: {
    body: { model: 'gemini-2.5-pro', systemInstruction: { parts: [{ text: 'S' }] }, contents: [{ role: 'user', parts: [{ text: 'hello' }] }] },
    // promptTokenCount includes cachedContentTokenCount.
    usage: { promptTokenCount: 2100, cachedContentTokenCount: 2048, candidatesTokenCount: 7, totalTokenCount: 2107 },
    measured: { inputTokens: 2100, cachedTokens: 2048, cacheWriteTokens: 0, outputTokens: 7 },
  },
  'otel-genai': {
    body: { model: 'gpt-5', system_instructions: [{ type: 'text', content: 'S' }], input_messages: [{ role: 'user', parts: [{ type: 'text', content: 'hello' }] }] },
    usage: { 'gen_ai.usage.input_tokens': 2000, 'gen_ai.usage.cache_read.input_tokens': 1024 },
    measured: { inputTokens: 2000, cachedTokens: 1024 },
  },
};

const msg = (role: string, content: string): RenderedMessage => ({ role, content, parts: [] });

describe('the provider registry', () => {
  it('ids, import names and cache strategy ids are unique; the enum is the registry', () => {
    const ids = adapters.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...PROVIDER_IDS]).toEqual(ids);
    const names = adapters.map((p) => p.importName ?? p.id);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(CACHE_STRATEGIES.map((c) => c.id)).size).toBe(CACHE_STRATEGIES.length);
    expect(providerOf('no-such-format')).toBeUndefined();
  });

  it('every catalog entry and fallback names a registered cache strategy; each profile id is unique', () => {
    const strategies = new Set(CACHE_STRATEGIES.map((c) => c.id));
    for (const m of [...CATALOG, ...FALLBACKS.map((f) => f.model)]) expect(strategies.has(m.cache), m.id).toBe(true);
    const ids = [...CATALOG, ...FALLBACKS.map((f) => f.model)].map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(adapters.map((p) => [p.id, p] as const))('%s: its schema accepts its sample, normalise reads it, its usage reads and another format’s is told apart', (id, p) => {
    const sample = SAMPLES[id]!;
    expect(schemaIssues(p.schema, sample.body)).toEqual([]);
    if (p.detect) expect(p.detect(sample.body)).toBe(true);
    const messages = p.normalise(sample.body);
    expect(messages.map((m) => [m.role, m.text])).toEqual([
      ['system', 'S'],
      ['user', 'hello'],
    ]);
    expect(p.usage!.looksLike(sample.usage)).toBe(true);
    expect(p.usage!.read(sample.usage, [])).toEqual(sample.measured);
    for (const other of adapters) if (other !== p) expect(other.usage!.looksLike(sample.usage), `${other.id} on ${id}'s usage`).toBe(false);
  });

  it.each(adapters.filter((p) => p.write).map((p) => [p.id, p] as const))(
    '%s: a written body has an endpoint and reads back as the rendered request (a system message after the first turns included)',
    (_id, p) => {
      expect(p.endpoint?.url).toMatch(/^https:\/\//);
      const src = {
        model: 'provider/model-x',
        messages: [msg('system', 'You are terse.'), msg('user', 'hi'), msg('assistant', 'hello'), msg('system', 'Answer in French.'), msg('user', 'next?')],
      };
      const written = p.write!(src);
      // Bedrock and Gemini take the model in the URL: the endpoint names it, a captured body carries it as the adapter reads it.
      const body = p.model ? { ...written, model: 'model-x' } : written;
      if (p.model) expect([written.model, p.endpoint!.url]).toEqual([undefined, expect.stringMatching(/MODEL/)]);
      expect(modelOf(p.id as never, body)).toBe('model-x');
      expect(schemaIssues(p.schema, body)).toEqual([]);
      const midSystem = p.id !== 'bedrock-converse' && p.id !== 'gemini';
      // Converse and Gemini have no mid-conversation system message: it goes as user text, merged with the user turn after it.
      const expected = midSystem
        ? src.messages.map((m) => [m.role, m.content])
        : [...src.messages.slice(0, 3).map((m) => [m.role, m.content]), ['user', 'Answer in French.\nnext?']];
      expect(p.normalise(body).map((m) => [m.role, m.text])).toEqual(expected);
    },
  );
});

describe('the wire faces (what the browser’s wire views load instead of the registry)', () => {
  it('are the registry’s writing adapters’ own id, title, writer and endpoint, in registry order', () => {
    const writing = adapters.filter((p) => p.write !== undefined);
    expect(WIRE_FACES.map((f) => f.id)).toEqual(writing.map((p) => p.id));
    for (const [i, f] of WIRE_FACES.entries()) {
      const p = writing[i]!;
      expect([p.title, p.write, p.endpoint]).toEqual([f.title, f.write, f.endpoint]);
      expect(p.write).toBe(f.write); // the same writer, not a copy of it
    }
  });

  it('carry no schema: the module graph of wire-faces.ts never reaches zod or the registry', async () => {
    const { readFileSync } = await import('node:fs');
    const { dirname, resolve } = await import('node:path');
    const seen = new Set<string>();
    const walk = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*? from '([^']+)';/gm)) {
        const spec = m[1]!;
        expect(spec, `${file} imports ${spec}`).not.toBe('zod');
        expect(spec.endsWith('registry.ts'), `${file} imports ${spec}`).toBe(false);
        if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
      }
    };
    walk(resolve(import.meta.dirname, 'wire-faces.ts'));
    expect(seen.size).toBeGreaterThan(5);
  });
});

describe('a provider’s own documentation', () => {
  it('is a page on one of its adapters’ docHosts; any other host is a secondary source', () => {
    expect(isProviderPage('https://platform.claude.com/docs/en/build-with-claude/prompt-caching')).toBe(true);
    expect(isProviderPage('https://developers.openai.com/api/docs/guides/prompt-caching')).toBe(true);
    expect(isProviderPage('https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html')).toBe(true);
    expect(isProviderPage('https://ai.google.dev/gemini-api/docs/caching')).toBe(true);
    expect(isProviderPage('https://learn.microsoft.com/azure/foundry/openai/how-to/prompt-caching')).toBe(false);
    expect(isProviderPage('https://strandsagents.com/latest/')).toBe(false);
    // The host must be the whole host, not a prefix of another one.
    expect(isProviderPage('https://platform.claude.com.example.org/docs')).toBe(false);
  });
});

describe('the rules a strategy gives the request linter', () => {
  it('every finding a strategy can produce has its provider’s rule to cite', () => {
    for (const c of CACHE_STRATEGIES) {
      // A 1-hour breakpoint after a shorter one is possible only where breakpoints carry their own TTL.
      if (c.perBreakpointTtl) expect(c.lint.ttlOrder, c.id).toBeDefined();
      // An entry out of reach is possible only where a breakpoint looks back a limited way.
      if (c.reach === 'lookback') expect(c.lint.lookback, c.id).toBeDefined();
      // A paid write is checked for a reader only where what a hit needs of the prefix is also cited.
      if (c.lint.write) expect(c.lint.prefix, c.id).toBeDefined();
    }
  });

  it('each provider cites its own pages: Bedrock’s TTL order and lookback are Bedrock’s, not Anthropic’s', () => {
    const bedrock = CACHE_STRATEGIES.find((c) => c.id === 'bedrock')!;
    const anthropic = CACHE_STRATEGIES.find((c) => c.id === 'anthropic')!;
    expect(bedrock.lint.ttlOrder!.note).toMatch(/TTLs must not increase across toolConfig → system → messages/);
    expect(anthropic.lint.ttlOrder!.note).toMatch(/longer TTL must appear before shorter ones/);
    expect(bedrock.lint.lookback!.source).toMatch(/aws/);
    // OpenAI's prefix caching charges no write: an unread one is no finding there.
    expect(CACHE_STRATEGIES.find((c) => c.id === 'openai-prefix')!.lint.write).toBeUndefined();
  });
});

describe('what captures ask the registry', () => {
  it('the format an agent sends (an adapter’s sentBy), the AI SDK’s names (aiSdkProviders), and the providers that keep a log of their own', () => {
    expect(formatSentBy('codex')).toBe('openai-responses');
    expect(formatSentBy('claude-code')).toBe('anthropic');
    expect(formatSentBy('vcr')).toBeUndefined();
    expect(['openai.chat', 'openai.responses', 'anthropic.messages', 'google.generative-ai'].map(formatOfAiSdkProvider)).toEqual([
      'openai-chat',
      'openai-responses',
      'anthropic',
      undefined,
    ]);
    expect(LOGGING_PROVIDERS.map((p) => [p.id, p.log.id])).toEqual([['bedrock-converse', 'bedrock-invocation-log']]);
    // Each name belongs to one adapter only, or a capture's format would depend on registry order.
    for (const key of ['sentBy', 'aiSdkProviders'] as const) {
      const names = adapters.flatMap((p) => p[key] ?? []);
      expect(new Set(names).size, key).toBe(names.length);
    }
  });
});

describe('documentation examples come from the adapters', () => {
  it('an example model is a catalog model as a scenario names it; a fold can ask for one of a kind', () => {
    const known = (m: string): boolean => CATALOG.some((e) => e.ids.includes(m.slice(m.indexOf('/') + 1)) || e.families.some((f) => m.slice(m.indexOf('/') + 1).startsWith(f)));
    expect(exampleModel()).toBe('openai/gpt-5.6-terra');
    expect(exampleModel((a) => a.cacheStrategies.some((c) => c.perBreakpointTtl))).toBe('anthropic/claude-sonnet-5');
    for (const a of adapters) if (a.exampleModel) expect(known(a.exampleModel), a.exampleModel).toBe(true);
  });

  it('the example request is a body its format reads without an issue', () => {
    expect(EXAMPLE_REQUEST.format).toBe('openai-chat');
    expect(bodyIssues(EXAMPLE_REQUEST.format, EXAMPLE_REQUEST.body)).toEqual([]);
    expect(modelOf(EXAMPLE_REQUEST.format, EXAMPLE_REQUEST.body)).toBe('gpt-4.1');
  });
});

describe('a request feature a provider accepts on some models only', () => {
  it('names its provider, its rule, the documented models and the catalog entries that accept it', () => {
    const mid = documentedFeature('mid-conversation-system')!;
    expect(mid.providerTitle).toBe('Anthropic');
    expect(mid.rule.source).toMatch(/^https:\/\/platform\.claude\.com\/.*mid-conversation-system-messages$/);
    expect(mid.models).toContain('Claude Opus 4.8');
    // Catalog order: the first entry that accepts it is the one the layered-placement page prices under.
    expect(mid.entries[0]!.id).toBe('anthropic-claude-opus-4.8');
    expect(mid.entries.every((m) => m.features?.['mid-conversation-system']?.value === true)).toBe(true);
    expect(mid.entries.map((m) => m.id)).not.toContain('anthropic-claude-sonnet-5');
    expect(documentedFeature('no-such-feature')).toBeUndefined();
  });
});
