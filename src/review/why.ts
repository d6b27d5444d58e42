/**
 * The change set against a base ref, each changed scenario and request carrying why it changed
 * (cause.ts): the scenario files at the base and now (shape.ts), their base chains, and which
 * rendering code git sees changed since the base (the fold's own src/builtin-folds/<id>/ folder, then the
 * shared code) — and what changed in the prompt itself (prompt-change.ts: which messages, how many
 * lines, the model), said per scenario with the requests it happened in. The one place the site (reviews.ts), `npm run pr-summary` and the preview build
 * compare with a base, so all three say the same.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderedScenario } from '../prompt/render.ts';
import type { Scenario } from '../scenarios/model.ts';
import { changedFiles, readBaseFixtures, type BaseFixture, type BaseScenarioFile } from './base.ts';
import { causes, promptCause, type Cause, type WhyInput } from './cause.ts';
import { promptChange } from './prompt-change.ts';
import { compareWithBase, type ChangeSet } from './compare.ts';
import { scenarioShape, type ScenarioShape } from './shape.ts';

/** Where the built-in folds live (a fold's own folder: `src/builtin-folds/<id>/`), relative to the project root. */
export const FOLDS_DIR = 'src/builtin-folds';
/** Where they lived before (a base commit may have its folds there), beside the fold kit. */
const KIT_DIR = 'src/folds';
/** Where the code a prompt is rendered by lives. */
const SHARED_CODE = [KIT_DIR, FOLDS_DIR, 'src/prompt', 'src/scenarios'];

export interface WhyConfig {
  root: string;
  scenariosDir: string;
  defaultFold: string;
}

/** `changes` with `why` set on every changed scenario and every request in it that differs. */
export function explainChanges(c: WhyConfig, commit: string, changes: ChangeSet, current: readonly Scenario[], baseFiles: ReadonlyMap<string, BaseScenarioFile>): ChangeSet {
  if (!changes.scenarios.some((s) => s.status === 'changed')) return changes;
  const headByStem = new Map<string, ScenarioShape | undefined>();
  const headById = new Map<string, ScenarioShape | undefined>();
  for (const s of current) {
    let text: string | undefined;
    try {
      text = readFileSync(join(c.root, s.file), 'utf8');
    } catch {
      text = undefined; // gone since it was loaded: nothing to compare
    }
    const shape = text === undefined ? undefined : scenarioShape(s.file, text);
    headByStem.set(s.stem, shape);
    headById.set(s.id, shape);
  }
  const baseByStem = new Map<string, ScenarioShape | undefined>();
  const baseById = new Map<string, ScenarioShape>();
  for (const [stem, f] of baseFiles) {
    const shape = scenarioShape(f.file, f.text);
    baseByStem.set(stem, shape);
    if (shape?.id !== undefined) baseById.set(shape.id, shape);
  }
  const code = changedFiles(c.root, commit, SHARED_CODE).filter((f) => !/\.test\.[cm]?[jt]sx?$/.test(f));
  const inFold = new RegExp(`^(${FOLDS_DIR}|${KIT_DIR})/[^/]+/`);
  const sharedFiles = code.filter((f) => !inFold.test(f));
  const foldFiles = (fold: string): string[] | undefined => {
    const prefixes = [`${FOLDS_DIR}/${fold}/`, `${KIT_DIR}/${fold}/`];
    const files = code.filter((f) => prefixes.some((p) => f.startsWith(p)));
    return files.length || prefixes.some((p) => existsSync(join(c.root, p))) ? files : undefined;
  };
  const byId = new Map(current.map((s) => [s.id, s]));
  const byStem = new Map(current.map((s) => [s.stem, s]));

  return {
    ...changes,
    scenarios: changes.scenarios.map((sc) => {
      const s = byStem.get(sc.stem);
      if (sc.status !== 'changed' || !s) return sc;
      const chain: WhyInput['chain'] = [];
      const seen = new Set([s.id]);
      for (let id = s.base; id !== undefined && !seen.has(id); id = byId.get(id)?.base) {
        seen.add(id);
        chain.push({ id, before: baseById.get(id), after: headById.get(id) });
      }
      const input: WhyInput = {
        before: baseByStem.get(sc.stem),
        after: headByStem.get(sc.stem),
        defaultFold: c.defaultFold,
        chain,
        foldFiles: foldFiles(s.fold),
        sharedFiles,
      };
      const changed = sc.requests.flatMap((q) => (q.status === 'changed' && q.before && q.diff ? [{ offset: q.offset, change: promptChange(q.before, afterLines(q.diff)) }] : []));
      return {
        ...sc,
        why: withPrompt(causes(input), promptCause(changed, true)),
        requests: sc.requests.map((q) =>
          q.status === 'unchanged'
            ? q
            : {
                ...q,
                why: withPrompt(
                  causes(input, q.offset),
                  promptCause(
                    changed.filter((x) => x.offset === q.offset),
                    false,
                  ),
                ),
              },
        ),
      };
    }),
  };
}

/** The after side of a request's diff, as printed lines. */
const afterLines = (diff: { rows: { after?: { segments: { text: string }[] } }[] }): string[] =>
  diff.rows.flatMap((r) => (r.after ? [r.after.segments.map((x) => x.text).join('')] : []));

/** The causes with the prompt's own change added after what explains it (before `other-keys`). */
function withPrompt(list: Cause[], prompt: Cause | undefined): Cause[] {
  if (!prompt) return list;
  const i = list.findIndex((c) => c.kind === 'other-keys');
  return i < 0 ? [...list, prompt] : [...list.slice(0, i), prompt, ...list.slice(i)];
}

/** What comparing with a base needs of the project's config. */
export interface BaseConfig extends WhyConfig {
  fixturesDir: string;
}

/**
 * Reads the base ref (`read`: a ref or commit), compares the current render with its fixtures and
 * explains each change. `label` names the base to readers (default: `read`).
 */
export function changesAgainstBase(
  c: BaseConfig,
  read: string,
  current: readonly RenderedScenario[],
  label = read,
): { commit: string; changes: ChangeSet; fixtures: Map<string, BaseFixture> } {
  const { commit, fixtures, scenarios } = readBaseFixtures(c.root, read, c.fixturesDir, c.scenariosDir);
  const compared = compareWithBase(label, commit, current, fixtures);
  const changes = explainChanges(
    c,
    commit,
    compared,
    current.map((r) => r.scenario),
    scenarios,
  );
  return { commit, changes, fixtures };
}
