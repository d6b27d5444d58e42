// The benchmark inputs must be valid and deterministic, or the numbers measure error paths:
// the synthetic corpus loads and renders clean (no errors, no ambiguous anchors), the synthetic
// stream is accepted by the fold at every request. No timing is asserted here.
import { describe, expect, it } from 'vitest';
import { contextProtocol } from '../../src/builtin-folds/context-protocol/index.ts';
import { BUILTIN_FOLDS } from '../../src/builtin-folds/index.ts';
import { DEFAULT_TIME_ZERO } from '../../src/integration/options.ts';
import { renderTexts } from '../../src/corpus/check.ts';
import { generateCorpus } from './corpus.ts';
import { baselineMarkdown } from './project.ts';
import { syntheticStream } from './stream.ts';

const config = { folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', timeZero: DEFAULT_TIME_ZERO };

describe('synthetic corpus', async () => {
  const corpus = generateCorpus({ scenarios: 4 });
  const rendered = await renderTexts(
    corpus.files.map((f) => ({ file: `scenarios/${f.name}`, text: f.text })),
    config,
    { everyEvent: false },
  );

  it('loads and renders with no errors and no ambiguous anchors', () => {
    expect(rendered.errors).toEqual([]);
    expect(rendered.warnings).toEqual([]);
    expect(rendered.scenarios).toHaveLength(4);
  });

  it('has E events and R requests per scenario, annotations on most requests', () => {
    for (const r of rendered.scenarios) {
      expect(r.scenario.events).toHaveLength(60);
      expect(r.requests).toHaveLength(6);
    }
    expect(corpus.annotations).toBeGreaterThanOrEqual(corpus.requests * 0.6);
  });

  it('holds realistic prompts: a ~4,000-token blob in every third scenario', () => {
    /** Characters of the largest message of scenario i's last request. */
    const largest = (i: number): number => {
      const sizes = new Map<number, number>();
      for (const l of rendered.scenarios[i]!.requests.at(-1)!.lines) sizes.set(l.message, (sizes.get(l.message) ?? 0) + l.text.length);
      return Math.max(...sizes.values());
    };
    expect(largest(0)).toBeGreaterThan(16_000);
    expect(largest(3)).toBeGreaterThan(16_000);
    expect(largest(1)).toBeLessThan(16_000);
  });

  it('is deterministic: scenario i is the same whatever N is', () => {
    const again = generateCorpus({ scenarios: 2 });
    expect(again.files).toEqual(corpus.files.slice(0, 2));
  });

  it('fences baseline request texts so backticks inside cannot close them', () => {
    const md = baselineMarkdown({ slug: 'x', title: 'X', intro: '', requests: [{ offset: 1, text: 'a\n```ts\nb\n```' }] });
    expect(md).toContain('````yaml\na\n```ts\nb\n```\n````');
  });
});

describe('synthetic stream', () => {
  const stream = syntheticStream({ events: 3_000 });

  it('is valid and every request is accepted', () => {
    expect(stream.events).toHaveLength(3_000);
    expect(stream.requests).toHaveLength(30);
    for (const e of stream.events) expect(contextProtocol.validateEvent(e.type, e.payload), `@${e.offset} ${e.type}`).toEqual([]);
    const snaps = contextProtocol.snapshots(stream.events, contextProtocol.defaults, new Set(stream.requests));
    expect(snaps.filter((s) => s.request)).toHaveLength(30);
  });

  it('compacts periodically, so prompts stay bounded', () => {
    expect(stream.compactions).toBe(3);
    const snaps = contextProtocol.snapshots(stream.events, contextProtocol.defaults, new Set(stream.requests));
    const sizes = snaps.map((s) => s.messages.length);
    expect(Math.max(...sizes.slice(20))).toBeLessThanOrEqual(Math.max(...sizes.slice(0, 10)) * 1.5);
  });
});
