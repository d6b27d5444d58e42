/**
 * A scenario file reduced to what a review compares between two versions of it ("say
 * why it changed"): its fold, options, base, each written event by offset, its `deploy:`, and the
 * keys that never reach a prompt (annotations, expect, compare, title, …). Read from the file's
 * text alone (YAML or the markdown interop format), best effort and without the fold: a base ref's
 * file may not validate under today's code, and a review must still say what was edited.
 * Pure and browser-safe: yaml in, plain data out.
 */
import { parse } from 'yaml';
import { readMarkdown } from '../scenarios/source.ts';

export interface ScenarioShape {
  id?: string;
  /** `fold:` as written (absent: the site's default fold). */
  fold?: string;
  /** `base:` as written. */
  base?: string;
  /** Fold options as written. */
  options: Record<string, unknown>;
  /** Each written event (a batch: its first offset) → its canonical text, `note:` left out (a caption never reaches a prompt). */
  events: Map<number, string>;
  /** `deploy:` as written, when present. */
  deploy?: { at?: string; fold?: string; options: Record<string, unknown> };
  /** Keys that never reach a prompt → canonical text: annotations, expect, compare, opens, title, intro, id, event notes. */
  other: Map<string, string>;
}

/** JSON with object keys sorted, so equal values have equal text whatever order they were written in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The shape of a scenario file's text, or undefined when it does not parse as a scenario mapping. */
export function scenarioShape(file: string, text: string): ScenarioShape | undefined {
  let doc: unknown;
  let annotations: unknown;
  let title: unknown;
  let intro: unknown;
  try {
    if (file.endsWith('.md')) {
      const md = readMarkdown(text);
      const events = md.fences.find((f) => f.path === 'events.yaml');
      if (!events) return undefined;
      doc = parse(events.body);
      annotations = parse(md.fences.find((f) => f.path === 'annotations.yaml')?.body ?? '') ?? undefined;
      title = md.title;
      intro = md.intro;
    } else {
      doc = parse(text);
      if (isRecord(doc)) ({ annotations, title, intro } = doc);
    }
  } catch {
    return undefined;
  }
  if (!isRecord(doc)) return undefined;
  const events = new Map<number, string>();
  const notes: Record<string, unknown> = {};
  for (const e of Array.isArray(doc.events) ? doc.events : []) {
    if (!isRecord(e) || typeof e.off !== 'number') continue;
    const { note, ...rest } = e;
    events.set(e.off, canonical(rest));
    if (note !== undefined) notes[`@${e.off}`] = note;
  }
  const other = new Map<string, string>();
  const keep = (key: string, value: unknown): void => {
    if (value !== undefined && value !== null) other.set(key, canonical(value));
  };
  keep('id', doc.id);
  keep('title', title);
  keep('intro', intro);
  keep('annotations', annotations);
  keep('expect', doc.expect);
  keep('compare', doc.compare);
  keep('opens', doc.opens);
  if (Object.keys(notes).length) keep('notes', notes);
  const dep = doc.deploy;
  return {
    ...(typeof doc.id === 'string' && { id: doc.id }),
    ...(typeof doc.fold === 'string' && { fold: doc.fold }),
    ...(typeof doc.base === 'string' && { base: doc.base }),
    options: isRecord(doc.options) ? doc.options : {},
    events,
    ...(isRecord(dep) && {
      deploy: {
        ...(dep.at !== undefined && { at: String(dep.at) }),
        ...(typeof dep.fold === 'string' && { fold: dep.fold }),
        options: isRecord(dep.options) ? dep.options : {},
      },
    }),
    other,
  };
}
