/** `report --json`: each request carries its own findings, from the corpus check, and every row has the key. */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importTrace } from '../import/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { buildReport } from '../economics/report.ts';
import { lintedScenarios } from './report.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const SYSTEM = 'You are a careful assistant. Read the repository before you change it, and say what you did. '.repeat(80);

describe('the report with its findings', () => {
  it('puts each finding on its own request, without the offset (the row has it), and [] on a request without any', async () => {
    // The system prompt asks for caching (a breakpoint on its block): an imported request caches only what it asks for.
    const system = (date: string) => [{ type: 'text', text: `${SYSTEM}\nToday's date: ${date}.`, cache_control: { type: 'ephemeral' } }];
    const body = (date: string, messages: object[]) => ({ model: 'claude-sonnet-4-5', max_tokens: 100, system: system(date), messages });
    const first = [{ role: 'user', content: 'Find the failing test.' }];
    const second = [...first, { role: 'assistant', content: 'It is run.test.ts.' }, { role: 'user', content: 'Fix it.' }];
    const text = `${[body('2026-11-30', first), body('2026-12-01', second)].map((b, i) => JSON.stringify({ timestamp: `2026-08-24T16:4${1 + i}:00.000Z`, body: b })).join('\n')}\n`;
    const yaml = importTrace(text, { file: 'traces/t.jsonl', id: 't' }).result!.yaml;
    const corpus = await renderTexts([{ file: 'scenarios/t.yaml', text: yaml }], config, { everyEvent: false });
    expect(corpus.errors).toEqual([]);
    const [s] = lintedScenarios(buildReport(corpus), corpus.lint);
    const [one, two] = s!.requests;
    // The first request's write is not read (the second's prefix changed in the date): a warning on the first; the date on the second.
    expect(one!.lint.map((f) => [f.rule, f.severity])).toEqual([['unread-write', 'warning']]);
    expect(two!.lint.map((f) => [f.rule, f.severity])).toEqual([['volatile-prefix', 'warning']]);
    expect(two!.lint[0]).toEqual(corpus.lint.get('t')!.map(({ offset: _, ...f }) => f)[1]);
    expect(Object.keys(two!.lint[0]!).sort()).toEqual(['message', 'rule', 'severity', 'source']);
    expect(two!.lint[0]!.source).toEqual({
      url: 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching',
      read: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      rule: expect.any(String),
    });
    // A scenario the linter has nothing on (or did not see): every request still has the key.
    expect(lintedScenarios(buildReport(corpus), new Map())[0]!.requests.map((q) => q.lint)).toEqual([[], []]);
  });
});
