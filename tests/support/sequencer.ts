/**
 * The order test files start in (vitest.config.ts → sequence.sequencer): the longest first, across
 * projects, so that on two workers no long file starts last and runs alone at the end (vitest's own
 * order groups the files by project name: the browser files would all start first and wait together
 * for the shared build). Each file's duration is, in this order:
 * - the last run's, from vitest's cache (and a file that failed then starts first);
 * - on a fresh clone (CI), where there is no cache, tests/support/durations.json — the durations
 *   of a full run, written by `npm run test:durations`;
 * - for a file in neither (a new one), its size, after every file with a known duration.
 * Only the order changes: every file still runs, each in its project's own configuration.
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per file (path from the project root) of a full run: only an order, never a result. */
function hinted(root: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(root, 'tests/support/durations.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const hints = hinted(this.ctx.config.root);
    const keys = new Map(
      await Promise.all(
        files.map(async (spec) => {
          const cached = this.ctx.cache.getTestSpecificationResult(spec);
          const hint = hints[relative(this.ctx.config.root, spec.moduleId)];
          // [failed last time, known duration in ms (−1: unknown), size]
          const key: [boolean, number, number] = [cached?.failed ?? false, cached ? cached.duration : hint !== undefined ? hint * 1000 : -1, (await stat(spec.moduleId)).size];
          return [spec, key] as const;
        }),
      ),
    );
    return [...files].sort((a, b) => {
      const [x, y] = [keys.get(a)!, keys.get(b)!];
      return Number(y[0]) - Number(x[0]) || y[1] - x[1] || y[2] - x[2];
    });
  }
}
