/** Code frames on the command line: the line at fault marked, a caret at its column, one line of context. */
import { describe, expect, it } from 'vitest';
import { codeFrame, reportWithFrames } from './frame.ts';

describe('code frames', () => {
  it('marks the line and the column, with a line of context either side', () => {
    expect(codeFrame('id: a\ntitle: B\nevents: []\n', 2, 8)).toEqual(['  1 | id: a', '> 2 | title: B', '    |        ^', '  3 | events: []']);
  });
  it('at the first line, and out of range', () => {
    expect(codeFrame('a: 1\n', 1, 1)[0]).toBe('> 1 | a: 1');
    expect(codeFrame('a: 1\n', 9, 1)).toEqual([]);
  });
  it('a report: each error with its frame under the first line, then the summary', () => {
    const text = 'id: a\ntitle: B\n';
    const report = reportWithFrames(
      [
        { pos: { file: 's/b.yaml', line: 2, col: 1 }, message: 'second', fix: 'f2' },
        { pos: { file: 's/a.yaml', line: 1, col: 5 }, message: 'first', fix: 'f1', detail: ['d'] },
      ],
      (f) => (f === 's/a.yaml' ? text : undefined),
    );
    expect(report).toBe(
      [
        's/a.yaml:1:5 error: first',
        '  > 1 | id: a',
        '      |     ^',
        '    2 | title: B',
        '  d',
        '  fix: f1',
        '',
        's/b.yaml:2:1 error: second',
        '  fix: f2',
        '',
        '2 errors in 2 files; nothing was written.',
      ].join('\n'),
    );
  });
});
