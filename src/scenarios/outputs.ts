/**
 * Two inputs must never write one output. Every loaded scenario becomes a fixture file
 * (fixtures/<stem>.md — `a.yaml` and `a.md` would both write fixtures/a.md, one silently lost),
 * a page route and its search record (/scenarios/<id>/), and one `@<offset>` anchor per event of
 * its chain. This pure check maps each scenario to those outputs and returns an error for every
 * output claimed twice, naming both source files — run by the corpus check (corpus/check.ts renderCorpus) that
 * `npm run fixtures`, `npm run check` and the site build all start with, so nothing is written.
 * Names are compared case-folded: on macOS and Windows `A.md` and `a.md` are one file.
 */
import type { InputError, SourcePos } from './errors.ts';
import type { Scenario } from './model.ts';

const where = (p: SourcePos): string => `${p.file}:${p.line}:${p.col}`;

/**
 * Errors for outputs two scenarios (or two events of one page) would both produce. `fixtureName`
 * is fixture-format/format.ts's (the default is the same rule; outputs.test.ts holds them equal — the
 * scenarios layer cannot import the fixtures layer).
 */
export function outputCollisions(scenarios: readonly Scenario[], fixtureName: (stem: string) => string = (stem) => `${stem}.md`): InputError[] {
  const errors: InputError[] = [];
  const fixtures = new Map<string, Scenario>();
  const routes = new Map<string, Scenario>();
  for (const s of scenarios) {
    const fixture = fixtureName(s.stem);
    const f = fixtures.get(fixture.toLowerCase());
    if (f) {
      errors.push({
        pos: s.pos,
        message: `${s.file} and ${f.file} would both write the fixture ${fixture}${fixtureName(f.stem) !== fixture ? ` (as ${fixtureName(f.stem)}; one file on case-insensitive file systems)` : ''}`,
        fix: `rename one of the two files (the fixture is named after the file name without its extension)`,
      });
    } else fixtures.set(fixture.toLowerCase(), s);
    const route = `/scenarios/${s.id}/`;
    const r = routes.get(route.toLowerCase());
    if (r) {
      errors.push({
        pos: s.pos,
        message: `${s.file} and ${r.file} would both be the page ${route} (and its search record)`,
        fix: 'give each scenario its own `id:`',
      });
    } else routes.set(route.toLowerCase(), s);
    const anchors = new Map<string, SourcePos>();
    for (const e of s.chain) {
      const anchor = `@${e.offset}`;
      const first = anchors.get(anchor);
      if (first) {
        errors.push({
          pos: e.offPos,
          message: `the page of \`${s.id}\` would have two events with the anchor #${anchor}: this one and ${where(first)}`,
          fix: 'give every event of a scenario and its base chain its own offset',
        });
      } else anchors.set(anchor, e.offPos);
    }
  }
  return errors;
}
