/** Near-miss suggestions: typos, case and the agent/ vs agents/ prefixes; nothing for far-off words. */
import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from './suggest.ts';

const TYPES = ['agent/created', 'agents/context-added', 'agents/context-rewritten', 'agent/llm-request-requested', 'agent/llm-request-settled'];

describe('closest', () => {
  it('finds the agent/ vs agents/ prefix mix-ups and small typos', () => {
    expect(closest('agent/context-added', TYPES)).toBe('agents/context-added');
    expect(closest('agents/llm-request-requested', TYPES)).toBe('agent/llm-request-requested');
    expect(closest('agent/llm-request-setled', TYPES)).toBe('agent/llm-request-settled');
    expect(closest('titel', ['id', 'title', 'intro'])).toBe('title');
  });
  it('ignores case (an id with capitals finds its lowercase twin)', () => {
    expect(closest('Birth-Window', ['birth-window', 'sent-re-add'])).toBe('birth-window');
  });
  it('suggests nothing for a far-off word, a short word, or an exact match', () => {
    expect(closest('banana', TYPES)).toBeUndefined();
    expect(closest('x', ['id', 'fold'])).toBeUndefined();
    expect(closest('title', ['title', 'titles'])).toBeUndefined();
    expect(closest('L4', ['L0', 'L1', 'L2', 'L3'])).toBeUndefined(); // equally close to several
    expect(didYouMean('banana', TYPES)).toBe('');
    expect(didYouMean('layerd', ['context-protocol', 'layered'])).toBe(' — did you mean `layered`?');
  });
});
