/**
 * The economics page's model table is the catalog, figure for figure: one row per entry, each price
 * printed exactly as recorded with its own source, durations as a reader says them.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../providers/registry.ts';
import { catalogRows, minutesText, sourceTitle, usdText } from './catalog-table.ts';

describe('catalog table', () => {
  const rows = catalogRows(CATALOG);

  it('has one row per catalog entry, in catalog order', () => {
    expect(rows.map((r) => r.id)).toEqual(CATALOG.map((m) => m.id));
  });

  it('prints every price exactly as recorded, linked to that figure’s source', () => {
    for (const [i, m] of CATALOG.entries()) {
      const r = rows[i]!;
      for (const k of ['input', 'cachedInput', 'cacheWrite', 'cacheWrite1h', 'output'] as const) {
        const f = m.prices[k];
        if (!f) {
          expect(r[k], `${m.id}.${k}`).toBeUndefined();
          continue;
        }
        expect(r[k]?.text, `${m.id}.${k}`).toBe(`$${String(f.value)}`);
        expect(r[k]?.source).toBe(f.source);
        expect(r[k]?.read).toBe(f.read);
      }
      expect(r.minimum.text.replace(/,/g, '')).toBe(String(m.minPrefixTokens.value));
      expect(r.matches).toEqual([...m.ids, ...m.families.map((f) => `${f}*`)]);
    }
  });

  it('Haiku 4.5 shows 4,096 tokens and a 5-minute or 1-hour retention', () => {
    const haiku = rows.find((r) => r.id === 'anthropic-claude-haiku-4.5');
    expect(haiku?.minimum.text).toBe('4,096');
    expect(haiku?.retention.text).toBe('5 min');
    expect(haiku?.extended?.text).toBe('1 h');
  });

  it('writes durations and prices as a reader says them', () => {
    expect(minutesText(5)).toBe('5 min');
    expect(minutesText(30)).toBe('30 min');
    expect(minutesText(60)).toBe('1 h');
    expect(minutesText(90)).toBe('90 min');
    expect(minutesText(24 * 60)).toBe('24 h');
    expect(usdText(0.075)).toBe('$0.075');
    expect(usdText(18.75)).toBe('$18.75');
  });

  it('puts the read date and the note in a source link’s title', () => {
    expect(sourceTitle({ read: '2026-12-02' })).toBe('read 2026-12-02');
    expect(sourceTitle({ read: '2026-12-02', note: 'a note' })).toBe('read 2026-12-02 — a note');
    expect(sourceTitle({ read: '2026-12-02', note: 'set `ttl: "1h"` on <b>it</b>' })).toBe('read 2026-12-02 — set ttl: "1h" on <b>it</b>');
  });
});
