/**
 * Loads the corpus: every scenario file under the scenarios folder, in file-name order, checked as
 * a whole — unique ids, known folds, base chains (unknown or cyclic bases), fold options, every
 * event expanded and validated through its fold, offsets strictly increasing across the chain, and
 * annotations and expectations that name the scenario's own requests, and `sharesCache:` links
 * (shared-cache.ts). All errors of all files are returned together. Texts in, corpus out: reading
 * the folder is files.ts (this module runs in the browser too).
 */
import type { AnyFold } from '../folds/types.ts';
import { didYouMean } from '../folds/suggest.ts';
import { located, type InputError } from './errors.ts';
import { resolvePayloads, validateEventOf, validateOptionsOf } from '../folds/hooks.ts';
import { batchLabel, checkOrder, checkTime, expandEvents } from './expand.ts';
import { parseMarkdownScenario } from './markdown.ts';
import type { Scenario, ScenarioEvent } from './model.ts';
import { parseYamlScenario, type ParseOptions, type ScenarioDraft, type WrittenEvent } from './parse.ts';
import { encodingProblem, withoutBom } from './source.ts';
import { configFile } from '../project.ts';
import { checkSharedCaches } from './shared-cache.ts';

export interface CorpusConfig {
  /** Absolute project root; file names in errors are relative to it. */
  root: string;
  /** Scenario folder, relative to root. */
  scenariosDir: string;
  timeZero: string;
  folds: ReadonlyMap<string, AnyFold>;
  defaultFold: string;
}

export interface LoadedCorpus {
  scenarios: Scenario[];
  errors: InputError[];
}

type LoadConfig = Omit<CorpusConfig, 'root' | 'scenariosDir'>;

const SCENARIO_FILE = /\.(ya?ml|md)$/;

/** One file, in either syntax, to a draft. */
export function parseScenarioFile(file: string, written: string, opts: ParseOptions): { draft?: ScenarioDraft; errors: InputError[] } {
  const text = withoutBom(written); // a file saved with a byte order mark reads like one without
  const encoding = encodingProblem(text, file);
  if (encoding) return { errors: [encoding] };
  const stem = file.replace(/^.*\//, '').replace(SCENARIO_FILE, '');
  return file.endsWith('.md') ? parseMarkdownScenario(file, stem, text, opts) : parseYamlScenario(file, stem, text, opts);
}

/** Loads scenario texts (already read) as one corpus. */
export async function loadTexts(files: { file: string; text: string }[], config: LoadConfig): Promise<LoadedCorpus> {
  const errors: InputError[] = [];
  const drafts: ScenarioDraft[] = [];
  /** Drafts with an error of their own: still checked as far as possible, never rendered. */
  const broken = new Set<ScenarioDraft>();
  /** Ids written in files too broken to parse (malformed YAML): a base naming one is not "unknown". */
  const unparsed = new Set<string>();
  for (const { file, text } of files) {
    const r = parseScenarioFile(file, text, { timeZero: config.timeZero });
    errors.push(...r.errors);
    if (r.draft) {
      drafts.push(r.draft);
      if (r.errors.length) broken.add(r.draft);
    } else {
      const id = /^id:[ \t]*["']?([a-z0-9][a-z0-9_-]*)["']?[ \t]*(#.*)?$/m.exec(text)?.[1];
      if (id) unparsed.add(id);
    }
  }
  const byId = indexIds(drafts, broken, errors);
  const chains = new Chains(drafts, byId, errors, unparsed);
  const out: Scenario[] = [];
  for (const d of drafts) {
    const s = await resolveScenario(d, chains, config, errors);
    if (s && !broken.has(d) && byId.get(s.id) === d) out.push(s);
  }
  // A scenario is usable only when every scenario in its chain is (a broken base renders nothing).
  const ok = new Set(out.map((s) => s.id));
  const whole = out.filter((s) => s.chain.every((e) => ok.has(e.scenarioId)));
  return { scenarios: checkSharedCaches(whole, drafts, errors).sort((a, b) => (a.file < b.file ? -1 : 1)), errors };
}

/** Ids are unique: a second use is an error and that draft is broken. */
function indexIds(drafts: ScenarioDraft[], broken: Set<ScenarioDraft>, errors: InputError[]): Map<string, ScenarioDraft> {
  const byId = new Map<string, ScenarioDraft>();
  for (const d of drafts) {
    if (d.id === undefined) continue; // a missing or invalid id is already an error of its file
    const first = byId.get(d.id);
    if (first) {
      errors.push({
        pos: d.idPos,
        message: `duplicate id \`${d.id}\` — ${first.file}:${first.idPos.line}:${first.idPos.col} uses it already`,
        fix: 'give each scenario its own id',
      });
      broken.add(d);
      continue;
    }
    byId.set(d.id, d);
  }
  return byId;
}

/**
 * Base chains: unknown and cyclic bases are errors. A chain that runs into a cycle it is not part
 * of is broken too (the cycle's members report it); every walk stops at a repeat.
 */
class Chains {
  private readonly bad = new Set<ScenarioDraft>();
  private readonly byId: Map<string, ScenarioDraft>;

  constructor(drafts: ScenarioDraft[], byId: Map<string, ScenarioDraft>, errors: InputError[], unparsed: ReadonlySet<string> = new Set()) {
    this.byId = byId;
    for (const d of drafts) {
      if (d.base === undefined) continue;
      if (!byId.has(d.base) && unparsed.has(d.base)) {
        this.bad.add(d); // the base's file does not parse: its error is the report, not "unknown base"
        continue;
      }
      if (!byId.has(d.base)) {
        const others = [...byId.keys()].filter((k) => k !== d.id);
        errors.push({
          pos: d.basePos,
          message: `unknown base \`${d.base}\`${didYouMean(d.base, others)}`,
          fix: `use the id of another scenario (${others.join(', ') || 'there are none yet'}) or remove \`base:\``,
        });
        this.bad.add(d);
        continue;
      }
      const seen = [d.id ?? d.stem];
      const visited = new Set<ScenarioDraft>();
      for (let cur = this.baseOf(d); cur; cur = this.baseOf(cur)) {
        seen.push(cur.id!);
        if (cur === d) {
          errors.push({ pos: d.basePos, message: `cyclic base: ${seen.join(' → ')}`, fix: 'break the cycle: one scenario in it must have no `base:` (or a base outside it)' });
          this.bad.add(d);
          break;
        }
        if (visited.has(cur)) {
          this.bad.add(d);
          break;
        }
        visited.add(cur);
      }
    }
  }

  private baseOf(d: ScenarioDraft): ScenarioDraft | undefined {
    return d.base !== undefined ? this.byId.get(d.base) : undefined;
  }

  /** The chain root-first, ending with `d`; undefined when a base in it is unknown or cyclic. */
  of(d: ScenarioDraft): ScenarioDraft[] | undefined {
    const chain: ScenarioDraft[] = [];
    for (let cur: ScenarioDraft | undefined = d; cur; cur = this.baseOf(cur)) {
      if (this.bad.has(cur) || chain.includes(cur)) return undefined;
      chain.unshift(cur);
    }
    return chain;
  }
}

/** The fold a chain is rendered by: declared in it (the same everywhere) or the default. */
function foldOf(d: ScenarioDraft, checked: ScenarioDraft[], config: LoadConfig, errors: InputError[]): AnyFold | undefined {
  const declared = checked.findLast((c) => c.fold !== undefined);
  const foldId = declared?.fold ?? config.defaultFold;
  const fold = config.folds.get(foldId);
  if (!fold) {
    if (declared === d)
      errors.push({
        pos: d.foldPos,
        message: `unknown fold \`${foldId}\`${didYouMean(foldId, config.folds.keys())}`,
        fix: `use one of: ${[...config.folds.keys()].join(', ')} (or register the fold in ${configFile()})`,
      });
    return undefined;
  }
  const mismatch = checked.find((c) => c.fold !== undefined && c.fold !== foldId);
  if (mismatch && d.fold !== undefined && d.fold !== mismatch.fold) {
    errors.push({
      pos: d.foldPos,
      message: `fold \`${d.fold}\` differs from base \`${mismatch.id}\`'s fold \`${mismatch.fold}\``,
      fix: 'a chain is rendered by one fold: remove `fold:` here or use the same fold',
    });
    return undefined;
  }
  return fold;
}

/** A written event as a loaded scenario keeps it: everything but `locate`. */
function loaded({ locate: _, ...event }: WrittenEvent): ScenarioEvent {
  return event;
}

/** One draft with its chain → a scenario, or undefined when it (or its chain) has errors. */
async function resolveScenario(d: ScenarioDraft, chains: Chains, config: LoadConfig, errors: InputError[]): Promise<Scenario | undefined> {
  // A broken chain does not hide this file's own errors: check it alone, render nothing.
  const chain = chains.of(d);
  const checked = chain ?? [d];
  const fold = foldOf(d, checked, config, errors);
  const before = errors.length;
  // Every draft of the chain expands with the chain's fold (a base's own errors are its own file's).
  const expanded = new Map<ScenarioDraft, WrittenEvent[]>();
  for (const c of checked) expanded.set(c, await expandEvents(c.events, fold, c === d ? errors : []));
  if (!fold) return undefined;
  const unresolved = await resolveChain(fold, checked, expanded, d, errors);
  const events = expanded.get(d)!;
  for (const issue of (await located(validateOptionsOf(fold, { ...fold.defaults, ...d.options }), errors, d.foldPos, 'checking the options')) ?? []) {
    errors.push({ pos: d.locateOption(issue.path), message: `fold option ${issue.message}`, fix: issue.fix });
  }
  for (const e of events) if (!unresolved.has(e)) await validateEvent(e, fold, errors);
  const inherited = checked.slice(0, -1).flatMap((c) => expanded.get(c)!);
  const lastBase = inherited.at(-1);
  if (lastBase && events[0]) {
    for (const err of [checkOrder(lastBase, events[0], lastBase.scenarioId), checkTime(lastBase, events[0], lastBase.scenarioId)]) if (err) errors.push(err);
  }
  checkOwnRequests(d, events, inherited, fold, errors);
  const compare = await resolveCompare(d, fold, [...inherited, ...events], config, errors);
  const deploy = await resolveDeploy(d, fold, events, [...inherited, ...events], config, errors);
  if (errors.length > before || !chain || d.id === undefined) return undefined;
  // The scenario's events without `locate` (parse.ts, WrittenEvent): nothing keeps the YAML trees.
  const own = events.map(loaded);
  return {
    id: d.id,
    title: d.title,
    intro: d.intro,
    file: d.file,
    stem: d.stem,
    fold: fold.id,
    options: d.options,
    ...(d.base !== undefined && { base: d.base }),
    events: own,
    chain: [...inherited.map(loaded), ...own],
    annotations: d.annotations,
    ...(compare && { compare }),
    ...(d.expect && { expect: d.expect }),
    ...(deploy && { deploy }),
    ...(d.sharesCache && { sharesCache: d.sharesCache }),
    ...(d.startedAt && { startedAt: d.startedAt }),
    pos: d.pos,
    ...(d.opens !== undefined && { opens: d.opens, opensPos: d.opensPos! }),
  };
}

/**
 * The fold's `resolve` hook over the whole chain (an event may be written relative to an earlier
 * one, a base's included): every event's payload becomes the resolved one. Problems of this file's
 * own events are reported at them (a base's are its own file's); returns the events left unresolved,
 * which are not validated again.
 */
async function resolveChain(
  fold: AnyFold,
  checked: ScenarioDraft[],
  expanded: Map<ScenarioDraft, WrittenEvent[]>,
  d: ScenarioDraft,
  errors: InputError[],
): Promise<Set<WrittenEvent>> {
  const unresolved = new Set<WrittenEvent>();
  if (!fold.resolve) return unresolved;
  const all = checked.flatMap((c) => expanded.get(c)!);
  const authored = all.map((e) => ({ offset: e.offset, type: e.type, createdAt: e.createdAt, elapsedMs: e.elapsedMs, payload: e.payload as Record<string, unknown> }));
  const res = await located(resolvePayloads(fold, authored), errors, d.foldPos, 'resolving the events');
  if (!res) return new Set(all);
  const own = new Set(expanded.get(d));
  let k = 0;
  for (const c of checked) {
    expanded.set(
      c,
      expanded.get(c)!.map((e) => {
        const r = res[k++]!;
        if (r.issues?.length || !r.payload) {
          if (own.has(e)) for (const i of r.issues ?? []) errors.push({ pos: e.locate(i.path), message: `${batchLabel(e)} ${e.type}: ${i.message}`, fix: i.fix });
          unresolved.add(e);
          return e;
        }
        return r.payload === e.payload ? e : { ...e, payload: r.payload };
      }),
    );
  }
  return unresolved;
}

/** Annotations and `expect.busts` name this scenario's own accepted-or-not request events. */
function checkOwnRequests(d: ScenarioDraft, events: ScenarioEvent[], inherited: ScenarioEvent[], fold: AnyFold, errors: InputError[]): void {
  const requests = events.filter((e) => fold.requestTypes.includes(e.type)).map((e) => e.offset);
  const use = requests.length ? `use one of: ${requests.map((r) => `"@${r}"`).join(', ')}` : undefined;
  // An event whose type is unknown is reported already: if an annotation names it, that is the
  // same mistake (a misspelt request type), not a second one.
  const mistyped = new Set(events.filter((e) => !fold.eventTypes.includes(e.type)).map((e) => e.offset));
  for (const a of d.annotations) {
    if (requests.includes(a.request) || mistyped.has(a.request)) continue;
    const owner = inherited.find((e) => e.offset === a.request && fold.requestTypes.includes(e.type));
    errors.push({
      pos: a.pos,
      message: owner
        ? `annotation names request @${a.request}, which belongs to base scenario \`${owner.scenarioId}\`, not to this one`
        : `annotation names request @${a.request}, which is not one of this scenario's own requests`,
      fix: owner
        ? `annotate it in \`${owner.scenarioId}\` (${owner.scenarioId === d.base ? "this scenario's base" : 'further up the base chain'}), or ${use ?? "add a request of this scenario's own and annotate that"}`
        : (use ?? 'this scenario has no request events of its own: add one, or move the annotation to the scenario that owns the request'),
    });
  }
  d.expect?.busts.forEach((b, i) => {
    if (requests.includes(b)) return;
    errors.push({
      pos: d.expect!.bustPos[i]!,
      message: `\`expect.busts\` names request @${b}, which is not one of this scenario's own requests`,
      fix: use ?? 'this scenario has no request events of its own: remove `expect:`',
    });
  });
}

async function resolveCompare(d: ScenarioDraft, fold: AnyFold, chainEvents: WrittenEvent[], config: LoadConfig, errors: InputError[]): Promise<Scenario['compare']> {
  if (!d.compare) return undefined;
  const cf = d.compare.foldGiven ? d.compare.fold : fold.id;
  const cfold = config.folds.get(cf);
  if (!cfold) {
    errors.push({
      pos: d.compare.pos,
      message: `unknown fold \`${cf}\` in \`compare\`${didYouMean(cf, config.folds.keys())}`,
      fix: `use one of: ${[...config.folds.keys()].join(', ')}`,
    });
    return undefined;
  }
  for (const issue of (await located(validateOptionsOf(cfold, { ...cfold.defaults, ...d.compare.options }), errors, d.compare.pos, 'checking the `compare` options')) ?? [])
    errors.push({ pos: d.compare.locate(issue.path), message: `compare option ${issue.message}`, fix: issue.fix });
  if (cf !== fold.id) for (const e of chainEvents) await validateEvent(e, cfold, errors);
  return { label: d.compare.label, fold: cf, options: d.compare.options, pos: d.compare.pos };
}

/** `deploy:` names one of the scenario's own events, after its first; its options fit the fold deployed. */
async function resolveDeploy(
  d: ScenarioDraft,
  fold: AnyFold,
  own: WrittenEvent[],
  chainEvents: WrittenEvent[],
  config: LoadConfig,
  errors: InputError[],
): Promise<Scenario['deploy']> {
  const dep = d.deploy;
  if (!dep) return undefined;
  const before = errors.length;
  const offsets = own.map((e) => e.offset);
  if (!offsets.includes(dep.at)) {
    errors.push({
      pos: dep.atPos,
      message: `\`deploy.at\` names @${dep.at}, which is not one of this scenario's own events`,
      fix: `use one of: ${offsets.map((o) => `"@${o}"`).join(', ')}`,
    });
  } else if (dep.at === chainEvents[0]?.offset) {
    errors.push({
      pos: dep.atPos,
      message: `\`deploy.at\` names the stream's first event: there is nothing before it to render under the old rule`,
      fix: 'deploy at a later event, or set the options on the scenario itself',
    });
  }
  const foldId = dep.fold ?? fold.id;
  const dfold = config.folds.get(foldId);
  if (!dfold) {
    errors.push({ pos: dep.pos, message: `unknown fold \`${foldId}\` in \`deploy\``, fix: `use one of: ${[...config.folds.keys()].join(', ')}` });
    return undefined;
  }
  const options = dfold === fold ? { ...d.options, ...dep.options } : dep.options;
  for (const issue of (await located(validateOptionsOf(dfold, { ...dfold.defaults, ...options }), errors, dep.pos, 'checking the `deploy` options')) ?? [])
    errors.push({ pos: dep.locate(issue.path), message: `deploy option ${issue.message}`, fix: issue.fix });
  if (dfold !== fold) for (const e of chainEvents) await validateEvent(e, dfold, errors);
  if (errors.length > before) return undefined;
  return { at: dep.at, fold: foldId, options: dep.options, pos: dep.pos };
}

async function validateEvent(e: WrittenEvent, fold: AnyFold, errors: InputError[]): Promise<void> {
  // A batch's shared fields are written once, so their problems are reported once (on its first event).
  const later = e.batch !== undefined && e.batch.index > 0;
  if (!fold.eventTypes.includes(e.type)) {
    if (!later)
      errors.push({
        pos: e.typePos,
        message: `unknown event type \`${e.type}\` at ${batchLabel(e)} for fold \`${fold.id}\`${didYouMean(e.type, fold.eventTypes)}`,
        fix: `use one of: ${fold.eventTypes.join(', ')}`,
      });
    return;
  }
  for (const issue of (await located(validateEventOf(fold, e.type, e.payload), errors, e.typePos, `checking @${e.offset} ${e.type}`)) ?? []) {
    const shared = e.batch !== undefined && !e.batch.ownFields.includes(String(issue.path[0] ?? ''));
    if (shared && later) continue;
    errors.push({ pos: e.locate(issue.path), message: `${shared ? batchLabel(e) : `@${e.offset}`} ${e.type}: ${issue.message}`, fix: issue.fix });
  }
}
