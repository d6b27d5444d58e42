/**
 * Reading the base commit's own report: the fields a review needs per file stem and offset, extra
 * fields ignored (the report grows), output that is not a report named as such; and the runtime
 * dependencies the base pins at versions other than the installed ones (then its figures would
 * not be its own). Running a real base is tested in tests/review-figures.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { dependencyMismatches, parseBaseReport } from './base-report.ts';
import type { Figures } from './delta.ts';

describe('parseBaseReport', () => {
  it('keys figures by file stem and offset, tolerating extra fields', () => {
    const json = JSON.stringify({
      generated: 'x',
      scenarios: [
        {
          id: 'birth-window',
          file: 'scenarios/01-birth-window.yaml',
          requests: [{ offset: 21, model: 'm', exact: false, inputTokens: 663, cachedTokens: 0, costUsd: 0.00237, cacheWriteTokens: 5, cost: { input: 1 } }],
        },
        { id: 'md', file: 'scenarios/sub/02-notes.md', requests: [{ offset: 3, inputTokens: 10, cachedTokens: 5, costUsd: null }] },
      ],
    });
    const r = parseBaseReport(json);
    expect(r).toEqual(
      new Map<string, Map<number, Figures>>([
        ['01-birth-window', new Map([[21, { inputTokens: 663, cachedTokens: 0, costUsd: 0.00237, exact: false }]])],
        ['02-notes', new Map([[3, { inputTokens: 10, cachedTokens: 5, costUsd: null, exact: true }]])],
      ]),
    );
  });

  it('says what is wrong with output that is not a report', () => {
    expect(parseBaseReport('npm ERR! missing script: report')).toBe('its `npm run report -- --json` did not print JSON');
    expect(parseBaseReport('{"scenarios":[{"id":"a","file":"a.yaml","requests":[{"offset":1,"inputTokens":"many"}]}]}')).toBe(
      'its `npm run report -- --json` printed a report without per-request inputTokens, cachedTokens and costUsd',
    );
  });
});

describe('dependencyMismatches', () => {
  it('lists each runtime dependency pinned at another version than installed, sorted', () => {
    const installed = (name: string): string | undefined => ({ 'gpt-tokenizer': '4.0.0', yaml: '2.9.1' })[name];
    expect(dependencyMismatches({ dependencies: { yaml: '2.9.1', 'gpt-tokenizer': '3.0.0', zod: '4.6.7' } }, installed)).toEqual([
      'gpt-tokenizer@3.0.0 (installed: 4.0.0)',
      'zod@4.6.7 (installed: none)',
    ]);
    expect(dependencyMismatches({ dependencies: { yaml: '2.9.1' } }, installed)).toEqual([]);
    expect(dependencyMismatches({}, installed)).toEqual([]);
  });
});
