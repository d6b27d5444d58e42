/**
 * The request linter's findings in the economics report (`report --json`): each request carries
 * its own findings as `lint` (rule, severity, message, the provider's documented rule as `source`,
 * and `fix` for an error), in the linter's order; a request without findings carries `lint: []`,
 * so every row has the key.
 */
import type { Report, ReportScenario } from '../economics/report.ts';
import type { LintFinding } from './request-lint.ts';

export type ReportFinding = Omit<LintFinding, 'offset'>;

export type LintedScenario = Omit<ReportScenario, 'requests'> & { requests: (ReportScenario['requests'][number] & { lint: ReportFinding[] })[] };

/** Each scenario of the report with its requests' findings (`lint`: the corpus check's, by scenario id). */
export function lintedScenarios(report: Report, lint: ReadonlyMap<string, readonly LintFinding[]>): LintedScenario[] {
  return report.scenarios.map((s) => {
    const findings = lint.get(s.id) ?? [];
    return { ...s, requests: s.requests.map((q) => ({ ...q, lint: findings.filter((f) => f.offset === q.offset).map(({ offset: _, ...f }) => f) })) };
  });
}
