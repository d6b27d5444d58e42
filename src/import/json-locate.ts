/**
 * Where a path's value (or key) starts in a JSON text, found by one scan over the text — no tree is
 * built. A trace line of a gateway log can be hundreds of kilobytes and a log thousands of lines:
 * locating a dropped secret or an invalid field with the YAML parser (locate.ts's general path)
 * builds a node for every value of the line, seconds over a log; this scan costs one pass over the
 * characters up to the path. Only called on text JSON.parse accepted; returns undefined when the
 * path is not there (the caller falls back to the nearest parent), or when the text is not JSON.
 */

/** Offset of the value at `path` (with `key`: of the last key's name), or undefined. */
export function jsonOffset(text: string, path: readonly (string | number)[], key = false): number | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  /** Past a string starting at i (a quote); returns its raw text between the quotes. */
  const string = (): string => {
    const start = ++i;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    return text.slice(start, i++);
  };
  const skip = (): void => {
    ws();
    const ch = text[i];
    if (ch === '"') string();
    else if (ch === '{' || ch === '[') {
      // Past the matching bracket, stepping over strings.
      let depth = 0;
      do {
        const c = text[i];
        if (c === '"') {
          string();
          continue;
        }
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') depth--;
        i++;
      } while (depth > 0 && i < text.length);
    } else while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
  };
  const decode = (raw: string): string | undefined => {
    if (!raw.includes('\\')) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return undefined;
    }
  };
  for (let depth = 0; depth <= path.length; depth++) {
    ws();
    if (depth === path.length) return i;
    const want = path[depth]!;
    const open = text[i];
    if (open === '{' && typeof want === 'string') {
      i++;
      let found = false;
      for (;;) {
        ws();
        if (text[i] !== '"') return undefined;
        const keyAt = i;
        const name = decode(string());
        ws();
        if (text[i] !== ':') return undefined;
        i++;
        if (name === want) {
          if (key && depth === path.length - 1) return keyAt;
          found = true;
          break;
        }
        skip();
        ws();
        if (text[i] !== ',') return undefined;
        i++;
      }
      if (!found) return undefined;
    } else if (open === '[' && typeof want === 'number') {
      i++;
      for (let n = 0; n < want; n++) {
        ws();
        if (text[i] === ']') return undefined;
        skip();
        ws();
        if (text[i] !== ',') return undefined;
        i++;
      }
      ws();
      if (text[i] === ']') return undefined;
    } else return undefined;
  }
  return undefined;
}
