/**
 * The YAML parser's complaints in the author's terms: the line that is wrong (a bad indent is
 * reported where the extra indentation is, not one line early), and a fix that fits the case. A
 * file saved with a byte order mark reads, and points at its errors, as if it had none.
 */
import { describe, expect, it } from 'vitest';
import { parseScenarioFile } from './load.ts';
import { formatError } from './errors.ts';
import { YamlSource } from './source.ts';

const one = (text: string) => {
  const src = new YamlSource('scenarios/x.yaml', text);
  expect(src.errors).toHaveLength(1);
  const e = src.errors[0]!;
  return { at: `${e.pos.line}:${e.pos.col}`, message: e.message, fix: e.fix };
};

describe('YAML errors for authors', () => {
  it('lists nested thousands deep: said so at the value, not as JavaScript’s “Maximum call stack size exceeded”', () => {
    const e = one(`id: x\ntitle: X\nevents:\n  - payload: {a: ${'['.repeat(20_000)}${']'.repeat(20_000)}}\n`);
    expect(e.message).toBe('malformed YAML: lists or mappings nest too deep here for the parser to read');
    expect(e.fix).toMatch(/^write the value with fewer levels/);
    expect(e.at).toMatch(/^4:\d+$/);
  });

  it('an unquoted @ value: quote it', () => {
    expect(one('annotations:\n  - request: @21\n    find: x\n')).toEqual({
      at: '2:14',
      message: 'malformed YAML: a value cannot start with `@` unless it is quoted',
      fix: 'quote it: request: "@21"',
    });
  });
  it('a backtick value: quote it', () => {
    expect(one('find: `x` # the code\n').fix).toBe('quote it: find: "`x`"');
  });
  it('a line indented too far is reported on that line, not the one above', () => {
    expect(one('id: a\nevents:\n  - off: 1\n    t: 0ms\n      type: x\n')).toEqual({
      at: '5:7',
      message: 'malformed YAML: this line is indented more than `t:` above it, so it reads as part of that value',
      fix: 'indent `type:` by 4 spaces, like `t:`',
    });
  });
  it('a line indented too little inside a list entry', () => {
    expect(one('id: a\nevents:\n  - off: 1\n    t: 0ms\n   type: x\n')).toEqual({
      at: '5:4',
      message: 'malformed YAML: this line is not indented like the lines of its list entry',
      fix: 'indent `type:` by 4 spaces, like the line above (or start a new list entry with `- `)',
    });
  });
  it('a value with ": " in it: quote it', () => {
    expect(one('title: Cache: the basics\nid: x\n').fix).toBe('quote it: title: "Cache: the basics"');
  });
  it('a key without a space after its colon, and a line without a colon', () => {
    expect(one('id:a\ntitle: b\n')).toMatchObject({ at: '1:1', message: 'malformed YAML: `id:a` has no space after the colon', fix: 'write `id: a`' });
    expect(one('id a\ntitle: b\n')).toMatchObject({ at: '1:1', message: 'malformed YAML: `id a` is not a `key: value` line (it has no colon)' });
  });
  it('a tab used for indentation', () => {
    expect(one('id: a\nevents:\n\t- off: 1\n').message).toBe('malformed YAML: this line is indented with a tab');
  });
  it('an unclosed {…} mapping points where it opens', () => {
    expect(one('payload: {role: user, content: hi\nnext: 1\n')).toMatchObject({ at: '1:10', message: 'malformed YAML: a `{…}` mapping that starts here is not closed' });
  });
  it('a case it does not recognise keeps the parser’s words and the general fix', () => {
    const e = one('a: [1, 2\n');
    expect(e.message).toMatch(/^malformed YAML: /);
  });
});

describe('a scenario file saved with a byte order mark (Windows editors write one)', () => {
  const events = ['events:', '  - off: 1', '    t: 0ms', '    type: agent/created', '    payload: {streamPath: /a, createdBy: user:x}', ''];
  const md = ['# Two', '', 'Intro.', '', '<details>', '', '```yaml (events.yaml)', 'id: two', 'fold: context-protocol', ...events, '```', '', '</details>', ''].join('\n');
  const yaml = ['id: two', 'title: Two', 'fold: context-protocol', ...events].join('\n');
  const parse = (file: string, text: string) => parseScenarioFile(file, text, { timeZero: '2026-01-01T00:00:00Z' });

  it('reads like the same file without it: a markdown title, a YAML scenario', () => {
    for (const [file, text] of [
      ['scenarios/two.md', md],
      ['scenarios/two.yaml', yaml],
    ] as const) {
      const plain = parse(file, text);
      const marked = parse(file, `\uFEFF${text}`);
      expect(plain.errors).toEqual([]);
      expect(marked.errors, file).toEqual([]); // a markdown file's `# Title` line was "missing"
      expect(marked.draft?.title).toBe('Two');
    }
  });

  it('points an error on the first line at the same column', () => {
    const bad = yaml.replace('id: two', 'id: Two Words');
    const at = (text: string) => parse('scenarios/two.yaml', text).errors.map((e) => `${e.pos.line}:${e.pos.col} ${e.message}`);
    expect(at(`\uFEFF${bad}`)).toEqual(at(bad));
    expect(at(bad)[0]).toMatch(/^1:5 /);
  });

  it('says where a file holding NUL characters (UTF-16, or not text) first has one, instead of "must be a YAML mapping"', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(yaml, 'utf16le')]).toString('utf8');
    expect(parse('scenarios/two.yaml', utf16).errors.map(formatError)).toEqual([
      'scenarios/two.yaml:1:4 error: the file holds a NUL character here: it is UTF-16 text (what Windows PowerShell’s `>` and `Out-File` write) or not text at all\n  fix: save it as UTF-8 — in PowerShell, `(Get-Content two.yaml) | Set-Content -Encoding utf8 two.yaml`',
    ]);
    // One stray NUL in UTF-8 text: its own line and column.
    expect(parse('scenarios/two.md', md.replace('Intro.', 'In\u0000tro.')).errors.map((e) => `${e.pos.line}:${e.pos.col}`)).toEqual(['3:3']);
  });
});
