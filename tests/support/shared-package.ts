/**
 * Test support: the package packed ONCE per test run (tests/support/pack-package.ts: the package
 * build of `prepack`, then `npm pack`), shared by the package tests — tests/package.test.ts installs
 * the tarball in fresh hosts, tests/package-contents.test.ts reads what it ships — instead of a
 * package build per file. The global setup (tests/support/global-setup.ts) makes it, in a
 * temporary folder removed when the run ends: treat the folder and the tarball as read-only.
 */
import { join } from 'node:path';
import { inject } from 'vitest';
import type { PackReport, SharedPackageAnswer } from './global-setup.ts';
import { ask } from './shared-site.ts';

export interface SharedPackage {
  /** The packed tarball (.tgz). */
  tarball: string;
  /** npm's `npm pack --json` report of it: the files it holds, their count, its sizes. */
  report: PackReport;
}

/** Waits (as long as the build takes) for the run's packed package. */
export async function sharedPackage(): Promise<SharedPackage> {
  const endpoint = inject('pfeShared');
  if (!endpoint) throw new Error('no shared package in this project: run the file in the `build` project (vitest.config.ts)');
  const answer = await ask<SharedPackageAnswer>(`${endpoint}/package`);
  if ('error' in answer) throw new Error(answer.error);
  return { tarball: join(answer.dir, answer.report.filename), report: answer.report };
}
