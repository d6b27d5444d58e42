/**
 * The order test files start in (vitest.config.ts → sequence.sequencer). Vitest's own order groups
 * the files by project name, so on two workers the browser files would all start first and wait
 * together for the shared build while the longest build file (preview-lifecycle, minutes of
 * `npm run preview:…`) started last and ran alone at the end. This order is across projects:
 * - when the last run's durations are known (vitest's cache), failed files first, then the longest;
 * - on a fresh clone (CI), the `build` project's files first (each builds its own project copies, in
 *   parallel with the shared build the browser files need), then `browser`, then `unit`; the larger
 *   file first within each.
 * Only the order changes: every file still runs, each in its project's own configuration.
 */
import { stat } from 'node:fs/promises';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const PROJECT_ORDER = ['build', 'browser', 'unit'];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cached = files.map((spec) => this.ctx.cache.getTestSpecificationResult(spec));
    if (cached.every(Boolean)) {
      const result = new Map(files.map((spec, i) => [spec, cached[i]!]));
      return [...files].sort((a, b) => {
        const [x, y] = [result.get(a)!, result.get(b)!];
        if (x.failed !== y.failed) return x.failed ? -1 : 1;
        return y.duration - x.duration;
      });
    }
    const size = new Map(await Promise.all(files.map(async (spec) => [spec, (await stat(spec.moduleId)).size] as const)));
    const rank = (spec: TestSpecification): number => {
      const i = PROJECT_ORDER.indexOf(spec.project.name);
      return i === -1 ? PROJECT_ORDER.length : i;
    };
    return [...files].sort((a, b) => rank(a) - rank(b) || size.get(b)! - size.get(a)!);
  }
}
