/**
 * The editor's YAML tokenizer colours a scenario's pieces as the highlight tags the site styles:
 * keys, values, comments (not a `#` inside a value), block scalars over several lines (ending at
 * the first line that is not indented deeper), flow collections spanning lines, anchors, aliases.
 */
import { StringStream } from '@codemirror/language';
import { describe, expect, it } from 'vitest';
import { yamlMode } from './yaml-mode.ts';

/** Each line's tokens as `tag:text` (whitespace-only pieces left out). */
function tokens(text: string): string[][] {
  const state = yamlMode.startState!(2);
  return text.split('\n').map((line) => {
    const stream = new StringStream(line, 2, 2);
    const out: string[] = [];
    while (!stream.eol()) {
      const tag = yamlMode.token(stream, state);
      if (stream.pos === stream.start) throw new Error(`no progress at ${stream.pos} of ${JSON.stringify(line)}`);
      if (stream.current().trim()) out.push(`${tag ?? '-'}:${stream.current()}`);
      stream.start = stream.pos;
    }
    return out;
  });
}

describe('the editor YAML tokenizer', () => {
  it('tells keys, values, comments and list items apart', () => {
    expect(tokens('id: sent-re-add # the id\nevents:\n  - off: 31\n    t: 18m 50s\n    note: "a # b": c\n    url: http://x/#y')).toEqual([
      ['propertyName:id', 'punctuation::', 'string:sent-re-add', 'comment:# the id'],
      ['propertyName:events', 'punctuation::'],
      ['punctuation:-', 'propertyName:off', 'punctuation::', 'number:31'],
      ['propertyName:t', 'punctuation::', 'string:18m 50s'],
      ['propertyName:note', 'punctuation::', 'propertyName:"a # b"', 'punctuation::', 'string:c'],
      ['propertyName:url', 'punctuation::', 'string:http://x/#y'],
    ]);
  });

  it('keeps a block scalar until a line is no deeper than its key, blank lines included', () => {
    expect(tokens('    content: |-\n      key: not a key\n\n      # not a comment\n    role: user')).toEqual([
      ['propertyName:content', 'punctuation::', 'keyword:|-'],
      ['-:      key: not a key'],
      [],
      ['-:      # not a comment'],
      ['propertyName:role', 'punctuation::', 'string:user'],
    ]);
  });

  it('reads flow collections over lines, quoted strings with escapes, anchors and aliases', () => {
    expect(tokens(`payload: {role: user, content: 'it''s',\n  ok: true} # done\na: &x [1, "q\\"]", *x]`)).toEqual([
      [
        'propertyName:payload',
        'punctuation::',
        'punctuation:{',
        'propertyName:role',
        'punctuation::',
        'string:user',
        'punctuation:,',
        'propertyName:content',
        'punctuation::',
        "string:'it''s'",
        'punctuation:,',
      ],
      ['propertyName:ok', 'punctuation::', 'keyword:true', 'punctuation:}', 'comment:# done'],
      ['propertyName:a', 'punctuation::', 'labelName:&x', 'punctuation:[', 'number:1', 'punctuation:,', 'string:"q\\"]"', 'punctuation:,', 'labelName:*x', 'punctuation:]'],
    ]);
  });

  it('always moves on, whatever the text', () => {
    for (const line of ['::::', '- - -', '"unclosed', "'", '{{{]]]', '#', 'a:#b', '&', '!!str x', '|', '--- x', '\u0000<script>']) expect(() => tokens(line)).not.toThrow();
  });
});
