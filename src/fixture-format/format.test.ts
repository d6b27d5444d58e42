/**
 * The fixture format round-trips: what fixtureText writes, parseFixture reads back — title, every
 * request block in order, each block's text — and unweave recovers the printed lines, the ✂
 * position and the cache breakpoint markers the page and the review compare, for every bundled
 * scenario.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../cli/config.ts';
import { printedBreakpoints } from '../prompt/breakpoints.ts';
import { assertClean, renderCorpus } from '../corpus/check.ts';
import { fixtureText, parseFixture, unweave } from './format.ts';

const corpus = assertClean(await renderCorpus(await loadConfig(), { everyEvent: false }));

describe('fixture format round trip', () => {
  it('covers scenarios with requests', () => {
    expect(corpus.scenarios.filter((r) => r.requests.length).length).toBeGreaterThan(5);
  });

  for (const r of corpus.scenarios) {
    it(`${r.scenario.file}: title, blocks, lines and cut come back`, () => {
      const back = parseFixture(fixtureText(r));
      expect(back.title).toBe(r.scenario.title);
      expect(back.requests.map((b) => b.offset)).toEqual(r.requests.map((q) => q.offset));
      back.requests.forEach((b, i) => {
        const q = r.requests[i]!;
        expect(b.text).toBe(q.text);
        const plain = unweave(
          b.text,
          q.anchors.map((a) => a.annotation.comment),
        );
        expect(plain.lines).toEqual(q.lines.map((l) => l.text));
        expect(plain.cut).toBe(q.cut);
        expect(plain.breakpoints).toEqual(printedBreakpoints(q.lines, q.messages, q.breakpoints));
      });
    });
  }

  it('some bundled requests carry breakpoint markers (the layered fold marks them)', () => {
    const marked = corpus.scenarios.flatMap((r) => r.requests).filter((q) => q.breakpoints?.length);
    expect(marked.length).toBeGreaterThan(5);
    expect(fixtureText(corpus.scenarios.find((r) => r.requests.some((q) => q.breakpoints))!)).toMatch(/\n *# ⚑ cache breakpoint\n/);
  });

  it('keeps a prompt line that merely looks like a comment', () => {
    expect(unweave('content: |\n  # a heading in the prompt\n  # ✂ not the cut', ['other']).lines).toEqual(['content: |', '  # a heading in the prompt', '  # ✂ not the cut']);
  });
});
