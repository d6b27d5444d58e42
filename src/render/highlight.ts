/**
 * Build-time highlighting, in the site's two shiki themes at once (CSS variables --shiki-light /
 * --shiki-dark, switched by the page theme). ONE shiki highlighter per build: it colours the
 * reference pages' code blocks, and it says which colour each kind of token gets (tokenClassesFor).
 *
 * Printed requests — the bulk of every page — are YAML the build wrote, so they are not run
 * through shiki's TextMate grammar (that was most of the build's own time): the yaml package's
 * parse says what each token is (yaml-tokens.ts) and each kind is written as an element coloured
 * as shiki's themes colour that kind, so the colours are the same.
 *
 * Cost: highlighting is done per message — a message's lines are a self-contained YAML chunk — and
 * its tokens are cached by text, so each distinct message is tokenized once per build however many
 * panes, requests and scenarios print it (prompts repeat event after event and across scenarios).
 * Annotation marks are laid over the cached tokens here. The cache is bounded by characters and
 * drops the least recently used chunks, so its memory does not grow with the corpus.
 *
 * Size: a YAML token is a one-letter custom element per kind of token — `<y-k>role</y-k><y-p>:</y-p>`
 * (yamlTokenTags: a custom element name needs a hyphen; an undefined one is a plain inline element,
 * no script) — whose colours, both themes' and the contrast adjustments (CONTRAST), are rules of
 * src/styles/tokens.css generated from the themes by tokenCss() and kept fresh by a test: 11 bytes
 * of markup a token instead of 26–28 for `<span class="l2 d4">…</span>` (palette classes, which
 * the wire views' JSON and shiki's own code blocks still use). Kinds with the same colours in
 * both themes share one element, and neighbouring tokens of one colour are merged.
 *
 * Deterministic: no tokenizing time limit in shiki (see noTokenizeTimeLimit).
 * Text is HTML-escaped here (escape.ts, the one escaper): prompt text can never become markup.
 */
import { createHighlighter, type Highlighter, type ShikiTransformer } from 'shiki';
import type { JsonTokenKind } from '../wire/json-tokens.ts';
import { printedRanges } from './printed-tokens.ts';
import type { YamlKind, YamlRange } from './yaml-tokens.ts';
import { escapeHtml } from './escape.ts';

export const THEMES = { light: 'github-light', dark: 'github-dark' } as const;
type Side = keyof typeof THEMES;
/** Every kind of YAML token, in the order that names the elements (yamlTokenTags). */
const YAML_KINDS = ['key', 'number', 'literal', 'punct', 'header', 'comment', 'string'] as const satisfies readonly YamlKind[];

/** Languages of the prompts (yaml) and of the reference pages' code blocks. */
export const LANGS = ['yaml', 'js', 'ts', 'json', 'sh', 'md'] as const;

/**
 * No tokenizer time limit anywhere: shiki gives up on a line after 500 ms by default and leaves the
 * rest of it plain — on a busy machine (and on a grammar's first, regex-compiling line) that
 * happened to one theme's pass and not the other's, so pages differed from build to build.
 * Highlighting must depend on the text only. For Astro's own highlighting (the reference pages'
 * Markdown code blocks) the same as a transformer: Astro's shikiConfig passes transformers, not
 * tokenizer options.
 */
export const noTokenizeTimeLimit: ShikiTransformer = {
  name: 'prompt-fold-explainer:no-tokenize-time-limit',
  preprocess(_code, options) {
    options.tokenizeTimeLimit = 0;
  },
};
let instance: Promise<Highlighter> | undefined;

/**
 * The build's highlighter: the two themes; each language's grammar is loaded when first asked for
 * (withLang) — a build uses three of LANGS (yaml, json, ts), and loading a grammar (the Markdown
 * one most of all) is build time whether or not a page needs it. The colours do not depend on the
 * order grammars are loaded in.
 */
export function highlighter(): Promise<Highlighter> {
  return (instance ??= createHighlighter({ themes: Object.values(THEMES), langs: [] }));
}

const loading = new Map<string, Promise<Highlighter>>();

/** The highlighter with `lang`'s grammar loaded (once: pages rendered at the same time share the load). */
function withLang(lang: (typeof LANGS)[number]): Promise<Highlighter> {
  let hl = loading.get(lang);
  if (!hl) {
    hl = highlighter().then(async (h) => {
      await h.loadLanguage(lang);
      return h;
    });
    loading.set(lang, hl);
  }
  return hl;
}

/** A code block (`<pre class="shiki">…`) of a reference page, in the panes' two themes. */
export async function highlightCode(code: string, lang: (typeof LANGS)[number]): Promise<string> {
  return (await withLang(lang)).codeToHtml(code, { lang, themes: THEMES, defaultColor: false, tokenizeTimeLimit: 0 });
}

export interface Mark {
  /** Line index within the lines passed to highlightLines. */
  line: number;
  start: number;
  end: number;
  /** Attributes of the <mark> element. */
  attrs: Record<string, string>;
}

/** One token: its element's name ('' for a string: no tag) and its raw text. */
interface Token {
  tag: string;
  text: string;
}

/** Every colour a theme can give a token (its foreground and each rule's), upper-cased and sorted: the palette's order is its class numbering. */
function palette(hl: Highlighter, side: Side): string[] {
  const theme = hl.getTheme(THEMES[side]);
  const colours = new Set<string>();
  const add = (c: unknown): void => {
    if (typeof c === 'string' && /^#[0-9a-f]{3,8}$/i.test(c)) colours.add(c.toUpperCase());
  };
  add(theme.fg);
  for (const rule of theme.settings ?? []) add(rule.settings?.foreground);
  return [...colours].sort();
}

interface Palettes {
  light: Map<string, number>;
  dark: Map<string, number>;
}
let palettes: Palettes | undefined;
function palettesOf(hl: Highlighter): Palettes {
  return (palettes ??= {
    light: new Map(palette(hl, 'light').map((c, i) => [c, i])),
    dark: new Map(palette(hl, 'dark').map((c, i) => [c, i])),
  });
}

/**
 * Two theme colours are below 4.5:1 on the page background: github-dark's comment grey, shown
 * lighter, and github-light's orange (parameters and properties in code), shown darker. The YAML
 * token elements get them from tokenCss(); site.css gives the same ones to the palette classes and
 * inline styles of the other code (src/styles/contrast.test.ts checks that both say the same).
 */
export const CONTRAST: Record<Side, Record<string, string>> = { light: { '#E36209': '#BC4C00' }, dark: { '#6A737D': '#8B949E' } };

/** The stylesheet that gives the token classes and elements their colours (src/styles/tokens.css holds its output). */
export async function tokenCss(): Promise<string> {
  const hl = await highlighter();
  const rules = (side: Side, prefix: string): string[] => palette(hl, side).map((c, i) => `.${prefix}${i}{--shiki-${side}:${c}}`);
  const colour = (side: Side, cls: string): string => {
    const c = palette(hl, side)[Number(cls.slice(1))]!;
    return CONTRAST[side][c] ?? c;
  };
  const classes = await yamlTokenClasses();
  const tags = await yamlTokenTags();
  const elements = new Map<string, string>();
  for (const kind of YAML_KINDS) {
    const tag = tags[kind];
    const [l, d] = classes[kind].split(' ');
    if (tag && !elements.has(tag)) elements.set(tag, `${tag}{color:light-dark(${colour('light', l!)},${colour('dark', d!)})}`);
  }
  // The colour of a YAML string, which highlightLines leaves unwrapped: the text of a prompt line
  // (`.code.yaml`, site.css) takes it.
  const [l, d] = classes.string.split(' ').map((c) => Number(c.slice(1)));
  return [
    '/* Generated by tokenCss() in src/render/highlight.ts from the shiki themes — do not edit;',
    '   src/render/highlight.test.ts fails when it is stale and prints how to regenerate it. */',
    ...rules('light', 'l'),
    ...rules('dark', 'd'),
    `:root{--yaml-string-light:${palette(hl, 'light')[l!]};--yaml-string-dark:${palette(hl, 'dark')[d!]}}`,
    '/* YAML tokens (yamlTokenTags), theme colours with the contrast adjustments (CONTRAST). */',
    ...elements.values(),
    '',
  ].join('\n');
}

/**
 * The token classes shiki's themes give chosen tokens of a sample — for text the site colours
 * without running shiki over it (the wire views' JSON; the YAML token elements' colours, tokenCss), so it gets the
 * same colours as everything shiki highlights, found from the themes (never a hand-copied colour).
 * `texts` maps a kind to the text of one token of `sample` (quotes around it ignored).
 */
export async function tokenClassesFor<K extends string>(lang: 'json' | 'yaml', sample: string, texts: Record<K, string>): Promise<Record<K, string>> {
  const hl = await withLang(lang);
  const p = palettesOf(hl);
  const tokens = hl.codeToTokensWithThemes(sample, { lang, themes: THEMES, tokenizeTimeLimit: 0 }).flat();
  const classOf = (text: string): string => {
    const t = tokens.find((x) => x.content.trim().replace(/^"|"$/g, '') === text);
    const l = t?.variants.light?.color;
    const d = t?.variants.dark?.color;
    const li = l === undefined ? undefined : p.light.get(l.toUpperCase());
    const di = d === undefined ? undefined : p.dark.get(d.toUpperCase());
    return [li === undefined ? '' : `l${li}`, di === undefined ? '' : `d${di}`].filter(Boolean).join(' ');
  };
  return Object.fromEntries(Object.entries(texts).map(([kind, text]) => [kind, classOf(text as string)])) as Record<K, string>;
}

let jsonClasses: Promise<Record<JsonTokenKind, string>> | undefined;
/** The classes of each kind of JSON token (the wire views, src/components/WireViews/pf-wire-view.ts): found once per build, not once per page. */
export function jsonTokenClasses(): Promise<Record<JsonTokenKind, string>> {
  return (jsonClasses ??= tokenClassesFor('json', '{"k": "s", "n": 7, "b": true}', { key: 'k', string: 's', number: '7', literal: 'true', punct: ':' }));
}

let yamlClasses: Promise<Record<YamlKind, string>> | undefined;
/** The classes of each kind of YAML token (yaml-tokens.ts): the colours its element gets (yamlTokenTags, tokenCss). */
export function yamlTokenClasses(): Promise<Record<YamlKind, string>> {
  return (yamlClasses ??= tokenClassesFor('yaml', 'n: 2\ntype: text\nok: true\nitems:\n  - x\ncontent: |-\n  body\n# c\n', {
    key: 'type',
    string: 'text',
    number: '2',
    literal: 'true',
    punct: '-',
    header: '|-',
    comment: '# c',
  }));
}

let yamlTags: Promise<Record<YamlKind, string>> | undefined;
/**
 * The element each kind of YAML token is written as — the one source of the mapping, for the build
 * (highlightLines, yaml-source.ts) and the browser (the playground gets it in corpus.json): `y-`
 * and the kind's first letter, shared by kinds that get the same colours in both themes (the first
 * such kind names it), and '' — no tag — for strings (the text's own colour is the string colour)
 * and any kind coloured like one.
 */
export function yamlTokenTags(): Promise<Record<YamlKind, string>> {
  return (yamlTags ??= yamlTokenClasses().then((cls) => {
    const tags = {} as Record<YamlKind, string>;
    for (const kind of YAML_KINDS) {
      const same = YAML_KINDS.find((k) => cls[k] === cls[kind]);
      tags[kind] = cls[kind] === cls.string ? '' : same === kind ? `y-${kind[0]}` : tags[same!];
    }
    return tags;
  }));
}

/**
 * Tokens of each line of a YAML chunk, neighbouring tokens of one colour merged. The chunk is
 * printed YAML (a message of a request), so its parse says what each token is (printed-tokens.ts:
 * js-yaml's events; yaml-tokens.ts for a text they cannot colour) and each kind is written as its element (yamlTokenTags), coloured as shiki's themes colour it: the same colours as a
 * shiki pass, several times faster (shiki's TextMate grammar was most of the build's own time).
 * Text between tokens (spaces, `: `) takes the themes' foreground. Strings — most of a prompt's
 * characters: its message text — and whitespace get no tag at all: the line's own colour is the
 * string colour (`.code.yaml` in site.css, `--yaml-string-*` in tokens.css), which saves a span on
 * nearly every line of every pane.
 */
function tokenize(text: string, tags: Record<YamlKind, string>): Token[][] {
  return tokenLines(text, printedRanges(text), tags);
}

/** The tokens of each line of `text` from its coloured `ranges` (tokenize; exported for the test that compares two ways of finding the ranges). */
export function tokenLines(text: string, ranges: readonly YamlRange[], tags: Record<YamlKind, string>): Token[][] {
  const lines: Token[][] = [[]];
  const push = (tagged: string, s: string): void => {
    s.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (!part) return;
      // Whitespace has no colour to show: an indentation is bare text too.
      const tag = /^\s+$/.test(part) ? '' : tagged;
      const line = lines[lines.length - 1]!;
      const last = line.at(-1);
      if (last && last.tag === tag) last.text += part;
      else line.push({ tag, text: part });
    });
  };
  let at = 0;
  for (const r of ranges) {
    push(tags.punct, text.slice(at, r.from));
    push(tags[r.kind], text.slice(r.from, r.to));
    at = r.to;
  }
  push(tags.punct, text.slice(at));
  return lines;
}

/** A tokenized chunk, and its lines' HTML once asked for (unmarked lines: the common case). */
interface Chunk {
  tokens: Token[][];
  html?: string[];
}

/** Least-recently-used cache of tokenized chunks (Map order = use order), bounded by characters. */
const chunkCache = new Map<string, Chunk>();
const CACHE_CHARS = 16 * 1024 * 1024;
let cachedChars = 0;
let tokenizedChunks = 0;

function chunkOf(text: string, tags: Record<YamlKind, string>): Chunk {
  const hit = chunkCache.get(text);
  if (hit) {
    chunkCache.delete(text);
    chunkCache.set(text, hit);
    return hit;
  }
  const chunk = { tokens: tokenize(text, tags) };
  tokenizedChunks++;
  chunkCache.set(text, chunk);
  cachedChars += text.length;
  for (const [old] of chunkCache) {
    if (cachedChars <= CACHE_CHARS) break;
    chunkCache.delete(old);
    cachedChars -= old.length;
  }
  return chunk;
}

/**
 * A chunk's text by the object that stands for its lines (PaneLine.group: one per printed message),
 * with the line texts it was joined from. Every pane of a page prints most of the messages of the
 * one before it: joining their lines again and hashing the result to find the chunk was most of the
 * highlighting time. The lines are compared (the same strings: a pointer check) before a hit is used.
 */
const joined = new WeakMap<object, { lines: readonly string[]; text: string }>();

function chunkText(lines: readonly string[], start: number, end: number, key: object | undefined): string {
  const hit = key && joined.get(key);
  if (hit && hit.lines.length === end - start) {
    let same = true;
    for (let i = start; i < end && same; i++) same = hit.lines[i - start] === lines[i];
    if (same) return hit.text;
  }
  const slice = lines.slice(start, end);
  const text = slice.join('\n');
  if (key) joined.set(key, { lines: slice, text });
  return text;
}

/** How many chunks were tokenized so far (the rest were cache hits) — for the benchmark and tests. */
export const highlightStats = (): { tokenized: number; cached: number } => ({ tokenized: tokenizedChunks, cached: chunkCache.size });

/** Merges overlapping marks of one line (they cannot nest partially in HTML). */
function mergeMarks(marks: readonly Mark[]): Mark[] {
  const sorted = [...marks].sort((a, b) => a.line - b.line || a.start - b.start);
  const out: Mark[] = [];
  for (const m of sorted) {
    const last = out.at(-1);
    if (last && last.line === m.line && m.start < last.end) {
      last.end = Math.max(last.end, m.end);
      last.attrs = { ...last.attrs, 'data-notes': `${last.attrs['data-notes'] ?? ''} ${m.attrs['data-notes'] ?? ''}`.trim() };
    } else out.push({ ...m, attrs: { ...m.attrs } });
  }
  return out;
}

const span = (t: Token, text: string): string => (!text ? '' : t.tag ? `<${t.tag}>${escapeHtml(text)}</${t.tag}>` : escapeHtml(text));

/** One line's HTML; `marks` (sorted, not overlapping, this line's) wrap their characters in <mark>. */
function lineHtml(tokens: readonly Token[], marks: readonly Mark[]): string {
  if (!marks.length) return tokens.map((t) => span(t, t.text)).join('');
  // Cut points: every token boundary and every mark boundary.
  let out = '';
  let pos = 0;
  let k = 0;
  let inMark = false;
  for (const t of tokens) {
    let from = 0;
    while (from < t.text.length) {
      const m = marks[k];
      const here = pos + from;
      if (m && !inMark && here >= m.start) {
        out += `<mark${Object.entries(m.attrs)
          .map(([a, v]) => ` ${a}="${escapeHtml(v)}"`)
          .join('')}>`;
        inMark = true;
      }
      const stop = m ? (inMark ? m.end : m.start) : Infinity;
      const to = Math.min(t.text.length, Math.max(from + 1, stop - pos));
      out += span(t, t.text.slice(from, to));
      from = to;
      if (inMark && pos + from >= m!.end) {
        out += '</mark>';
        inMark = false;
        k++;
      }
    }
    pos += t.text.length;
  }
  if (inMark) out += '</mark>';
  return out;
}

/**
 * HTML (inner spans) for each line. `groups[i]` says which message line i belongs to: consecutive
 * lines of one group are highlighted together. An unmarked line's HTML is made once per chunk and
 * the same string returned after that: a page's data lists every event's prompt, so the same
 * lines come back hundreds of times (and a string seen before is a cheap key for pane-data.ts).
 * `keys[i]`, when given, stands for line i's group as printed (PaneLine.group): see chunkText.
 */
export async function highlightLines(lines: readonly string[], groups: readonly number[], marks: readonly Mark[] = [], keys?: readonly object[]): Promise<string[]> {
  const tags = await yamlTokenTags();
  const byLine = new Map<number, Mark[]>();
  for (const m of mergeMarks(marks.filter((m) => m.end > m.start))) {
    const list = byLine.get(m.line) ?? [];
    list.push(m);
    byLine.set(m.line, list);
  }
  const out: string[] = [];
  for (let start = 0; start < lines.length; ) {
    let end = start + 1;
    while (end < lines.length && groups[end] === groups[start]) end++;
    const chunk = chunkOf(chunkText(lines, start, end, keys?.[start]), tags);
    for (let i = start; i < end; i++) {
      const marks = byLine.get(i);
      if (marks) out.push(lineHtml(chunk.tokens[i - start] ?? [], marks));
      else out.push((chunk.html ??= chunk.tokens.map((t) => lineHtml(t, [])))[i - start] ?? '');
    }
    start = end;
  }
  return out;
}
