/**
 * Loads the corpus: every scenario file under the scenarios folder, in file-name order, checked as
 * a whole — unique ids, known folds, base chains (unknown or cyclic bases), fold options, every
 * event's type and payload through its fold, offsets strictly increasing across the chain, and
 * annotations that name the scenario's own requests. All errors of all files are returned together.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { AnyFold } from '../folds/types.ts';
import { CorpusError, type InputError } from './errors.ts';
import type { Scenario, ScenarioEvent } from './model.ts';
import { checkOrder, checkTime, parseScenarioFile, type ScenarioDraft } from './parse.ts';

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

const SCENARIO_FILE = /\.(ya?ml|md)$/;

/**
 * Scenario file paths relative to the root, sorted (the site's order). A scenario file that is a
 * symlink resolving outside the project is refused (a CorpusError naming each): the corpus is the
 * project's own files, never whatever a link points at.
 */
export function listScenarioFiles(config: CorpusConfig): string[] {
  const dir = join(config.root, config.scenariosDir);
  const files = readdirSync(dir).filter((n) => SCENARIO_FILE.test(n)).sort().map((n) => `${config.scenariosDir}/${n}`);
  // harden (issue 17): links out of the project are refused.
  const root = realpathSync(config.root);
  const outside: InputError[] = [];
  for (const f of files) {
    let real: string;
    try {
      real = realpathSync(join(config.root, f));
    } catch {
      outside.push({ pos: { file: f, line: 1, col: 1 }, message: `${f} is a symlink to ${readlinkSync(join(config.root, f))}, which does not exist`, fix: 'remove the link, or put the scenario file itself in the scenarios folder' });
      continue;
    }
    if (real !== root && !real.startsWith(root + sep)) {
      outside.push({ pos: { file: f, line: 1, col: 1 }, message: `${f} is a symlink to ${real}, outside the project`, fix: 'copy the scenario into the scenarios folder instead of linking to it (a scenario is part of the project)' });
    }
  }
  if (outside.length) throw new CorpusError(outside);
  return files;
}

export function loadCorpus(config: CorpusConfig): LoadedCorpus {
  const files = listScenarioFiles(config).map((file) => ({ file, text: readFileSync(join(config.root, file), 'utf8') }));
  return loadTexts(files, config);
}

/** Loads scenario texts (already read) as one corpus. */
export function loadTexts(files: { file: string; text: string }[], config: Omit<CorpusConfig, 'root' | 'scenariosDir'>): LoadedCorpus {
  const errors: InputError[] = [];
  const drafts: ScenarioDraft[] = [];
  /** Drafts with an error of their own: still checked as far as possible, never rendered. */
  const broken = new Set<ScenarioDraft>();
  for (const { file, text } of files) {
    const r = parseScenarioFile(file, text, { timeZero: config.timeZero });
    errors.push(...r.errors);
    if (r.draft) {
      drafts.push(r.draft);
      if (r.errors.length) broken.add(r.draft);
    }
  }
  return { scenarios: resolve(drafts, broken, config, errors), errors };
}

function resolve(drafts: ScenarioDraft[], broken: Set<ScenarioDraft>, config: Omit<CorpusConfig, 'root' | 'scenariosDir'>, errors: InputError[]): Scenario[] {
  const byId = new Map<string, ScenarioDraft>();
  for (const d of drafts) {
    if (d.id === undefined) continue; // a missing or invalid id is already an error of its file
    const first = byId.get(d.id);
    if (first) {
      errors.push({ pos: d.idPos, message: `duplicate id \`${d.id}\` — ${first.file}:${first.idPos.line}:${first.idPos.col} uses it already`, fix: 'give each scenario its own id' });
      broken.add(d);
      continue;
    }
    byId.set(d.id, d);
  }
  const known = [...config.folds.keys()].join(', ');
  const baseOf = (d: ScenarioDraft): ScenarioDraft | undefined => (d.base !== undefined ? byId.get(d.base) : undefined);

  // Base chains: unknown and cyclic bases are errors. A chain that runs into a cycle it is not part
  // of is broken too (the cycle's members report it); every walk below stops at a repeat.
  const badBase = new Set<ScenarioDraft>();
  for (const d of drafts) {
    if (d.base === undefined) continue;
    if (!byId.has(d.base)) {
      const others = [...byId.keys()].filter((k) => k !== d.id);
      errors.push({ pos: d.basePos, message: `unknown base \`${d.base}\``, fix: `use the id of another scenario (${others.join(', ') || 'there are none yet'}) or remove \`base:\`` });
      badBase.add(d);
      continue;
    }
    const seen = [d.id ?? d.stem];
    const visited = new Set<ScenarioDraft>();
    for (let cur = baseOf(d); cur; cur = baseOf(cur)) {
      seen.push(cur.id!);
      if (cur === d) {
        errors.push({ pos: d.basePos, message: `cyclic base: ${seen.join(' → ')}`, fix: 'break the cycle: one scenario in it must have no `base:` (or a base outside it)' });
        badBase.add(d);
        break;
      }
      if (visited.has(cur)) {
        badBase.add(d);
        break;
      }
      visited.add(cur);
    }
  }
  /** The chain root-first, ending with `d`; undefined when a base in it is unknown or cyclic. */
  const chainOf = (d: ScenarioDraft): ScenarioDraft[] | undefined => {
    const chain: ScenarioDraft[] = [];
    for (let cur: ScenarioDraft | undefined = d; cur; cur = baseOf(cur)) {
      if (badBase.has(cur) || chain.includes(cur)) return undefined;
      chain.unshift(cur);
    }
    return chain;
  };

  const out: Scenario[] = [];
  for (const d of drafts) {
    // A broken chain does not hide this file's own errors: check it alone, render nothing.
    const chain = chainOf(d);
    const checked = chain ?? [d];
    // A scenario inherits its base's fold; declaring a different one is an error.
    const declared = checked.findLast((c) => c.fold !== undefined);
    const foldId = declared?.fold ?? config.defaultFold;
    const fold = config.folds.get(foldId);
    if (!fold) {
      if (declared === d) errors.push({ pos: d.foldPos, message: `unknown fold \`${foldId}\``, fix: `use one of: ${known} (or register the fold in astro.config.mjs)` });
      continue;
    }
    const mismatch = checked.find((c) => c.fold !== undefined && c.fold !== foldId);
    if (mismatch && d.fold !== undefined && d.fold !== mismatch.fold) {
      errors.push({ pos: d.foldPos, message: `fold \`${d.fold}\` differs from base \`${mismatch.id}\`'s fold \`${mismatch.fold}\``, fix: 'a chain is rendered by one fold: remove `fold:` here or use the same fold' });
      continue;
    }
    const before = errors.length;
    for (const issue of fold.validateOptions({ ...fold.defaults, ...d.options })) {
      errors.push({ pos: d.locateOption(issue.path), message: `fold option ${issue.message}`, fix: issue.fix });
    }
    for (const e of d.events) validateEvent(e, fold, errors);
    const events = d.events;
    const inherited: ScenarioEvent[] = checked.slice(0, -1).flatMap((c) => c.events);
    const lastBase = inherited.at(-1);
    if (lastBase && events[0]) {
      for (const err of [checkOrder(lastBase, events[0], lastBase.scenarioId), checkTime(lastBase, events[0], lastBase.scenarioId)]) if (err) errors.push(err);
    }
    const requests = events.filter((e) => fold.requestTypes.includes(e.type)).map((e) => e.offset);
    for (const a of d.annotations) {
      if (!requests.includes(a.request)) {
        errors.push({
          pos: a.pos,
          message: `annotation names request @${a.request}, which is not one of this scenario's own requests`,
          fix: requests.length ? `use one of: ${requests.map((r) => `"@${r}"`).join(', ')}` : 'this scenario has no request events of its own: add one, or move the annotation to the scenario that owns the request',
        });
      }
    }
    if (d.expect) {
      d.expect.busts.forEach((b, i) => {
        if (requests.includes(b)) return;
        errors.push({
          pos: d.expect!.bustPos[i]!,
          message: `\`expect.busts\` names request @${b}, which is not one of this scenario's own requests`,
          fix: requests.length ? `use one of: ${requests.map((r) => `"@${r}"`).join(', ')}` : 'this scenario has no request events of its own: remove `expect:`',
        });
      });
    }
    let compare: Scenario['compare'];
    if (d.compare) {
      const cf = d.compare.foldGiven ? d.compare.fold : foldId;
      const cfold = config.folds.get(cf);
      if (!cfold) errors.push({ pos: d.compare.pos, message: `unknown fold \`${cf}\` in \`compare\``, fix: `use one of: ${known}` });
      else {
        for (const issue of cfold.validateOptions({ ...cfold.defaults, ...d.compare.options })) errors.push({ pos: d.compare.locate(issue.path), message: `compare option ${issue.message}`, fix: issue.fix });
        if (d.compare.foldGiven && cf !== foldId) for (const e of [...inherited, ...events]) validateEvent(e, cfold, errors);
        compare = { label: d.compare.label, fold: cf, options: d.compare.options, pos: d.compare.pos };
      }
    }
    if (errors.length > before || !chain || broken.has(d) || d.id === undefined || byId.get(d.id) !== d) continue;
    out.push({
      id: d.id, title: d.title, intro: d.intro, file: d.file, stem: d.stem, fold: foldId, options: d.options,
      ...(d.base !== undefined && { base: d.base }), events, chain: [...inherited, ...events], annotations: d.annotations,
      ...(compare && { compare }), ...(d.expect && { expect: d.expect }), pos: d.pos,
    });
  }
  // A scenario is usable only when every scenario in its chain is (a broken base renders nothing).
  const ok = new Set(out.map((s) => s.id));
  return out.filter((s) => s.chain.every((e) => ok.has(e.scenarioId))).sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** Payload field names a `sections` entry sets; every other field is shared by the whole batch. */
const PER_SECTION = new Set<string | number>(['key', 'content']);

function validateEvent(e: ScenarioEvent, fold: AnyFold, errors: InputError[]): void {
  // A batch's shared fields are written once, so their problems are reported once (on its first event).
  const later = e.batch !== undefined && e.batch.index > 0;
  const batchLabel = e.batch ? `@${e.batch.first}–@${e.batch.first + e.batch.size - 1} (\`sections\` batch)` : `@${e.offset}`;
  if (!fold.eventTypes.includes(e.type)) {
    if (!later) errors.push({ pos: e.typePos, message: `unknown event type \`${e.type}\` at ${batchLabel} for fold \`${fold.id}\``, fix: `use one of: ${fold.eventTypes.join(', ')}` });
    return;
  }
  for (const issue of fold.validateEvent(e.type, e.payload)) {
    const shared = !PER_SECTION.has(issue.path[0] ?? '');
    if (e.batch && shared && later) continue;
    errors.push({ pos: e.locate(issue.path), message: `${e.batch && shared ? batchLabel : `@${e.offset}`} ${e.type}: ${issue.message}`, fix: issue.fix });
  }
}
