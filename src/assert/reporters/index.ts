/** The reporters of `prompt-fold assert --reporter <name>`, by name. */
import type { AssertReport } from '../run.ts';
import { githubReport } from './github.ts';
import { junitReport } from './junit.ts';
import { sarifReport } from './sarif.ts';
import { textReport } from './text.ts';

export const REPORTERS = ['text', 'junit', 'sarif', 'github'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export function writeReport(name: ReporterName, r: AssertReport, version: string): string {
  if (name === 'junit') return junitReport(r);
  if (name === 'sarif') return sarifReport(r, version);
  if (name === 'github') return githubReport(r);
  return textReport(r);
}
