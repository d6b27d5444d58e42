/**
 * The report as SARIF 2.1.0 (`--reporter sarif`), the format code scanning reads (GitHub's
 * upload-sarif action, Azure DevOps, SonarQube): one run of the tool `prompt-fold assert`, one rule
 * per kind of promise, one result per broken promise at the request's line in the capture, with
 * the place the promise was made as a related location and the provider's rule as the result's
 * help link. Bad input: results of the `input` rule at each problem. Validated against the SARIF
 * 2.1.0 JSON Schema in src/assert/reporters/reporters.test.ts. JSON.stringify escapes every string.
 */
import { formatError } from '../../scenarios/errors.ts';
import type { Failure, PromiseKind } from '../evaluate.ts';
import type { AssertReport } from '../run.ts';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const RULES: Record<PromiseKind | 'input', string> = {
  api: 'A request the provider’s API would reject as sent.',
  busts: 'Exactly the listed requests break the cached prefix of the request before them.',
  cached: 'Exactly the listed requests read tokens from the provider cache.',
  minCached: 'From the given request on, every request reads at least the given tokens or share of its input from the cache.',
  maxInputTokens: 'No request has more input tokens than the limit.',
  maxMeasuredDiff: 'The provider’s bill stays within the limit of the cache model.',
  maxCostPerConversation: 'A conversation costs at most the given amount.',
  deterministic: 'A fold’s cached prefix stays the same when it runs again with another clock, time zone, locale, random sequence, environment or key order.',
  input: 'The captures and the expectations file are readable and well formed.',
};
const RULE_IDS = Object.keys(RULES) as (keyof typeof RULES)[];

/** A lone surrogate (not text) as U+FFFD, so the path can be percent-encoded. */
const wellFormed = (s: string): string => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** A file path as a SARIF artifact URI: relative, forward slashes, each segment percent-encoded. */
const uri = (file: string): string =>
  file
    .split(/[\\/]/)
    .map((s) => encodeURIComponent(wellFormed(s)))
    .join('/');

const location = (p: { file: string; line: number; col: number }, message?: string) => ({
  physicalLocation: { artifactLocation: { uri: uri(p.file) }, region: { startLine: Math.max(1, p.line), startColumn: Math.max(1, p.col) } },
  ...(message && { message: { text: message } }),
});

function result(f: Failure) {
  return {
    ruleId: f.expectation,
    ruleIndex: RULE_IDS.indexOf(f.expectation),
    level: 'error',
    message: { text: [f.message, ...f.details, `fix: ${f.fix}`].join('\n') },
    locations: [location(f.at)],
    ...(f.expectedAt && { relatedLocations: [{ id: 0, ...location(f.expectedAt, `the promise (${f.expectation})`) }] }),
    partialFingerprints: { conversationRequest: `${f.conversation}@${f.request ?? '-'}/${f.expectation}` },
    ...(f.rule && { properties: { providerRule: f.rule.text, providerRuleUrl: f.rule.url, read: f.rule.read } }),
  };
}

export function sarifReport(r: AssertReport, version: string): string {
  const results = r.problems.length
    ? r.problems.map((p) => ({ ruleId: 'input', ruleIndex: RULE_IDS.indexOf('input'), level: 'error', message: { text: formatError(p) }, locations: [location(p.pos)] }))
    : r.failures.map(result);
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'prompt-fold assert',
            informationUri: 'https://www.npmjs.com/package/prompt-fold-explainer',
            version,
            rules: RULE_IDS.map((id) => ({ id, shortDescription: { text: RULES[id] }, defaultConfiguration: { level: 'error' } })),
          },
        },
        results,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
