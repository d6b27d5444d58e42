/**
 * Where a JSON text first goes wrong, and what is wrong there. JSON.parse's own messages differ
 * between Node versions and often give no position; a trace error must name the column, so this
 * small scanner walks the grammar (RFC 8259) and stops at the first character that cannot continue
 * it. Only called on text JSON.parse already rejected.
 */

export interface JsonProblem {
  /** Character offset of the problem. */
  offset: number;
  problem: string;
}

class Stop {
  readonly offset: number;
  readonly problem: string;
  constructor(offset: number, problem: string) {
    this.offset = offset;
    this.problem = problem;
  }
}

export function jsonError(text: string): JsonProblem {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const show = (): string => (i >= text.length ? 'the end of the line' : `\`${text[i]}\``);
  const fail = (want: string): never => {
    throw new Stop(i, `expected ${want}, found ${show()}`);
  };
  const string = (): void => {
    const open = i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) throw new Stop(i, 'a control character inside a string (write it escaped, e.g. \\n)');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) throw new Stop(i - 1, 'a bad \\u escape (it takes four hex digits)');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) throw new Stop(i - 1, `a bad escape \`\\${text[i] ?? ''}\``);
      }
      i++;
    }
    if (i >= text.length) throw new Stop(open, 'a string that never ends');
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a field name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail('`:`');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return void i++;
        fail('`,` or `}`');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return void i++;
        fail('`,` or `]`');
      }
    }
    if (c === '"') {
      string();
      return;
    }
    const lit = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i));
    if (lit) {
      i += lit[0].length;
      return;
    }
    fail('a value');
  };
  try {
    value();
    ws();
    if (i < text.length) fail('nothing more after the value');
    return { offset: text.length, problem: 'not JSON' };
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, problem: e.problem };
    throw e;
  }
}
