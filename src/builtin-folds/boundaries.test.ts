/**
 * The generic layers never name a built-in fold's event types: everything particular to one fold
 * lives in that fold's folder, behind the Fold interface's hooks — so a project's own fold is a
 * first-class citizen. This scans the generic source (not tests, which exercise the loader with a
 * real fold, not the fold's own reference page, and not the synthetic benchmark corpus, which is a
 * context-protocol stream by design, nor the fuzzer, which mutates it, nor the trace importer, which writes requests-fold scenarios) for any built-in fold's event type name.
 * Type names without a `/` (the layered fold's `request`) are ordinary words and are not scanned.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from './index.ts';

const SRC = resolve(import.meta.dirname, '..');
const EXCLUDED = [/\.test\.ts$/, /^(pages|routes)\/reference\//, /^bench\//, /^fuzz\//, /^import\//];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|astro|mdx|mjs)$/.test(n) ? [p] : [];
  });
}

/** Where a fold's own code lives: src/builtin-folds/<id>/ (built-in folds are folders named by their id). */
const ownFolder = (id: string): string => `builtin-folds/${id}/`;

describe('fold boundaries', () => {
  const sources = files(SRC).map((p) => ({ rel: relative(SRC, p), text: readFileSync(p, 'utf8') }));

  it('scans the generic layers', () => {
    expect(sources.some((s) => s.rel === 'scenarios/load.ts')).toBe(true);
    expect(sources.some((s) => s.rel === 'prompt/view.ts')).toBe(true);
  });

  for (const fold of BUILTIN_FOLDS.values()) {
    it(`no module outside src/${ownFolder(fold.id)} names a \`${fold.id}\` event type`, () => {
      const names = fold.eventTypes.filter((t) => t.includes('/'));
      const hits = sources
        .filter((s) => !s.rel.startsWith(ownFolder(fold.id)) && !EXCLUDED.some((x) => x.test(s.rel)))
        .flatMap((s) => names.filter((n) => s.text.includes(n)).map((n) => `src/${s.rel} names ${n}`));
      expect(hits).toEqual([]);
    });
  }
});
