/**
 * Where a path's value (or key) starts in a JSON text, found by scanning the text — no tree is
 * built. A trace line of a gateway log can be hundreds of kilobytes and a log thousands of lines:
 * locating a dropped secret or an invalid field with the YAML parser (locate.ts's general path)
 * builds a node for every value of the line, seconds over a log. Positions in one text are asked
 * for together (every secret of a request, then its fields), so what a scan passes is remembered
 * for the last text — where each key's value and each element of an object or list starts — and
 * the next path continues from there instead of from the text's start: 12,000 secrets in one
 * 850 KB line took 20 s of rescanning. Only called on text JSON.parse accepted; returns undefined
 * when the path is not there (the caller falls back to the nearest parent), or when the text is
 * not JSON.
 */

/** What a scan has passed inside one object or list: its children's offsets so far, and where it resumes. */
interface Scanned {
  /** An object's keys: where each one's name (its quote) and value start (the first of a repeated key). */
  keys?: Map<string, { key: number; value: number }>;
  /** A list's elements: where each one starts. */
  elements?: number[];
  /** Where the next child starts being read, or -1 when the whole container is read. */
  resume: number;
}

/** The containers scanned in the last text, by their path (JSON of it). */
let memo: { text: string; containers: Map<string, Scanned> } | undefined;

/** Offset of the value at `path` (with `key`: of the last key's name), or undefined. */
export function jsonOffset(text: string, path: readonly (string | number)[], key = false): number | undefined {
  if (memo?.text !== text) memo = { text, containers: new Map() };
  const { containers } = memo;
  const ws = (i: number): number => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    return i;
  };
  /** Past a string starting at i (a quote): the offset after its closing quote. */
  const pastString = (i: number): number => {
    for (i++; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
    return i + 1;
  };
  /** Past the value starting at i (after whitespace). */
  const pastValue = (i: number): number => {
    const ch = text[i];
    if (ch === '"') return pastString(i);
    if (ch === '{' || ch === '[') {
      // Past the matching bracket, stepping over strings.
      let depth = 0;
      do {
        const c = text[i];
        if (c === '"') {
          i = pastString(i);
          continue;
        }
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') depth--;
        i++;
      } while (depth > 0 && i < text.length);
      return i;
    }
    while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
    return i;
  };
  const decode = (raw: string): string | undefined => {
    if (!raw.includes('\\')) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return undefined;
    }
  };
  /** After a child ending at i: where the next one starts, -1 at the container's end (`close`), undefined when not JSON. */
  const next = (i: number, close: string): number | undefined => {
    i = ws(i);
    if (text[i] === ',') return ws(i + 1);
    return text[i] === close ? -1 : undefined;
  };

  let at = ws(0);
  for (let depth = 0; depth < path.length; depth++) {
    const want = path[depth]!;
    const open = text[at];
    const id = JSON.stringify(path.slice(0, depth));
    let c = containers.get(id);
    if (open === '{' && typeof want === 'string') {
      if (!c) {
        const first = ws(at + 1);
        containers.set(id, (c = { keys: new Map(), resume: text[first] === '}' ? -1 : first }));
      }
      const keys = c.keys!;
      while (!keys.has(want) && c.resume >= 0) {
        const keyAt = c.resume;
        if (text[keyAt] !== '"') return undefined;
        const end = pastString(keyAt);
        const name = decode(text.slice(keyAt + 1, end - 1));
        const colon = ws(end);
        if (text[colon] !== ':') return undefined;
        const value = ws(colon + 1);
        if (name !== undefined && !keys.has(name)) keys.set(name, { key: keyAt, value });
        const resume = next(pastValue(value), '}');
        if (resume === undefined) return undefined;
        c.resume = resume;
      }
      const found = keys.get(want);
      if (!found) return undefined;
      if (key && depth === path.length - 1) return found.key;
      at = found.value;
    } else if (open === '[' && typeof want === 'number') {
      if (!c) {
        const first = ws(at + 1);
        containers.set(id, (c = { elements: [], resume: text[first] === ']' ? -1 : first }));
      }
      const elements = c.elements!;
      while (elements.length <= want && c.resume >= 0) {
        elements.push(c.resume);
        const resume = next(pastValue(c.resume), ']');
        if (resume === undefined) return undefined;
        c.resume = resume;
      }
      if (want >= elements.length) return undefined;
      at = elements[want]!;
    } else return undefined;
  }
  return at;
}
