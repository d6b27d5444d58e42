/**
 * The bundled mid-conversation scenarios (26, 48, 50) quote one figure on a model Anthropic added
 * to its list for mid-conversation system messages and tool changes (platform.claude.com/docs/zh-CN/
 * build-with-claude/mid-conversation-system-messages, read 2026-12-03): Claude Sonnet 5.5. Checked
 * here against the scenarios' every-profile economics (recomputed from the scenario files) and an
 * independent computation from the token counts and Sonnet 5.5's prices typed out by hand, so a
 * catalog or fold change that makes an intro untrue fails. Claude Sonnet 5, which the page names as
 * rejecting the feature, shows the rejection and no figure.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../cli/config.ts';
import { formatUsd } from '../economics/format.ts';
import { renderTexts } from './check.ts';

const config = await loadConfig();
const SCENARIOS = [
  { file: '26-layered-mid-conversation.yaml', id: 'layered-mid-conversation', share: '60 %', cost: '≈$0.0102' },
  { file: '48-superseding-mid-conversation.yaml', id: 'superseding-mid-conversation', share: '72 %', cost: '≈$0.00662' },
  { file: '50-lifecycle-tools-change-mid-conversation.yaml', id: 'lifecycle-tools-change-mid-conversation', share: '78 %', cost: '≈$0.00627' },
];
const texts = SCENARIOS.map(({ file }) => ({ file: `scenarios/${file}`, text: readFileSync(join(config.root, 'scenarios', file), 'utf8') }));
const corpus = await renderTexts(texts, config, { everyEvent: true });
const under = (id: string, profile: string) => corpus.economics.get(id)!.byProfile!.find((p) => p.profile === profile)!.totals;

/** Claude Sonnet 5.5, $ per million tokens: input, 5-minute cache write, cache hit, output (the pricing row the catalog cites). */
const SONNET_5_5 = { input: 2, write: 2.5, read: 0.1, output: 10 };

describe('the mid-conversation scenarios on the models Anthropic lists', () => {
  it('render clean', () => expect(corpus.errors).toEqual([]));

  for (const s of SCENARIOS) {
    it(`${s.id}: on Claude Sonnet 5.5 the intro's share and cost hold, and match a hand computation`, () => {
      const t = under(s.id, 'anthropic-claude-sonnet-5.5');
      expect(t.rejected).toBe(0);
      const uncached = t.inputTokens - t.cachedTokens - t.cacheWriteTokens;
      const byHand = (uncached * SONNET_5_5.input + t.cacheWriteTokens * SONNET_5_5.write + t.cachedTokens * SONNET_5_5.read + t.outputTokens * SONNET_5_5.output) / 1e6;
      expect(t.costUsd!).toBeCloseTo(byHand, 9);
      expect(`≈${formatUsd(t.costUsd!)}`).toBe(s.cost);
      expect(`${Math.round(t.cachedShare! * 100)} %`).toBe(s.share);
      const intro = texts.find((x) => x.file.endsWith(s.file))!.text;
      expect(intro.replace(/\s+/g, ' ')).toContain(s.cost);
      // The same share as on Claude Opus 4.8, the model the scenario is sent to: the cache mechanism is the same.
      expect(t.cachedShare).toBe(under(s.id, 'anthropic-claude-opus-4.8').cachedShare);
    });

    it(`${s.id}: Claude Sonnet 5 (named on the page as not accepting it) is rejected, with no cost`, () => {
      const t = under(s.id, 'anthropic-claude-sonnet-5');
      expect(t.rejected).toBeGreaterThan(0);
      expect(t.costUsd).toBeNull();
    });
  }
});
