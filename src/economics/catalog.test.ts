/**
 * The model catalog's own checks: every figure carries an https source and a read date, ids and
 * families resolve to the entry a reader would expect (with a matcher written here, independently of
 * the engine's), and the prices agree with the multipliers the providers document.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../providers/registry.ts';
import type { ModelFacts } from '../providers/shared/catalog.ts';
import { ANTHROPIC_RULES } from '../providers/anthropic/catalog.ts';
import { OPENAI_BREAKPOINT_RULES, OPENAI_RULES } from '../providers/openai/catalog.ts';
import type { Sourced } from './shipped-profiles.ts';
import { DEFAULT_ECONOMICS, profileFor } from './profiles.ts';

/** Every `Sourced` value anywhere inside `v`, with its path. */
function figures(v: unknown, path: string, out: [string, Sourced<unknown>][] = []): [string, Sourced<unknown>][] {
  if (v && typeof v === 'object') {
    if ('value' in v && 'source' in v) out.push([path, v as Sourced<unknown>]);
    else for (const [k, x] of Object.entries(v)) figures(x, `${path}.${k}`, out);
  }
  return out;
}

/** The documented matching rule, written out: strip `provider/`, exact id, then longest family prefix. */
function resolve(model: string): ModelFacts | undefined {
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  const exact = CATALOG.find((m) => m.ids.includes(bare));
  if (exact) return exact;
  let best: { m: ModelFacts; len: number } | undefined;
  for (const m of CATALOG) for (const f of m.families) if (bare.startsWith(f) && (!best || f.length > best.len)) best = { m, len: f.length };
  return best?.m;
}

const byId = (id: string): ModelFacts => {
  const m = CATALOG.find((x) => x.id === id);
  if (!m) throw new Error(`no catalog entry ${id}`);
  return m;
};

describe('catalog figures', () => {
  const all = [...figures(CATALOG, 'CATALOG'), ...figures({ anthropic: ANTHROPIC_RULES, openai: OPENAI_RULES, openaiBreakpoints: OPENAI_BREAKPOINT_RULES }, 'RULES')];

  it('has figures to check', () => {
    expect(all.length).toBeGreaterThan(40);
  });

  it.each(all)('%s has an https source and a YYYY-MM-DD read date', (_path, f) => {
    expect(f.source).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
    expect(f.read).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(f.read))).toBe(false);
  });

  it('takes prices and cache rules from the providers’ own pages unless the note says otherwise', () => {
    const own = /^https:\/\/(platform\.claude\.com|developers\.openai\.com|docs\.aws\.amazon\.com|ai\.google\.dev|docs\.cloud\.google\.com)\//;
    for (const [path, f] of all) {
      if (!own.test(f.source)) expect(f.note, `${path}: ${f.source} is not the provider's page`).toMatch(/secondary source/i);
    }
  });

  it('every price is a positive number of USD per million tokens', () => {
    for (const m of CATALOG) for (const [k, p] of Object.entries(m.prices)) expect(p?.value, `${m.id}.${k}`).toBeGreaterThan(0);
  });
});

describe('catalog ids and families', () => {
  it('profile ids, exact ids and families are each unique', () => {
    const ids = CATALOG.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const exact = CATALOG.flatMap((m) => m.ids);
    expect(new Set(exact).size).toBe(exact.length);
    const families = CATALOG.flatMap((m) => m.families);
    expect(new Set(families).size).toBe(families.length);
  });

  it('every exact id and every family resolves to its own entry (nothing shadows it)', () => {
    for (const m of CATALOG) {
      for (const id of m.ids) expect(resolve(id)?.id, id).toBe(m.id);
      for (const f of m.families) expect(resolve(`${f}x`)?.id, f).toBe(m.id);
    }
  });

  it.each([
    ['claude-haiku-4-5-20251001', 'anthropic-claude-haiku-4.5'],
    ['claude-haiku-4-5', 'anthropic-claude-haiku-4.5'],
    ['anthropic/claude-haiku-4-5', 'anthropic-claude-haiku-4.5'],
    ['claude-sonnet-4-5-20250929', 'anthropic-claude-sonnet-4.5'],
    ['anthropic/claude-sonnet-4-5', 'anthropic-claude-sonnet-4.5'],
    ['gpt-5.6-terra', 'openai-gpt-5.6-terra'],
    ['openai/gpt-5.6-terra', 'openai-gpt-5.6-terra'],
    ['gpt-4o', 'openai-gpt-4o'],
    ['gpt-4o-2024-11-20', 'openai-gpt-4o'],
    ['gpt-4.1', 'openai-gpt-4.1'],
    ['gpt-4.1-2025-04-14', 'openai-gpt-4.1'],
    ['gpt-4o-mini', 'openai-gpt-4o-mini'],
    ['gpt-4.1-mini-2025-04-14', 'openai-gpt-4.1-mini'],
    ['gpt-5', 'openai-gpt-5'],
    ['gpt-5-mini', 'openai-gpt-5-mini'],
    ['gpt-5.6', 'openai-gpt-5.6-sol'],
    ['gpt-5.6-luna', 'openai-gpt-5.6-luna'],
    ['gpt-5.6-nova', 'openai-gpt-5.6'],
    ['gpt-6-sol', 'openai-gpt-6-sol'],
    ['claude-opus-4-20250514', 'anthropic-claude-opus-4'],
    ['claude-opus-4-1-20250805', 'anthropic-claude-opus-4.1'],
    ['claude-opus-4-5-20251101', 'anthropic-claude-opus-4.5'],
    ['claude-sonnet-4-20250514', 'anthropic-claude-sonnet-4'],
    ['claude-fable-5-1', 'anthropic-claude-fable-5.1'],
    ['claude-fable-5', 'anthropic-claude-fable-5'],
    ['claude-opus-5-5', 'anthropic-claude-opus-5.5'],
    ['claude-sonnet-5-5', 'anthropic-claude-sonnet-5.5'],
    ['claude-haiku-5-5', 'anthropic-claude-haiku-5.5'],
    ['claude-sonnet-5', 'anthropic-claude-sonnet-5'],
    ['gpt-5.1', 'openai-gpt-5.1'],
    ['gpt-5.2', 'openai-gpt-5.2'],
    ['gpt-5.4', 'openai-gpt-5.4'],
    ['gpt-5.4-mini', 'openai-gpt-5.4-mini'],
    ['gpt-5.4-nano', 'openai-gpt-5.4-nano'],
    ['gpt-5.5', 'openai-gpt-5.5'],
    ['gpt-6.1-sol', 'openai-gpt-6.1-sol'],
    ['gpt-6.1-terra', 'openai-gpt-6.1-terra'],
    ['gpt-6.3-sol', 'openai-gpt-6'],
  ])('%s → %s', (model, profile) => {
    expect(resolve(model)?.id).toBe(profile);
  });

  it('matches the whole GPT-5.6 family, not one id', () => {
    for (const model of ['gpt-5.6-sol', 'gpt-5.6-luna', 'gpt-5.6-terra', 'gpt-5.6-terra-2026-07-09', 'openai/gpt-5.6-sol']) {
      const m = resolve(model);
      expect(m?.id, model).toMatch(/^openai-gpt-5\.6/);
      expect(m?.cache, model).toBe('openai-breakpoints');
    }
  });

  it('later OpenAI families get the GPT-5.6-and-later cache rules', () => {
    for (const model of ['gpt-6-sol', 'gpt-6.1-terra']) expect(resolve(model)?.cache, model).toBe('openai-breakpoints');
  });

  it('does not give gpt-4o-mini, gpt-4.1-mini or gpt-4o-2024-05-13 the prices of gpt-4o / gpt-4.1', () => {
    expect(resolve('gpt-4o-mini')?.id).not.toBe('openai-gpt-4o');
    expect(resolve('gpt-4o-2024-05-13')?.id).not.toBe('openai-gpt-4o');
    expect(resolve('gpt-4.1-mini')?.id).not.toBe('openai-gpt-4.1');
    expect(resolve('gpt-4.1-nano')?.id).not.toBe('openai-gpt-4.1');
  });

  it('does not let a model swallow its successor’s id', () => {
    expect(resolve('claude-opus-5-5')?.id).not.toBe('anthropic-claude-opus-5');
    expect(resolve('claude-sonnet-5-5')?.id).not.toBe('anthropic-claude-sonnet-5');
    expect(resolve('claude-opus-4-7')?.id).toBe('anthropic-claude-opus-4.7');
    expect(resolve('claude-sonnet-4-7')).toBeUndefined();
    // gpt-5-codex is its own entry (its own model page), never gpt-5's; later Codex models have none: not configured.
    expect(resolve('gpt-5-codex')?.id).toBe('openai-gpt-5-codex');
    expect(resolve('gpt-5.1-codex-max')).toBeUndefined();
    // GPT-5.3-Codex (Codex CLI sessions of 2026) is priced from secondary sources that agree, and says so.
    const codex = resolve('gpt-5.3-codex');
    expect([codex?.id, codex?.prices?.input?.value, codex?.prices?.cachedInput?.value, codex?.prices?.output?.value]).toEqual(['openai-gpt-5-3-codex', 1.75, 0.175, 14]);
    expect(codex?.prices?.input?.note).toMatch(/^secondary source: /);
  });

  it('leaves unrelated ids unmatched', () => {
    expect(resolve('acme/lm-1')).toBeUndefined();
    expect(resolve('gpt-5.60')).toBeUndefined();
  });
});

describe('catalog cache facts', () => {
  it('Haiku 4.5 needs 4,096 tokens to cache; Sonnet 4.5 1,024', () => {
    expect(byId('anthropic-claude-haiku-4.5').minPrefixTokens.value).toBe(4096);
    expect(byId('anthropic-claude-sonnet-4.5').minPrefixTokens.value).toBe(1024);
  });

  it('Anthropic and Bedrock minimums are one of the published steps (Nova: 1,000), Gemini’s one of its table’s, OpenAI’s are 1,024', () => {
    for (const m of CATALOG) {
      if (m.provider === 'anthropic' || m.provider === 'bedrock') expect([512, 1000, 1024, 2048, 4096], m.id).toContain(m.minPrefixTokens.value);
      else if (m.provider === 'google') expect([1024, 2048, 4096], m.id).toContain(m.minPrefixTokens.value);
      else expect(m.minPrefixTokens.value, m.id).toBe(1024);
    }
  });

  it('Anthropic entries keep 5 minutes with a 1-hour option; GPT-5.6 entries at least 30 minutes', () => {
    for (const m of CATALOG) {
      if (m.cache === 'anthropic') {
        expect(m.retentionMinutes.value, m.id).toBe(5);
        expect(m.extendedRetentionMinutes?.value, m.id).toBe(60);
        expect(m.tokenizer, m.id).toBe('approx');
      }
      if (m.cache === 'openai-breakpoints') expect(m.retentionMinutes.value, m.id).toBe(30);
      if (m.cache === 'openai-prefix') expect(m.retentionMinutes.value, m.id).toBe(5);
    }
  });

  it('provider rules carry the documented numbers', () => {
    expect(ANTHROPIC_RULES.maxBreakpoints.value).toBe(4);
    expect(ANTHROPIC_RULES.lookbackBlocks.value).toBe(20);
    expect([...ANTHROPIC_RULES.cacheOrder.value]).toEqual(['tools', 'system', 'messages']);
    expect(ANTHROPIC_RULES.ttlMinutes.value).toBe(5);
    expect(ANTHROPIC_RULES.ttl1hMinutes.value).toBe(60);
    expect(OPENAI_RULES.minPrefixTokens.value).toBe(1024);
    expect(OPENAI_RULES.stepTokens.value).toBe(128);
    expect(OPENAI_BREAKPOINT_RULES.writeMultiplier.value).toBe(1.25);
  });
});

describe('catalog prices agree with the documented multipliers', () => {
  const close = (a: number | undefined, b: number, what: string) => {
    expect(a, what).toBeDefined();
    expect(Math.abs((a as number) - b), `${what}: ${a} vs ${b}`).toBeLessThan(1e-9);
  };

  it.each(CATALOG.filter((m) => m.cache === 'anthropic' && m.prices.input).map((m) => [m.id, m] as const))(
    '%s: reads 0.1× (or its documented exception), 5-minute writes 1.25×, 1-hour writes 2× input',
    (_id, m) => {
      const input = m.prices.input?.value as number;
      const read = ANTHROPIC_RULES.readMultiplierExceptions[m.id]?.value ?? ANTHROPIC_RULES.readMultiplier.value;
      close(m.prices.cachedInput?.value, input * read, 'cached');
      close(m.prices.cacheWrite?.value, input * ANTHROPIC_RULES.writeMultiplier5m.value, 'write 5m');
      close(m.prices.cacheWrite1h?.value, input * ANTHROPIC_RULES.writeMultiplier1h.value, 'write 1h');
    },
  );

  it.each(CATALOG.filter((m) => m.cache === 'openai-breakpoints' && m.prices.input).map((m) => [m.id, m] as const))('%s: writes cost 1.25× input', (_id, m) => {
    close(m.prices.cacheWrite?.value, (m.prices.input?.value as number) * OPENAI_BREAKPOINT_RULES.writeMultiplier.value, 'write');
  });

  it('OpenAI models before GPT-5.6 have no write price, and cached input is below input', () => {
    for (const m of CATALOG.filter((x) => x.cache === 'openai-prefix')) {
      expect(m.prices.cacheWrite, m.id).toBeUndefined();
      if (m.prices.input && m.prices.cachedInput) expect(m.prices.cachedInput.value, m.id).toBeLessThan(m.prices.input.value);
    }
  });

  it('the bundled scenarios’ models and the common ones are priced', () => {
    for (const model of ['gpt-5.6-terra', 'claude-sonnet-4-5', 'gpt-4o', 'gpt-4.1', 'claude-haiku-4-5']) {
      const p = resolve(model)?.prices;
      expect(p?.input, model).toBeDefined();
      expect(p?.cachedInput, model).toBeDefined();
      expect(p?.output, model).toBeDefined();
    }
  });
});

describe('models older Claude Code transcripts name', () => {
  it('Claude Sonnet 3.7 and Haiku 3.5 map to their own priced profiles, each figure sourced and dated', () => {
    const sonnet = profileFor(DEFAULT_ECONOMICS, 'claude-3-7-sonnet-20250219').profile;
    const haiku = profileFor(DEFAULT_ECONOMICS, 'claude-3-5-haiku-20241022').profile;
    expect([sonnet.id, sonnet.minPrefixTokens.value]).toEqual(['anthropic-claude-sonnet-3.7', 1024]);
    expect([haiku.id, haiku.minPrefixTokens.value]).toEqual(['anthropic-claude-haiku-3.5', 2048]);
    const row = (p: typeof sonnet) => [p.prices.input?.value, p.prices.cacheWrite?.value, p.prices.cacheWrite1h?.value, p.prices.cachedInput?.value, p.prices.output?.value];
    // The pricing page's rows: base input, 5m writes, 1h writes, cache hits, output ($/MTok).
    expect(row(sonnet)).toEqual([3, 3.75, 6, 0.3, 15]);
    expect(row(haiku)).toEqual([0.8, 1, 1.6, 0.08, 4]);
    for (const f of [sonnet.prices.input!, haiku.prices.output!, haiku.minPrefixTokens]) {
      expect(f.source).toMatch(/^https:\/\/platform\.claude\.com\/docs\//);
      expect(f.read).toBe('2026-12-06');
    }
  });
});
