/**
 * Numbers at their extremes: the validators of limits.ts, and every numeric input of a scenario
 * file (offsets, time labels and ranges, `occurrence`, `expect.maxInputTokens`, "@N" references,
 * `sections` batches) past its bound giving one file:line:column error with a fix — never a throw,
 * never a rounded number.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { renderTexts, type RenderedCorpus } from '../corpus/check.ts';
import { formatError, sortErrors } from './errors.ts';
import { batchEndProblem, MAX_WHOLE, readRequestRef, wholeNumberProblem } from './limits.ts';

const config = await resolveOptions(process.cwd());

describe('validators', () => {
  it('wholeNumberProblem: 0 … 2^53 − 1 are fine; beyond, negative, fractional, infinite are not', () => {
    for (const ok of [0, 1, MAX_WHOLE]) expect(wholeNumberProblem(ok)).toBeUndefined();
    expect(wholeNumberProblem(MAX_WHOLE + 1)).toMatch(/beyond the largest exact whole number, 9,007,199,254,740,991/);
    expect(wholeNumberProblem(1e20)).toMatch(/beyond/);
    for (const bad of [-1, 1.5, Infinity, -Infinity, Number.NaN]) expect(wholeNumberProblem(bad)).toBe('must be a whole number ≥ 0');
  });

  it('readRequestRef: "@N" up to 2^53 − 1, leading zeros allowed; longer digit strings are a problem, not a rounded offset', () => {
    expect(readRequestRef('@26')).toEqual({ offset: 26 });
    expect(readRequestRef('@007')).toEqual({ offset: 7 });
    expect(readRequestRef(`@${MAX_WHOLE}`)).toEqual({ offset: MAX_WHOLE });
    expect(readRequestRef('@9007199254740992')).toEqual({ problem: expect.stringContaining('beyond the largest offset') });
    expect(readRequestRef(`@${'9'.repeat(500)}`)).toEqual({ problem: expect.stringContaining('beyond') });
    expect(readRequestRef('26')).toEqual({ problem: 'names requests as "@<offset>", got "26"' });
  });

  it('batchEndProblem: a batch may end exactly at the bound, not past it', () => {
    expect(batchEndProblem(MAX_WHOLE - 2, 3)).toBeUndefined();
    expect(batchEndProblem(MAX_WHOLE - 1, 3)).toMatch(/3 sections would take offsets past/);
  });
});

/** A one-request scenario with pieces replaced. */
function scenario(p: { off1?: string; off2?: string; t2?: string; request?: string; occurrence?: string; busts?: string; maxTokens?: string } = {}): string {
  return [
    'id: one',
    'title: One',
    'events:',
    `  - off: ${p.off1 ?? '1'}`,
    '    t: 0ms',
    '    type: agents/context-added',
    '    payload: {role: user, content: hello}',
    `  - off: ${p.off2 ?? '2'}`,
    `    t: ${p.t2 ?? '1s'}`,
    '    type: agent/llm-request-requested',
    '    payload: {model: m}',
    'annotations:',
    `  - request: "${p.request ?? `@${p.off2 ?? '2'}`}"`,
    '    find: hello',
    '    comment: the user turn',
    ...(p.occurrence ? [`    occurrence: ${p.occurrence}`] : []),
    ...(p.busts || p.maxTokens ? ['expect:', `  busts: [${p.busts ?? ''}]`, ...(p.maxTokens ? [`  maxInputTokens: ${p.maxTokens}`] : [])] : []),
    '',
  ].join('\n');
}

const run = async (text: string): Promise<RenderedCorpus> => await renderTexts([{ file: 'scenarios/one.yaml', text }], config, { everyEvent: false });

/** The first error (by position) of a run that must not throw (a rejection fails the test) and must render nothing. */
async function oneError(text: string): Promise<string> {
  const r = await run(text);
  expect(r.errors.length).toBeGreaterThan(0);
  expect(r.scenarios).toEqual([]);
  return formatError(sortErrors(r.errors)[0]!);
}

describe('a scenario file at the extremes gives a located error, never an exception', () => {
  it('the base scenario is clean (so each case below fails for its own reason)', async () => {
    expect((await run(scenario())).errors).toEqual([]);
    expect((await run(scenario({ off2: String(MAX_WHOLE) }))).errors).toEqual([]);
  });

  it('a time label far beyond any real duration (once a RangeError: Invalid time value)', async () => {
    const e = await oneError(scenario({ t2: '99999999999999999h' }));
    expect(e).toMatch(
      /^scenarios\/one\.yaml:9:8 error: unparseable time label "99999999999999999h": "99999999999999999h" is longer than the longest elapsed time a scenario may use, 87600h \(10 years\)\n {2}fix: write an elapsed time/,
    );
  });

  it('a range whose end is too long', async () => {
    expect(await oneError(scenario({ t2: '1s–100000h' }))).toMatch(/^scenarios\/one\.yaml:9:8 error: .*"100000h" is longer/);
  });

  it('an offset beyond 2^53 − 1 (YAML reads it as a float JavaScript calls an integer)', async () => {
    expect(await oneError(scenario({ off2: '99999999999999999999', request: '@1' }))).toMatch(
      /^scenarios\/one\.yaml:8:10 error: `off` must be ≤ 9007199254740991, got number 100000000000000000000\n {2}fix: make `off` ≤ 9007199254740991/,
    );
  });

  it('a request reference beyond 2^53 − 1', async () => {
    expect(await oneError(scenario({ request: '@9007199254740993' }))).toMatch(
      /^scenarios\/one\.yaml:13:14 error: `request` names offset 9007199254740993, beyond the largest offset/,
    );
  });

  it('occurrence beyond 2^53 − 1', async () => {
    expect(await oneError(scenario({ occurrence: '1e300' }))).toMatch(/^scenarios\/one\.yaml:16:17 error: `occurrence` must be ≤ 9007199254740991, got number 1e\+300/);
  });

  it('expect.busts and expect.maxInputTokens beyond 2^53 − 1', async () => {
    expect(await oneError(scenario({ busts: '"@2"', maxTokens: '123456789012345678901234567890' }))).toMatch(
      /^scenarios\/one\.yaml:18:19 error: `maxInputTokens` must be ≤ 9007199254740991/,
    );
    expect(await oneError(scenario({ busts: '"@99999999999999999999"' }))).toMatch(/^scenarios\/one\.yaml:17:11 error: `busts` entry names offset 99999999999999999999, beyond/);
  });

  it('a sections batch whose offsets would run past 2^53 − 1', async () => {
    const text = [
      'id: one',
      'title: One',
      'events:',
      `  - off: ${MAX_WHOLE - 1}`,
      '    t: 0ms',
      '    type: agents/context-added',
      '    payload:',
      '      role: system',
      '      sections:',
      '        - {key: a, content: A}',
      '        - {key: b, content: B}',
      '        - {key: c, content: C}',
      '',
    ].join('\n');
    expect(await oneError(text)).toMatch(/^scenarios\/one\.yaml:\d+:\d+ error: @9007199254740990 agents\/context-added: its 3 sections would take offsets past/);
  });
});
