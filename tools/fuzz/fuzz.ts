/**
 * The fuzz harness: scenario texts that are mutated bundled scenarios (lines dropped, duplicated,
 * swapped, re-indented, truncated; numbers and time labels swapped for extremes; values swapped for
 * other YAML node kinds, aliases, tags) or generated from scratch (scenario-shaped mappings with
 * hostile values, arbitrary YAML documents, arbitrary text), one to three files per case under
 * names that can collide — and the property every case must keep: the corpus check either loads
 * the files or returns structured errors (file, 1-based line and column, message, fix); it never
 * throws. Used by the fixed-seed run in `npm test` (fuzz.test.ts) and the long run (`npm run fuzz`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { renderTexts } from '../../src/corpus/check.ts';
import type { CorpusConfig } from '../../src/scenarios/load.ts';

export interface FuzzFile {
  file: string;
  text: string;
}

/** The bundled scenarios (the seeds mutations start from). */
export function bundledScenarios(root: string): FuzzFile[] {
  const dir = join(root, 'scenarios');
  return readdirSync(dir)
    .filter((n) => /\.(ya?ml|md)$/.test(n))
    .sort()
    .map((n) => ({ file: `scenarios/${n}`, text: readFileSync(join(dir, n), 'utf8') }));
}

/** Numbers at and past every bound a scenario has. */
const EXTREME_NUMBERS = [
  '0',
  '-0',
  '-1',
  '1.5',
  '9007199254740991',
  '9007199254740992',
  '99999999999999999999',
  '1e300',
  '-1e300',
  '.inf',
  '-.inf',
  '.nan',
  '0x1F',
  '0o17',
  '1_000',
  '""',
  'null',
  '~',
];
/** Time labels at and past their bounds. */
const EXTREME_TIMES = [
  '0ms',
  '87600h',
  '87601h',
  '99999999999999999999h',
  `${'9'.repeat(400)}ms`,
  '1m–99999999999h',
  '19m–3m',
  '1e3s',
  '-1s',
  '0.000001ms',
  '1h 1h 1h',
  '–',
  '3m–',
  'NaNs',
];
/** Values of other node kinds and YAML features. */
const ODD_VALUES = [
  '[]',
  '{}',
  '[1, [2, [3]]]',
  '{a: {b: {c: d}}}',
  '*nope',
  '&a x',
  '!!binary aGVsbG8=',
  '!!str 1',
  '!custom x',
  '|',
  '>-\n  folded',
  '"\\u0000\\uD800"',
  "'<script>alert(1)</script>'",
  '? complex\n: key',
  '<<: {merged: 1}',
  '"@1"',
  '"@99999999999999999999"',
  '"@"',
  'x'.repeat(5000),
];

type Mutation = (lines: string[], pick: number, value: string) => string[];
const MUTATIONS: Mutation[] = [
  (l, i) => l.filter((_, k) => k !== i % l.length), // drop a line
  (l, i) => l.flatMap((x, k) => (k === i % l.length ? [x, x] : [x])), // duplicate a line
  (l, i) => {
    const a = i % l.length,
      b = (i * 7 + 3) % l.length;
    const c = [...l];
    [c[a], c[b]] = [c[b]!, c[a]!];
    return c;
  }, // swap two lines
  (l, i) => l.slice(0, i % (l.length + 1)), // truncate
  (l, i) => l.map((x, k) => (k === i % l.length ? `  ${x}` : x)), // indent one line
  (l, i) => l.map((x, k) => (k === i % l.length ? x.trimStart() : x)), // dedent one line
  (l, i, v) => l.map((x, k) => (k === i % l.length ? x.replace(/:\s.*$/, `: ${v}`) : x)), // replace one value
  (l, _i, v) => l.map((x) => x.replace(/\b(off|occurrence|maxInputTokens):\s*\S+/, `$1: ${v}`)), // every number of a kind
  (l, i, v) => l.map((x, k) => (k === i % l.length ? x.replace(/\bt:\s*.*$/, `t: ${v}`) : x)), // a time label
  (l, i, v) => {
    const c = [...l];
    c.splice(i % (l.length + 1), 0, v);
    return c;
  }, // insert a raw line
  (l, i) => l.map((x, k) => (k === i % l.length ? x.replace(/"/g, '') : x)), // unbalance quotes
  (l) =>
    l
      .map((x) => x.replace(/\n/g, '\r\n'))
      .join('\r\n')
      .split('\n'), // CRLF
];

const mutated = (seeds: readonly FuzzFile[]): fc.Arbitrary<FuzzFile> =>
  fc
    .record({
      seed: fc.constantFrom(...seeds),
      steps: fc.array(
        fc.tuple(fc.nat(MUTATIONS.length - 1), fc.nat(), fc.oneof(fc.constantFrom(...EXTREME_NUMBERS, ...EXTREME_TIMES, ...ODD_VALUES), fc.string({ maxLength: 40 }))),
        { minLength: 1, maxLength: 4 },
      ),
    })
    .map(({ seed, steps }) => {
      let lines = seed.text.split('\n');
      for (const [m, pick, value] of steps) lines = lines.length ? MUTATIONS[m]!(lines, pick, value) : [value];
      return { file: seed.file, text: lines.join('\n') };
    });

/** Scenario-shaped documents: the format's keys, hostile values. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1.5,
    2 ** 53,
    1e300,
    Number.MAX_VALUE,
    -0,
    null,
    true,
    '',
    '@1',
    '@99999999999999999999',
    '99999999999999999999h',
    '0ms',
    'agents/context-added',
    'agent/llm-request-requested',
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 30 }),
);
const event = fc.record(
  {
    off: value,
    t: value,
    type: fc.oneof(value, fc.constantFrom('agents/context-added', 'agent/llm-request-requested', 'agent/created', 'agents/context-deleted')),
    payload: fc.oneof(value, fc.dictionary(fc.constantFrom('role', 'content', 'key', 'model', 'sections', 'target', 'supersedes'), value)),
  },
  { requiredKeys: [] },
);
const shaped: fc.Arbitrary<FuzzFile> = fc
  .record(
    {
      id: value,
      title: value,
      fold: fc.oneof(value, fc.constantFrom('context-protocol', 'layered')),
      base: value,
      intro: value,
      events: fc.oneof(value, fc.array(event, { maxLength: 6 })),
      annotations: fc.oneof(value, fc.array(fc.record({ request: value, find: value, comment: value, occurrence: value }, { requiredKeys: [] }), { maxLength: 3 })),
      expect: fc.oneof(value, fc.record({ busts: fc.oneof(value, fc.array(value, { maxLength: 3 })), maxInputTokens: value }, { requiredKeys: [] })),
    },
    { requiredKeys: [] },
  )
  .map((doc) => ({ file: 'scenarios/shaped.yaml', text: stringify(doc) }));

const anyYaml: fc.Arbitrary<FuzzFile> = fc.anything({ maxDepth: 3 }).map((doc) => {
  let text: string;
  try {
    text = stringify(doc) ?? String(doc); // undefined stringifies to undefined
  } catch {
    text = String(doc); // values YAML cannot write (e.g. symbols): their string is input enough
  }
  return { file: 'scenarios/any.yaml', text };
});
const anyText: fc.Arbitrary<FuzzFile> = fc.string({ unit: 'binary', maxLength: 300 }).map((text) => ({ file: 'scenarios/text.yaml', text }));

/** Names that collide (same stem, other syntax or case) so output collisions are exercised too. */
const NAMES = ['scenarios/a.yaml', 'scenarios/a.md', 'scenarios/A.yml', 'scenarios/b.yaml'];

/** One fuzz case: 1–3 files. */
export function fuzzCase(seeds: readonly FuzzFile[]): fc.Arbitrary<FuzzFile[]> {
  const one = fc.oneof({ weight: 5, arbitrary: mutated(seeds) }, { weight: 2, arbitrary: shaped }, { weight: 1, arbitrary: anyYaml }, { weight: 1, arbitrary: anyText });
  return fc
    .array(fc.tuple(one, fc.boolean(), fc.nat(NAMES.length - 1)), { minLength: 1, maxLength: 3 })
    .map((files) => files.map(([f, rename, n]) => (rename ? { ...f, file: NAMES[n]! } : f)));
}

export interface Outcome {
  loaded: number;
  errors: number;
  ms: number;
}

/**
 * Runs the corpus check on one case and checks the property; throws (for fast-check to shrink and
 * report) when an exception escaped or an error is not structured.
 */
export async function checkCase(files: FuzzFile[], config: Omit<CorpusConfig, 'root' | 'scenariosDir'>): Promise<Outcome> {
  const start = performance.now();
  const r = await renderTexts(files, config, { everyEvent: true });
  for (const e of r.errors) {
    const ok =
      typeof e.pos?.file === 'string' &&
      e.pos.file.length > 0 &&
      Number.isInteger(e.pos.line) &&
      e.pos.line >= 1 &&
      Number.isInteger(e.pos.col) &&
      e.pos.col >= 1 &&
      typeof e.message === 'string' &&
      e.message.length > 0 &&
      typeof e.fix === 'string' &&
      e.fix.length > 0;
    if (!ok) throw new Error(`unstructured error: ${JSON.stringify(e)}`);
  }
  return { loaded: r.scenarios.length, errors: r.errors.length, ms: performance.now() - start };
}
