/**
 * The model table of the "How the numbers are computed" page, as plain data: one row per catalog
 * entry with each figure's display text and its source, so the page is generated from the catalog
 * (the provider adapters' catalogs, src/providers/<provider>/catalog.ts) and cannot drift from it. Text only — the Astro component escapes it.
 */
import { cacheStrategy } from '../providers/registry.ts';
import type { ModelFacts } from '../providers/shared/catalog.ts';
import type { Sourced } from '../providers/types.ts';
import { markdownText } from './markdown.ts';

export interface FigureCell {
  /** What the cell shows, e.g. `$2.5`, `4,096`, `5 min`. */
  text: string;
  source: string;
  read: string;
  note?: string;
}

export interface CatalogRow {
  id: string;
  title: string;
  provider: ModelFacts['provider'];
  /** Exact ids, then families as `prefix*`. */
  matches: string[];
  cache: string;
  tokenizer: string;
  minimum: FigureCell;
  retention: FigureCell;
  extended?: FigureCell;
  input?: FigureCell;
  cachedInput?: FigureCell;
  cacheWrite?: FigureCell;
  cacheWrite1h?: FigureCell;
  output?: FigureCell;
}

/** A strategy's short name (its adapter's `short`). */
const cacheText = (id: string): string => cacheStrategy(id)?.short ?? id;

/** Minutes as a reader says them: `5 min`, `1 h`, `24 h`, `12 h`. */
export function minutesText(m: number): string {
  return m >= 60 && m % 60 === 0 ? `${m / 60} h` : `${m} min`;
}

/** USD per million tokens exactly as recorded (no rounding): `$0.075`. */
export function usdText(v: number): string {
  return `$${v}`;
}

function cell(f: Sourced<number | null>, text: string): FigureCell {
  return { text, source: f.source, read: f.read, ...(f.note ? { note: f.note } : {}) };
}

const price = (f: Sourced<number> | undefined): FigureCell | undefined => (f ? cell(f, usdText(f.value)) : undefined);

export function catalogRows(catalog: readonly ModelFacts[]): CatalogRow[] {
  return catalog.map((m) => ({
    id: m.id,
    title: m.title,
    provider: m.provider,
    matches: [...m.ids, ...m.families.map((f) => `${f}*`)],
    cache: cacheText(m.cache),
    tokenizer: m.tokenizer === 'approx' ? '≈' : m.tokenizer,
    minimum: cell(m.minPrefixTokens, m.minPrefixTokens.value.toLocaleString('en-US')),
    retention: cell(m.retentionMinutes, m.retentionMinutes.value === null ? 'not documented' : minutesText(m.retentionMinutes.value)),
    ...(m.extendedRetentionMinutes && { extended: cell(m.extendedRetentionMinutes, minutesText(m.extendedRetentionMinutes.value)) }),
    input: price(m.prices.input),
    cachedInput: price(m.prices.cachedInput),
    cacheWrite: price(m.prices.cacheWrite),
    cacheWrite1h: price(m.prices.cacheWrite1h),
    output: price(m.prices.output),
  }));
}

/** The tooltip of a figure's source link: when it was read, and the note (its inline Markdown as the plain text a reader sees). */
export function sourceTitle(f: Pick<FigureCell, 'read' | 'note'>): string {
  return f.note ? `read ${f.read} — ${markdownText(f.note)}` : `read ${f.read}`;
}
