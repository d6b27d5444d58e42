/**
 * The coloured ranges of YAML the build printed (a request's messages: prompt/print.ts), from
 * js-yaml's event stream — offsets into the text, no tree — rather than the `yaml` package's CST
 * (yaml-tokens.ts), which took a tenth of the build's allocations to colour the panes. Printed
 * YAML is plain: keys, scalars, `|-` blocks, JSON flow collections, no comments, anchors or tags.
 * A text that holds any of those, or that js-yaml refuses, is coloured by yaml-tokens.ts, and
 * printed-tokens.test.ts holds the two to the same colour for every character. Build-time only:
 * the browser colours an event's YAML and the playground a half-typed text with yaml-tokens.ts.
 */
import { EVENT_ID, parseEvents, SCALAR_STYLE, type Event } from 'js-yaml';
import { skipSeparation } from '../scenarios/outline.ts';
import { scalarKind, type YamlRange, yamlRanges } from './yaml-tokens.ts';

/** The coloured ranges of a YAML text, in order, never overlapping (as yamlRanges). */
export function printedRanges(source: string): YamlRange[] {
  return eventRanges(source) ?? yamlRanges(source);
}

/** The ranges read from js-yaml's events; undefined where yaml-tokens.ts must colour the text. */
export function eventRanges(source: string): YamlRange[] | undefined {
  let events: Event[];
  try {
    events = parseEvents(source, {});
  } catch {
    return undefined;
  }
  const out: YamlRange[] = [];
  /** The text between nodes, from `from` to `to`: its indicators (`:`, `-`, `?`) coloured as punctuation; false at a comment. */
  const gap = (from: number, to: number): boolean => {
    for (let i = from; i < to; i++) {
      const c = source[i];
      if (c === '#') return false;
      if (c === ':' || c === '-' || c === '?') out.push({ from: i, to: i + 1, kind: 'punct' });
    }
    return true;
  };
  /** For each open collection: whether it is a mapping, and how many nodes it holds so far. */
  const open: { map: boolean; n: number }[] = [];
  let prevEnd = 0;
  for (const e of events) {
    if (e.type === EVENT_ID.DOCUMENT) continue;
    if (e.type === EVENT_ID.POP) {
      open.pop();
      continue;
    }
    if (e.type === EVENT_ID.ALIAS || e.anchorStart !== -1 || e.tagStart !== -1) return undefined;
    const parent = open[open.length - 1];
    const isKey = parent?.map === true && parent.n % 2 === 0;
    if (parent) parent.n++;
    if (e.type !== EVENT_ID.SCALAR) {
      if (!gap(prevEnd, e.start)) return undefined;
      open.push({ map: e.type === EVENT_ID.MAPPING, n: 0 });
      prevEnd = e.start;
      continue;
    }
    if (e.valueStart === -1) continue; // an empty value: nothing to colour
    switch (e.style) {
      case SCALAR_STYLE.PLAIN:
        if (!gap(prevEnd, e.valueStart)) return undefined;
        out.push({ from: e.valueStart, to: e.valueEnd, kind: isKey ? 'key' : scalarKind('scalar', source.slice(e.valueStart, e.valueEnd)) });
        prevEnd = e.valueEnd;
        break;
      case SCALAR_STYLE.SINGLE_QUOTED:
      case SCALAR_STYLE.DOUBLE_QUOTED:
        if (!gap(prevEnd, e.valueStart - 1)) return undefined;
        out.push({ from: e.valueStart - 1, to: e.valueEnd + 1, kind: isKey ? 'key' : 'string' });
        prevEnd = e.valueEnd + 1;
        break;
      default: {
        // A block scalar: its header (`|-`), then its lines from the next line on.
        const at = skipSeparation(source, prevEnd);
        if (!gap(prevEnd, at)) return undefined;
        HEADER.lastIndex = at;
        const h = HEADER.exec(source);
        const lineEnd = source.indexOf('\n', at);
        if (!h || lineEnd < 0 || source.slice(at + h[0].length, lineEnd).trim() !== '') return undefined;
        out.push({ from: at, to: at + h[0].length, kind: 'header' });
        if (e.valueEnd > lineEnd + 1) out.push({ from: lineEnd + 1, to: e.valueEnd, kind: 'string' });
        prevEnd = e.valueEnd;
      }
    }
  }
  return gap(prevEnd, source.length) ? out : undefined;
}

/** A block scalar's header: its indicator, indentation and chomping. */
const HEADER = /[|>][0-9+-]*/y;
