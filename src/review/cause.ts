/**
 * Why a prompt changed against a base ref, when the cause is visible: the scenario's
 * events were edited, its fold options or `fold:`/`base:`/`deploy:` changed, a scenario it extends
 * was edited — or none of that, so the fold's code (or the shared rendering code) must have, as git
 * can tell. `causes` turns the two versions of a scenario (shape.ts) and the changed code files
 * into a list of causes, for a whole scenario or for one request (an event after the request
 * cannot have changed it), and `promptCause` adds what changed in the printed prompt itself (which
 * messages, in which requests: prompt-change.ts); `whyParts` says it as one plain sentence. Pure:
 * data in, data out.
 */
import * as z from 'zod';
import type { PromptChange } from './prompt-change.ts';
import { canonical, type ScenarioShape } from './shape.ts';

/** One option (or `deploy:` field) that differs; values as short display text, absent = unset. */
export interface ValueChange {
  name: string;
  before?: string;
  after?: string;
}

export interface EventChanges {
  edited: number[];
  added: number[];
  removed: number[];
}

export type Cause =
  /** `fold:` or `base:` of the scenario itself changed. */
  | { kind: 'setting'; key: 'fold' | 'base'; before?: string; after?: string }
  | { kind: 'options'; changes: ValueChange[] }
  /** `deploy:` changed; requests from offset `from` on are affected (absent: all). */
  | { kind: 'deploy'; from?: number; changes: ValueChange[] }
  | ({ kind: 'events' } & EventChanges)
  /** A scenario in the base chain (`base:`, its base, …) had its events edited. */
  | ({ kind: 'base-chain'; id: string } & EventChanges)
  /** Files of the fold's own folder (src/builtin-folds/<fold>/) that differ from the base. */
  | { kind: 'fold-code'; fold: string; files: string[] }
  /** Shared rendering code that differs, when nothing closer explains the change. */
  | { kind: 'shared-code'; fold: string; files: string[] }
  /** Nothing visible: scenario, options and code are as at the base. `folder`: the fold has a src/builtin-folds/ folder git could check. */
  | { kind: 'unknown'; fold: string; folder: boolean }
  /** The scenario file could not be compared (no file of that name at the base, or one that does not parse). */
  | { kind: 'unreadable' }
  /** Keys that never reach a prompt but were edited too (annotations, expect, …); scenario level only. */
  | { kind: 'other-keys'; keys: string[] }
  /** What changed in the printed requests themselves (prompt-change.ts): messages, and the model. */
  | { kind: 'prompt'; model?: { before: string; after: string; requests: number[] }; messages: PromptMessageChange[] };

/** A message that differs, in the requests at `requests` (empty: said of one request). `lines`: most lines that differ; `varies`: fewer in some. */
export interface PromptMessageChange {
  status: 'changed' | 'added' | 'removed';
  index: number;
  role: string;
  lines: number;
  varies?: boolean;
  requests: number[];
}

const offsets = z.array(z.number().int().nonnegative()).max(100_000);
const short = z.string().max(1000);
const valueChange = z.strictObject({ name: short, before: short.optional(), after: short.optional() });
const files = z.array(short).max(10_000);

/** The causes as `changes.json` carries them (untrusted: a pull request's own run writes that file). */
export const causeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('setting'), key: z.enum(['fold', 'base']), before: short.optional(), after: short.optional() }),
  z.strictObject({ kind: z.literal('options'), changes: z.array(valueChange).max(1000) }),
  z.strictObject({ kind: z.literal('deploy'), from: z.number().int().nonnegative().optional(), changes: z.array(valueChange).max(1000) }),
  z.strictObject({ kind: z.literal('events'), edited: offsets, added: offsets, removed: offsets }),
  z.strictObject({ kind: z.literal('base-chain'), id: short, edited: offsets, added: offsets, removed: offsets }),
  z.strictObject({ kind: z.literal('fold-code'), fold: short, files }),
  z.strictObject({ kind: z.literal('shared-code'), fold: short, files }),
  z.strictObject({ kind: z.literal('unknown'), fold: short, folder: z.boolean() }),
  z.strictObject({ kind: z.literal('unreadable') }),
  z.strictObject({ kind: z.literal('other-keys'), keys: z.array(short).max(100) }),
  z.strictObject({
    kind: z.literal('prompt'),
    model: z.strictObject({ before: short, after: short, requests: offsets }).optional(),
    messages: z
      .array(
        z.strictObject({
          status: z.enum(['changed', 'added', 'removed']),
          index: z.number().int().positive(),
          role: short,
          lines: z.number().int().nonnegative(),
          varies: z.boolean().optional(),
          requests: offsets,
        }),
      )
      .max(10_000),
  }),
]);

/**
 * The prompt changes of some requests as one cause: the same message change in several requests
 * listed once with their offsets (`scenarioLevel`; a single request's cause lists none). Undefined
 * when nothing differs.
 */
export function promptCause(changes: readonly { offset: number; change: PromptChange }[], scenarioLevel: boolean): Extract<Cause, { kind: 'prompt' }> | undefined {
  const byKey = new Map<string, PromptMessageChange & { min: number }>();
  let model: { before: string; after: string; requests: number[] } | undefined;
  for (const { offset, change } of changes) {
    if (change.model) {
      if (!model) model = { ...change.model, requests: [] };
      if (scenarioLevel) model.requests.push(offset);
    }
    for (const m of change.messages) {
      const key = `${m.status}\0${m.index}\0${m.role}`;
      const seen = byKey.get(key) ?? { status: m.status, index: m.index, role: m.role, lines: 0, min: m.lines, requests: [] };
      seen.lines = Math.max(seen.lines, m.lines);
      seen.min = Math.min(seen.min, m.lines);
      if (scenarioLevel) seen.requests.push(offset);
      byKey.set(key, seen);
    }
  }
  if (!model && !byKey.size) return undefined;
  const messages = [...byKey.values()].map(({ min, ...m }) => ({ ...m, ...(min !== m.lines && { varies: true }) }));
  return { kind: 'prompt', ...(model && { model }), messages };
}

/** What `causes` compares for one scenario. */
export interface WhyInput {
  /** The scenario file at the base and now (undefined: absent or unparseable). */
  before?: ScenarioShape;
  after?: ScenarioShape;
  /** The site's default fold (a scenario without `fold:` uses it). */
  defaultFold: string;
  /** The scenario's base chain now, nearest first: each ancestor's file at the base and now. */
  chain: { id: string; before?: ScenarioShape; after?: ScenarioShape }[];
  /** Changed files in the fold's own folder; undefined when the fold has no src/builtin-folds/<id>/ folder. */
  foldFiles?: string[];
  /** Changed files of the shared rendering code (src/prompt/, src/scenarios/, src/folds/*.ts). */
  sharedFiles: string[];
}

/** A value as a reader sees it in one line: strings bare (white space runs as one space), anything else as compact JSON, cut at 60 characters. */
export function displayValue(v: unknown): string {
  const s = (typeof v === 'string' ? v : (canonical(v) ?? String(v))).replace(/\s+/g, ' ');
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}

function valueChanges(before: Record<string, unknown>, after: Record<string, unknown>, prefix = ''): ValueChange[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const out: ValueChange[] = [];
  for (const name of names) {
    const [b, a] = [before[name], after[name]];
    if (canonical(b) === canonical(a)) continue;
    out.push({ name: `${prefix}${name}`, ...(b !== undefined && { before: displayValue(b) }), ...(a !== undefined && { after: displayValue(a) }) });
  }
  return out;
}

/** Written events that differ between two versions, by offset (a batch: by its first offset). */
export function eventChanges(before: ReadonlyMap<number, string>, after: ReadonlyMap<number, string>): EventChanges {
  const edited: number[] = [];
  const added: number[] = [];
  const removed: number[] = [];
  for (const [off, text] of after) {
    if (!before.has(off)) added.push(off);
    else if (before.get(off) !== text) edited.push(off);
  }
  for (const off of before.keys()) if (!after.has(off)) removed.push(off);
  const asc = (a: number, b: number): number => a - b;
  return { edited: edited.sort(asc), added: added.sort(asc), removed: removed.sort(asc) };
}

/** Only the event changes at or before `offset` (a request sees no later event). */
function upTo(c: EventChanges, offset: number | undefined): EventChanges {
  if (offset === undefined) return c;
  const keep = (xs: number[]): number[] => xs.filter((x) => x <= offset);
  return { edited: keep(c.edited), added: keep(c.added), removed: keep(c.removed) };
}

const anyEvent = (c: EventChanges): boolean => c.edited.length + c.added.length + c.removed.length > 0;

const atOffset = (at: string | undefined): number | undefined => {
  const m = /^@?(\d+)$/.exec(at ?? '');
  return m ? Number(m[1]) : undefined;
};

function deployCause(before: ScenarioShape['deploy'], after: ScenarioShape['deploy']): Extract<Cause, { kind: 'deploy' }> | undefined {
  if (canonical(before ?? null) === canonical(after ?? null)) return undefined;
  const flat = (d: ScenarioShape['deploy']): Record<string, unknown> =>
    d
      ? {
          ...(d.at !== undefined && { at: d.at }),
          ...(d.fold !== undefined && { fold: d.fold }),
          ...Object.fromEntries(Object.entries(d.options).map(([k, v]) => [`options.${k}`, v])),
        }
      : {};
  const ats = [atOffset(before?.at), atOffset(after?.at)].filter((x): x is number => x !== undefined);
  const from = ats.length && (!before || before.at !== undefined) && (!after || after.at !== undefined) ? Math.min(...ats) : undefined;
  return { kind: 'deploy', ...(from !== undefined && { from }), changes: valueChanges(flat(before), flat(after)) };
}

/**
 * The visible causes of a change to a scenario (`offset` absent) or to its request at `offset`,
 * closest first: what the scenario file says (settings, options, deploy, events), then the base
 * chain, then code — the fold's own folder whenever it changed, the shared rendering code only when
 * nothing closer explains it — else "unknown". Never empty.
 */
export function causes(input: WhyInput, offset?: number): Cause[] {
  const out: Cause[] = [];
  const { before, after } = input;
  const fold = after?.fold ?? input.defaultFold;
  if (!before || !after) out.push({ kind: 'unreadable' });
  else {
    const [bf, af] = [before.fold ?? input.defaultFold, after.fold ?? input.defaultFold];
    if (bf !== af) out.push({ kind: 'setting', key: 'fold', before: bf, after: af });
    if (before.base !== after.base)
      out.push({ kind: 'setting', key: 'base', ...(before.base !== undefined && { before: before.base }), ...(after.base !== undefined && { after: after.base }) });
    const options = valueChanges(before.options, after.options);
    if (options.length) out.push({ kind: 'options', changes: options });
    const deploy = deployCause(before.deploy, after.deploy);
    if (deploy && (offset === undefined || deploy.from === undefined || deploy.from <= offset)) out.push(deploy);
    const events = upTo(eventChanges(before.events, after.events), offset);
    if (anyEvent(events)) out.push({ kind: 'events', ...events });
  }
  // Every event of a base comes before the scenario's own: an edit there reaches every own request.
  for (const a of input.chain) {
    if (!a.before || !a.after) continue;
    const events = eventChanges(a.before.events, a.after.events);
    if (anyEvent(events)) out.push({ kind: 'base-chain', id: a.id, ...events });
  }
  if (input.foldFiles?.length) out.push({ kind: 'fold-code', fold, files: input.foldFiles });
  if (!out.length && input.sharedFiles.length) out.push({ kind: 'shared-code', fold, files: input.sharedFiles });
  if (!out.length) out.push({ kind: 'unknown', fold, folder: input.foldFiles !== undefined });
  if (offset === undefined && before && after) {
    const keys = [...new Set([...before.other.keys(), ...after.other.keys()])].filter((k) => before.other.get(k) !== after.other.get(k)).sort();
    if (keys.length) out.push({ kind: 'other-keys', keys });
  }
  return out;
}

/** A sentence piece: plain text, or a name to show as code. */
export type Part = string | { code: string };

const MAX_LISTED = 6;

function offsetList(xs: number[]): string {
  const shown = xs.slice(0, MAX_LISTED).map((x) => `@${x}`);
  return xs.length > MAX_LISTED ? `${shown.join(', ')} and ${xs.length - MAX_LISTED} more` : shown.join(', ');
}

function eventsText(c: EventChanges): string {
  const groups = (
    [
      [c.edited, 'edited'],
      [c.added, 'added'],
      [c.removed, 'removed'],
    ] as const
  ).filter(([xs]) => xs.length);
  return groups.map(([xs, verb], i) => `${i === 0 ? (xs.length === 1 ? 'event ' : 'events ') : ''}${offsetList(xs)} ${verb}`).join(', ');
}

function fileList(files: string[]): Part[] {
  const out: Part[] = [];
  files.slice(0, 3).forEach((f, i) => {
    if (i) out.push(', ');
    out.push({ code: f });
  });
  if (files.length > 3) out.push(` and ${files.length - 3} more`);
  return out;
}

const valueParts = (v: string | undefined): Part[] => (v === undefined ? ['(unset)'] : [{ code: v }]);

/** "`name`: `old` → `new`" (`verb` between name and values, default ":"). */
function valueChangeParts(c: ValueChange, verb = ':'): Part[] {
  return [{ code: c.name }, `${verb} `, ...valueParts(c.before), ' → ', ...valueParts(c.after)];
}

function joined(items: Part[][], sep = ', '): Part[] {
  return items.flatMap((p, i) => (i ? [sep, ...p] : p));
}

/** One clause per cause. `alone`: the code cause is the only one that can reach the prompt. */
function clause(c: Cause, alone: boolean, otherKeysToo: boolean): Part[] {
  switch (c.kind) {
    case 'setting':
      return [
        "the scenario's ",
        { code: `${c.key}:` },
        ` changed: ${c.before ?? (c.key === 'base' ? '(none)' : '(default)')} → ${c.after ?? (c.key === 'base' ? '(none)' : '(default)')}`,
      ];
    case 'options':
      return c.changes.length === 1
        ? ['fold option ', ...valueChangeParts(c.changes[0]!, ' changed:')]
        : ['fold options changed: ', ...joined(c.changes.map((x) => valueChangeParts(x)))];
    case 'deploy':
      return [
        'the ',
        { code: 'deploy:' },
        ' entry changed',
        ...(c.changes.length
          ? [
              ' (',
              ...joined(
                c.changes.map((x) => valueChangeParts(x)),
                '; ',
              ),
              ')',
            ]
          : []),
      ];
    case 'events':
      return [`the scenario changed — ${eventsText(c)}`];
    case 'base-chain':
      return ['its base scenario ', { code: c.id }, ` changed — ${eventsText(c)}`];
    case 'fold-code':
      return alone
        ? [`the ${c.fold} fold changed (`, ...fileList(c.files), otherKeysToo ? "); the scenario's events and options did not" : '); the scenario did not']
        : [`the ${c.fold} fold's code changed too (`, ...fileList(c.files), ')'];
    case 'shared-code':
      return ['the shared rendering code changed (', ...fileList(c.files), `); the scenario and the ${c.fold} fold did not`];
    case 'unknown':
      return c.folder
        ? [`not visible: the scenario, its options and the ${c.fold} fold's code are as at the base — the base's fixtures may have been out of date`]
        : ['not visible from git: the scenario and its options are as at the base, and the ', { code: c.fold }, ' fold has no src/builtin-folds/ folder to compare'];
    case 'unreadable':
      return ['the scenario file changed, but its version at the base could not be read, so the edit cannot be named'];
    case 'other-keys':
      return ['also edited: ', ...joined(c.keys.map((k) => [{ code: k }]))];
    case 'prompt':
      return promptClause(c);
  }
}

const MAX_MESSAGES = 4;
const at = (requests: number[]): string => (requests.length ? ` (${offsetList(requests)})` : '');

/** "in the prompt: the model `a` → `b`; message 1 (system): 2 lines differ (@21, @23); message 6 (user) added (@42)". */
function promptClause(c: Extract<Cause, { kind: 'prompt' }>): Part[] {
  const items: Part[][] = [];
  if (c.model) items.push(['the model ', { code: c.model.before }, ' → ', { code: c.model.after }, at(c.model.requests)]);
  for (const m of c.messages.slice(0, MAX_MESSAGES)) {
    const what = m.status === 'changed' ? `: ${m.varies ? 'up to ' : ''}${m.lines} line${m.lines === 1 ? '' : 's'} differ${m.lines === 1 && !m.varies ? 's' : ''}` : ` ${m.status}`;
    items.push([`message ${m.index} (${m.role})${what}${at(m.requests)}`]);
  }
  if (c.messages.length > MAX_MESSAGES) items.push([`${c.messages.length - MAX_MESSAGES} more messages`]);
  return ['in the prompt: ', ...joined(items, '; ')];
}

/** The causes as one sentence: "Why: fold option `x` changed: a → b; the scenario changed — event @12 edited". */
export function whyParts(list: readonly Cause[]): Part[] {
  const alone = !list.some((c) => c.kind !== 'fold-code' && c.kind !== 'other-keys' && c.kind !== 'prompt');
  const otherKeysToo = list.some((c) => c.kind === 'other-keys');
  const parts: Part[] = [
    'Why: ',
    ...joined(
      list.map((c) => clause(c, alone, otherKeysToo)),
      '; ',
    ),
  ];
  // Adjacent plain strings merged, so the parts read (and compare) simply.
  return parts.reduce<Part[]>((acc, p) => {
    const last = acc[acc.length - 1];
    if (typeof p === 'string' && typeof last === 'string') acc[acc.length - 1] = last + p;
    else acc.push(p);
    return acc;
  }, []);
}

/** The sentence as plain text (names unquoted). */
export const whyText = (list: readonly Cause[]): string =>
  whyParts(list)
    .map((p) => (typeof p === 'string' ? p : p.code))
    .join('');

/**
 * The sentence as Markdown: names and values in backticks (a backtick in one cannot close the
 * span), Markdown's special characters in the plain text escaped — fold ids and base ids are
 * written by the pull request, so they must not turn into links or markup in its comment.
 */
export const whyMarkdown = (list: readonly Cause[]): string =>
  whyParts(list)
    .map((p) => (typeof p === 'string' ? p.replace(/[\\`*_[\]<>|~#!]/g, '\\$&') : `\`${p.code.replace(/`/g, 'ˋ').replace(/\n/g, ' ')}\``))
    .join('');

/**
 * A request's own causes when they say something its scenario's do not (an event after it left
 * out, or no scenario-side cause reaching it), else undefined: a list repeating the scenario's
 * sentence under every request would only be noise.
 */
export function requestWhy(scenario: readonly Cause[] | undefined, request: readonly Cause[] | undefined): readonly Cause[] | undefined {
  if (!request?.length) return undefined;
  // The scenario's sentence lists each request's prompt changes with its offset: compare the rest.
  const cause = (list: readonly Cause[]): string => whyText(list.filter((c) => c.kind !== 'other-keys' && c.kind !== 'prompt'));
  return scenario && cause(scenario) === cause(request) ? undefined : request;
}
