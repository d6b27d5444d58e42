/** The generic card preview of an event a fold does not describe: text, else the fields as YAML — never raw JSON. */
import { describe, expect, it } from 'vitest';
import { defaultPreview, oneLine } from './hooks.ts';

describe('defaultPreview', () => {
  it('shows the first string field', () => {
    expect(defaultPreview('entry/added', { layer: 'L1', ordinal: 3 })).toBe('L1');
  });

  it('writes fields without text the way the scenario file does, not as JSON', () => {
    expect(defaultPreview('entry/removed', { ordinal: 10 })).toBe('ordinal: 10');
    expect(defaultPreview('x', { ids: [1, 2], at: { line: 3, ok: true }, none: null })).toBe('ids: [1, 2], at: {line: 3, ok: true}, none: null');
    expect(defaultPreview('x', { ordinal: 10 })).not.toMatch(/[{"]/);
  });

  it('falls back to the event type for an empty payload', () => {
    expect(defaultPreview('agent/paused', {})).toBe('agent/paused');
    expect(defaultPreview('agent/paused', null)).toBe('agent/paused');
  });
});

describe('oneLine', () => {
  // The definition it must keep: every run of white space one space, trimmed, cut to 119 characters and an ellipsis past 120.
  const spacedOut = (text: string): string => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > 120 ? `${line.slice(0, 119)}…` : line;
  };

  it('joins the words with one space and cuts a long text at 120 characters', () => {
    expect(oneLine('  read\n\tthe   file\r\n')).toBe('read the file');
    expect(oneLine('')).toBe('');
    expect(oneLine(' \n\t ')).toBe('');
    expect(oneLine('x'.repeat(120))).toBe('x'.repeat(120));
    expect(oneLine('x'.repeat(121))).toBe(`${'x'.repeat(119)}…`);
    expect(oneLine(`${'word '.repeat(10_000)}end`)).toHaveLength(120);
  });

  it('agrees with spacing the whole text out first, on every kind of white space and at every length', () => {
    // A fixed-seed generator: the same texts every run.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = ['a', 'word', 'é', '😀', '\u00a0', '\ufeff', '\u2028', '\u3000', ' ', '\n', '\t', '\r\n', '  ', 'x'.repeat(60)];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: next(80) }, () => pieces[next(pieces.length)]).join('');
      expect(oneLine(text), JSON.stringify(text)).toBe(spacedOut(text));
    }
  });
});
