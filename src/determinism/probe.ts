/**
 * The determinism probe: a fold is run again over the same scenario in a changed world —
 * the clock shifted by weeks, another time zone and locale, another random sequence (Math.random and
 * crypto.randomUUID), the environment variables changed, and the keys of every payload object and
 * every tool list reversed — and every byte that moves inside a request's cached prefix is a finding,
 * located at the request's event, naming the text that moved and what moved it. Teams write
 * byte-level prefix-stability suites by hand; here the team's real fold is run, so a finding is
 * proven, not guessed from a regex.
 *
 * Cost: one extra render of the scenario with every perturbation at once; only when something moved
 * is it rendered once per perturbation, to say which one moved it. The `requests` fold is not probed
 * (its payload is the request as sent: there is no code of the team's to run).
 *
 * The world is changed process-wide (globalThis.Date, Math.random, process.env, Intl defaults) for
 * the duration of one render and restored in `finally`; the probe runs scenarios one at a time.
 */
import { renderScenario, type RenderedRequest, type RenderedScenario } from '../prompt/render.ts';
import type { AnyFold } from '../folds/types.ts';
import type { Scenario, ScenarioEvent } from '../scenarios/model.ts';
import type { InputError, SourcePos } from '../scenarios/errors.ts';

export type Perturbation = 'clock' | 'time zone' | 'locale' | 'random' | 'environment' | 'key order' | 'tool order';
export const PERTURBATIONS: readonly Perturbation[] = ['clock', 'time zone', 'locale', 'random', 'environment', 'key order', 'tool order'];

const WHAT: Record<Perturbation, string> = {
  clock: 'the clock (shifted by 37 days, 5 h 13 min)',
  'time zone': 'the time zone (TZ=Pacific/Kiritimati, UTC+14)',
  locale: 'the locale (ar-EG: another language, other digits)',
  random: 'the random numbers (Math.random and crypto.randomUUID, another sequence)',
  environment: 'the environment variables (each value changed)',
  'key order': 'the order of the keys of the events’ payload objects (reversed)',
  'tool order': 'the order of tool lists in the events’ payloads (reversed)',
};

export interface ProbeFinding {
  scenario: string;
  /** The request whose cached prefix moved. */
  request: number;
  /** Its event in the scenario file. */
  pos: SourcePos;
  /** What moved it (one or more perturbations). */
  movedBy: Perturbation[];
  /** The first line that moved: as rendered, and in the changed world. */
  was: string;
  now: string;
  /** 1-based line of the printed request. */
  line: number;
}

/** A seeded generator (mulberry32): the same numbers every run, different from the real Math.random. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SHIFT_MS = ((37 * 24 + 5) * 60 + 13) * 60_000;
const LOCALE = 'ar-EG';
/** Variables changing them would break the process itself, not the fold's output. */
const KEEP_ENV = /^(PATH|NODE_.*|TZ|LANG|LC_.*|HOME|TMPDIR|TEMP|TMP|PWD|SHELL|npm_.*|VITEST.*|CI)$/;

type Restore = () => void;

/** Changes the world for `perturbations`; returns how to put it back. */
function perturb(perturbations: ReadonlySet<Perturbation>): Restore {
  const undo: Restore[] = [];
  const g = globalThis as unknown as Record<string, unknown>;
  if (perturbations.has('clock')) {
    const Real = Date;
    class Shifted extends Real {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(Real.now() + SHIFT_MS);
        else super(...(args as [number]));
      }
      static override now(): number {
        return Real.now() + SHIFT_MS;
      }
    }
    g.Date = Shifted;
    undo.push(() => {
      g.Date = Real;
    });
  }
  if (perturbations.has('time zone')) {
    const before = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    undo.push(() => {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    });
  }
  if (perturbations.has('locale')) {
    const saved: [object, string, unknown][] = [];
    const wrap = (owner: object, key: string) => {
      const real = (owner as Record<string, unknown>)[key] as (this: unknown, ...a: unknown[]) => unknown;
      saved.push([owner, key, real]);
      (owner as Record<string, unknown>)[key] = function (this: unknown, locales?: unknown, ...rest: unknown[]) {
        return real.call(this, locales ?? LOCALE, ...rest);
      };
    };
    wrap(Date.prototype, 'toLocaleString');
    wrap(Date.prototype, 'toLocaleDateString');
    wrap(Date.prototype, 'toLocaleTimeString');
    wrap(Number.prototype, 'toLocaleString');
    const intl = Intl as unknown as Record<string, unknown>;
    for (const k of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat']) {
      const Real = intl[k] as (new (l?: unknown, o?: unknown) => object) & { supportedLocalesOf: unknown };
      if (!Real) continue;
      const Patched = ((locales?: unknown, options?: unknown) => new Real(locales ?? LOCALE, options)) as unknown as typeof Real;
      Object.defineProperty(Patched, 'prototype', { value: Real.prototype });
      (Patched as unknown as Record<string, unknown>).supportedLocalesOf = Real.supportedLocalesOf;
      saved.push([intl, k, Real]);
      intl[k] = Patched;
    }
    const env = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL };
    process.env.LANG = 'ar_EG.UTF-8';
    process.env.LC_ALL = 'ar_EG.UTF-8';
    undo.push(() => {
      for (const [owner, key, real] of saved) (owner as Record<string, unknown>)[key] = real;
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
  }
  if (perturbations.has('random')) {
    const real = Math.random;
    Math.random = seeded(0x5eed);
    const c = globalThis.crypto as unknown as Record<string, unknown> | undefined;
    const realUuid = c?.randomUUID;
    if (c && typeof realUuid === 'function') {
      const next = seeded(0xc0ffee);
      c.randomUUID = () =>
        'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (ch) => {
          const r = Math.floor(next() * 16);
          return (ch === 'x' ? r : (r & 0x3) | 0x8).toString(16);
        });
    }
    undo.push(() => {
      Math.random = real;
      if (c && realUuid) c.randomUUID = realUuid;
    });
  }
  if (perturbations.has('environment')) {
    const saved = new Map<string, string | undefined>();
    for (const [k, v] of Object.entries(process.env)) {
      if (KEEP_ENV.test(k) || v === undefined) continue;
      saved.set(k, v);
      process.env[k] = `${v}-probe`;
    }
    for (const k of ['USER', 'HOSTNAME', 'USERNAME', 'LOGNAME']) {
      if (saved.has(k)) continue;
      saved.set(k, process.env[k]);
      process.env[k] = 'probe-user';
    }
    undo.push(() => {
      for (const [k, v] of saved) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
  }
  return () => {
    for (const u of undo.reverse()) u();
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A payload with its objects' keys reversed, and/or every `tools` list (or list of tool-like items) reversed. */
function reorder(v: unknown, keys: boolean, tools: boolean, underTools = false): unknown {
  if (Array.isArray(v)) {
    const items = v.map((x) => reorder(x, keys, tools));
    const toolLike =
      underTools || (items.length > 1 && items.every((x) => isObj(x) && typeof x.name === 'string' && ('description' in x || 'parameters' in x || 'input_schema' in x)));
    return tools && toolLike ? items.reverse() : items;
  }
  if (!isObj(v)) return v;
  const entries = Object.entries(v).map(([k, x]) => [k, reorder(x, keys, tools, k === 'tools' && Array.isArray(x))] as const);
  return Object.fromEntries(keys ? entries.reverse() : entries);
}

/** The scenario with its events' payloads reordered (nothing else changes: offsets, times, positions). */
function reordered(s: Scenario, keys: boolean, tools: boolean): Scenario {
  if (!keys && !tools) return s;
  const map = new Map<ScenarioEvent, ScenarioEvent>();
  const one = (e: ScenarioEvent): ScenarioEvent => {
    let m = map.get(e);
    if (!m) {
      m = Object.assign(Object.create(Object.getPrototypeOf(e)) as ScenarioEvent, e, { payload: reorder(e.payload, keys, tools) });
      map.set(e, m);
    }
    return m;
  };
  return { ...s, events: s.events.map(one), chain: s.chain.map(one) };
}

/** The printed lines of each own request. */
async function render(s: Scenario, fold: AnyFold, set: ReadonlySet<Perturbation>): Promise<Map<number, RenderedRequest> | null> {
  const errors: InputError[] = [];
  const scenario = reordered(s, set.has('key order'), set.has('tool order'));
  const restore = perturb(set);
  let requests: RenderedRequest[];
  try {
    const r = await renderScenario(scenario, fold, { everyEvent: false, describe: false }, errors);
    if (r.foldFailed) return null;
    requests = r.chain;
  } catch {
    // The fold failed in the changed world: that is not a moved byte, and the check reports the fold's own failures.
    return null;
  } finally {
    restore();
  }
  return new Map(requests.map((q) => [q.offset, q]));
}

/**
 * Where a request's cached prefix ends (printed lines): what it shares with the request before it
 * (its ✂ line), or what the request after it reads of it (that request's ✂ line), whichever is further.
 */
function cachedPrefixLines(chain: readonly RenderedRequest[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const q of chain) out.set(q.offset, Math.max(out.get(q.offset) ?? 0, q.cut ?? 0));
  for (const q of chain) if (q.previous !== null && q.cut !== null) out.set(q.previous, Math.max(out.get(q.previous) ?? 0, q.cut));
  return out;
}

/** The first line of the cached prefix that differs, or null. */
function moved(a: RenderedRequest, b: RenderedRequest | undefined, prefix: number): { line: number; was: string; now: string } | null {
  for (let i = 0; i < prefix; i++) {
    const was = a.lines[i]?.text;
    const now = b?.lines[i]?.text;
    if (was !== now) return { line: i + 1, was: was ?? '(no line)', now: now ?? '(no line)' };
  }
  return null;
}

/** Probes one rendered scenario's fold; resolves to the moved prefixes, each with what moved it. */
export async function probeScenario(s: Scenario, fold: AnyFold, baseline: readonly RenderedRequest[]): Promise<ProbeFinding[]> {
  // A deploy renders part of the chain under another fold: re-rendering it needs that fold too (not probed).
  if (fold.id === 'requests' || s.deploy || !baseline.length) return [];
  const own = new Set(s.events.map((e) => e.offset));
  const prefix = cachedPrefixLines(baseline);
  const pos = new Map(s.chain.map((e) => [e.offset, e.pos]));
  const all = await render(s, fold, new Set(PERTURBATIONS));
  if (!all) return [];
  const first = (got: Map<number, RenderedRequest>) =>
    baseline
      .filter((q) => own.has(q.offset))
      .map((q) => ({ q, m: moved(q, got.get(q.offset), prefix.get(q.offset) ?? 0) }))
      .filter((x) => x.m !== null);
  const movedAll = first(all);
  if (!movedAll.length) return [];
  // Something moved: which perturbation moved it, one at a time.
  const by = new Map<number, Perturbation[]>();
  for (const p of PERTURBATIONS) {
    const got = await render(s, fold, new Set([p]));
    if (!got) continue;
    for (const { q } of first(got)) by.set(q.offset, [...(by.get(q.offset) ?? []), p]);
  }
  return movedAll.map(({ q, m }) => ({
    scenario: s.id,
    request: q.offset,
    pos: pos.get(q.offset) ?? s.pos,
    movedBy: by.get(q.offset) ?? [],
    was: m!.was,
    now: m!.now,
    line: m!.line,
  }));
}

/** A finding as `check` and `assert` print it. */
export function findingMessage(f: ProbeFinding): { message: string; detail: string[]; fix: string } {
  const what = f.movedBy.length ? f.movedBy.map((p) => WHAT[p]).join('; ') : 'the changed world as a whole (no one change alone moved it)';
  return {
    message: `request @${f.request}: its cached prefix is not deterministic — line ${f.line} of the request moves when the fold runs again with ${what}`,
    detail: [`was: ${JSON.stringify(f.was)}`, `now: ${JSON.stringify(f.now)}`],
    fix:
      f.movedBy.includes('clock') || f.movedBy.includes('time zone')
        ? 'take the time from the events (their timestamps), not the clock, and format it in a fixed time zone — or put it after the cached prefix (in the newest turn)'
        : f.movedBy.includes('key order') || f.movedBy.includes('tool order')
          ? 'sort the keys or tools before printing them (an object’s key order and a tool list’s order are not part of the input’s meaning)'
          : f.movedBy.includes('random')
            ? 'derive ids from the events (their offsets, a hash of their content), not from random numbers'
            : f.movedBy.includes('environment')
              ? 'pass configuration in as the fold’s options, not from environment variables'
              : f.movedBy.includes('locale')
                ? 'format numbers and dates with an explicit locale'
                : 'make the fold a function of its events and options alone',
  };
}

/** Every rendered scenario of a corpus probed, one at a time (the world is changed process-wide). */
export async function probeCorpus(rendered: readonly RenderedScenario[]): Promise<ProbeFinding[]> {
  const out: ProbeFinding[] = [];
  for (const r of rendered) if (!r.foldFailed) out.push(...(await probeScenario(r.scenario, r.fold, r.chain)));
  return out;
}
