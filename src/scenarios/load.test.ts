/**
 * Validation never lets bad input through silently: every broken scenario is an error naming
 * file:line:column, what is wrong and the fix — and a broken scenario is never rendered. Scenarios
 * are fed as in-memory texts through the same path the fixture test, the check command and the site
 * build run (renderTexts = load → fold → print → weave).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_REFERENCE, NEEDS_REFERENCE, REFERENCE_DIR as REFERENCE } from '../../tests/support/shared.ts';
import { resolveOptions } from '../integration/options.ts';
import { assertClean, renderTexts, type RenderedCorpus } from '../corpus/check.ts';
import { UserError } from '../errors.ts';
import { CorpusError, formatError, type InputError } from './errors.ts';
import { expandEvents } from './expand.ts';
import { loadTexts } from './load.ts';
import { parseYamlScenario } from './parse.ts';
import type { Scenario, ScenarioEvent } from './model.ts';

const config = await resolveOptions(process.cwd());
const reference = (name: string): string => readFileSync(resolve(REFERENCE, name), 'utf8');

/**
 * Dedents a template literal (drops the first newline), so line 1 is the literal's first line.
 * Interpolated values are inserted verbatim after dedenting (their own lines keep their indentation).
 */
function y(strings: TemplateStringsArray, ...values: unknown[]): string {
  const mark = (i: number): string => `\u0000${i}\u0000`;
  const text = strings
    .reduce((acc, s, i) => acc + s + (i < values.length ? mark(i) : ''), '')
    .replace(/^\n/, '')
    .replace(/\n[ ]*$/, '');
  const lines = text.split('\n');
  const indentOf = (l: string): number => l.length - l.trimStart().length;
  const indent = Math.min(...lines.filter((l) => l.trim() && !l.trimStart().startsWith('\u0000')).map(indentOf));
  const dedented = lines.map((l) => l.slice(Math.min(indent, indentOf(l)))).join('\n');
  return `${values.reduce<string>((acc, v, i) => acc.replace(mark(i), String(v)), dedented)}\n`;
}

const run = async (...files: [file: string, text: string][]): Promise<RenderedCorpus> =>
  await renderTexts(
    files.map(([file, text]) => ({ file, text })),
    config,
    { everyEvent: false },
  );

/** The one error of a run (fails listing all of them when there are more or none). */
function onlyError(r: RenderedCorpus): InputError {
  expect(r.errors.map(formatError)).toEqual([expect.any(String)]);
  return r.errors[0]!;
}

/** The valid scenario's text with its offsets moved up by `by`. */
const shifted = (text: string, by: number): string => text.replace(/off: (\d+)/g, (_, n: string) => `off: ${Number(n) + by}`);
const withBase = (text: string, base: string): string => text.replace('title: One\n', `title: One\nbase: ${base}\n`);

const at = (file: string, line: number, col: number) => ({ file, line, col });
const ids = (r: RenderedCorpus): string[] => r.scenarios.map((s) => s.scenario.id);

/**
 * A valid scenario: a user turn that triggers, then the request it triggers.
 *   line 1 id, 3 events:, 4-7 the user turn @1, 8-11 the request @2
 */
const valid = (id = 'one') => y`
  id: ${id}
  title: One
  events:
    - off: 1
      t: 0ms
      type: agents/context-added
      payload: {role: user, content: hello}
    - off: 2
      t: 1s
      type: agent/llm-request-requested
      payload: {model: m}
`;

describe('a valid scenario renders, with no errors or warnings', () => {
  it('renders its request', async () => {
    const r = await run(['scenarios/one.yaml', valid()]);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(ids(r)).toEqual(['one']);
    expect(r.scenarios[0]!.requests.map((q) => q.offset)).toEqual([2]);
  });

  it.skipIf(!HAS_REFERENCE)(`the reference scenarios load clean${NEEDS_REFERENCE}`, async () => {
    const files = ['1-birth.md', '2-agentsmd.md', '4-legacy.md'].map((f) => ({ file: `reference/${f}`, text: reference(f) }));
    const r = assertClean(await renderTexts(files, config, { everyEvent: false }));
    expect(ids(r)).toEqual(['birth', 'agentsmd', 'legacy']);
  });
});

describe('YAML syntax', () => {
  it('malformed YAML: bad indentation', async () => {
    const r = await run([
      'scenarios/bad.yaml',
      y`
      id: bad
      title: Bad
      events:
        - off: 1
         t: 0ms
    `,
    ]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/bad.yaml:5:4 error: malformed YAML: this line is not indented like the lines of its list entry\n' +
        '  fix: indent `t:` by 4 spaces, like the line above (or start a new list entry with `- `)',
    );
    expect(r.scenarios).toEqual([]);
  });

  it('malformed YAML: an unclosed string points where it opens, not at the end of the file', async () => {
    const r = await run([
      'scenarios/bad.yaml',
      y`
      id: bad
      title: "Bad
      events: []
    `,
    ]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/bad.yaml:2:8 error: malformed YAML: the "-quoted string that starts here is never closed (it swallows the text up to line 4)\n' +
        '  fix: add the closing " at the end of this value (or write long text as a block scalar: `>-` and the text indented on the next lines)',
    );
  });

  it('malformed YAML: a repeated key is named', async () => {
    const e = onlyError(
      await run([
        'scenarios/bad.yaml',
        y`
      id: bad
      title: Bad
      id: again
      events: []
    `,
      ]),
    );
    expect(e.pos).toEqual(at('scenarios/bad.yaml', 3, 1));
    expect(e.message).toBe('malformed YAML: duplicate key `id` in this mapping');
    expect(e.fix).toBe('remove or rename the repeated key (a mapping holds each key once)');
  });

  it('an unresolved !tag is an error, not a silently stringified value', async () => {
    const r = await run(['scenarios/bad.yaml', valid().replace('t: 1s', 't: !dur 1s')]);
    const e = onlyError(r);
    expect(e.pos).toEqual(at('scenarios/bad.yaml', 9, 8));
    expect(e.message).toBe('malformed YAML: Unresolved tag: !dur');
    expect(e.fix).toMatch(/remove the `!tag`/);
    expect(r.scenarios).toEqual([]);
  });

  it('a second YAML document', async () => {
    const r = await run(['scenarios/one.yaml', `${valid()}---\nid: two\n`]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:12:1 error: malformed YAML: a second YAML document starts here (`---`)\n' +
        '  fix: a scenario is one YAML document: remove the `---` line, or move the second document to a file of its own',
    );
  });

  it('a YAML alias is an error, not a misleading "must be a mapping"', async () => {
    const r = await run(['scenarios/one.yaml', `${valid().replace('  - off: 1', '  - &user\n    off: 1')}  - *user\n`]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:13:5 error: YAML alias `*user` is not supported in scenario files\n' +
        '  fix: write the value out here instead of referring to the `&user` anchor (each event reads as it is written)',
    );
  });

  it('a file that is not a mapping', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', '- id: one\n']));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 1, 1));
    expect(e.message).toBe('a scenario file must be a YAML mapping');
  });
});

describe('top-level fields', () => {
  it('unknown top-level key', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('title: One\n', 'title: One\ntitel: typo\n')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:3:1 error: unknown field `titel` in the scenario — did you mean `title`?\n' +
        '  fix: remove it or fix its spelling; allowed here: id, fold, options, base, events, compare, expect, deploy, sharesCache, startedAt, opens, title, intro, annotations',
    );
    expect(r.scenarios).toEqual([]);
  });

  it('missing id', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('id: one\n', '')]);
    expect(formatError(onlyError(r))).toBe('scenarios/one.yaml:1:1 error: missing required field `id` in the scenario\n  fix: add `id: my-scenario`');
    expect(r.scenarios).toEqual([]);
  });

  it('a missing id does not hide the rest of the file’s errors', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('id: one\n', '').replace('{role: user, content: hello}', '{rol: user, content: hello}')]);
    expect(r.errors.map((e) => [e.pos.line, e.pos.col, e.message])).toEqual([
      [1, 1, 'missing required field `id` in the scenario'],
      [6, 14, '@1 agents/context-added: missing required field `role`'],
      [6, 15, '@1 agents/context-added: unknown field `rol` — did you mean `role`?'],
    ]);
  });

  it('duplicate id across two files: reported at the second, which is not rendered', async () => {
    const r = await run(['scenarios/a.yaml', valid('same')], ['scenarios/b.yaml', valid('same')]);
    expect(formatError(onlyError(r))).toBe('scenarios/b.yaml:1:5 error: duplicate id `same` — scenarios/a.yaml:1:5 uses it already\n  fix: give each scenario its own id');
    expect(r.scenarios.map((s) => s.scenario.file)).toEqual(['scenarios/a.yaml']);
  });

  it('the second scenario of a duplicate id is still checked', async () => {
    const r = await run(['scenarios/a.yaml', valid('same')], ['scenarios/b.yaml', valid('same').replace('model: m', 'model: 7')]);
    expect(r.errors.map((e) => `${e.pos.file}:${e.pos.line}:${e.pos.col} ${e.message}`)).toEqual([
      'scenarios/b.yaml:1:5 duplicate id `same` — scenarios/a.yaml:1:5 uses it already',
      'scenarios/b.yaml:11:15 @2 agent/llm-request-requested: `model` must be a string, got number 7',
    ]);
  });

  it('invalid id', async () => {
    const r = await run(['scenarios/one.yaml', valid('Birth Window')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:1:5 error: invalid id "Birth Window"\n' +
        '  fix: write `id: birth-window` (ids use lowercase letters, digits, `-` and `_`, starting with a letter or digit)',
    );
    expect(r.scenarios).toEqual([]);
  });

  it('empty `events`', async () => {
    const r = await run(['scenarios/one.yaml', 'id: one\ntitle: One\nevents: []\n']);
    expect(formatError(onlyError(r))).toBe('scenarios/one.yaml:3:9 error: `events` must not be empty\n  fix: list at least one item');
    expect(r.scenarios).toEqual([]);
  });

  it('missing `events`', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', 'id: one\ntitle: One\n']));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 1, 1));
    expect(e.message).toBe('missing required field `events` in the scenario');
  });

  it('a fold option error points at the option', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('title: One\n', 'title: One\noptions:\n  metadataLines: sometimes\n')]);
    const e = onlyError(r);
    expect(e.pos).toEqual(at('scenarios/one.yaml', 4, 3));
    expect(e.message).toBe('fold option `metadataLines` is the string "sometimes", which is not allowed');
    expect(e.fix).toBe('use one of: "synthesized-only", "every-item"');
    expect(r.scenarios).toEqual([]);
  });

  it('a `compare` option error points at the option', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', valid().replace('title: One\n', 'title: One\ncompare:\n  label: before\n  options: {metadataLines: nope}\n')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 5, 13));
    expect(e.message).toBe('compare option `metadataLines` is the string "nope", which is not allowed');
  });

  it('unknown fold', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', valid().replace('title: One\n', 'title: One\nfold: context-protocl\n')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 3, 7));
    expect(e.message).toBe('unknown fold `context-protocl` — did you mean `context-protocol`?');
    expect(e.fix).toMatch(/^use one of: context-protocol/);
  });
});

describe('base chains', () => {
  it('unknown base', async () => {
    const r = await run(['scenarios/a.yaml', valid('a')], ['scenarios/b.yaml', valid('b').replace('title: One\n', 'title: One\nbase: aa\n')]);
    expect(formatError(onlyError(r))).toBe('scenarios/b.yaml:3:7 error: unknown base `aa` — did you mean `a`?\n  fix: use the id of another scenario (a) or remove `base:`');
    expect(ids(r)).toEqual(['a']);
  });

  it('cyclic base a → b → a: both are errors, neither is rendered', async () => {
    const r = await run(['scenarios/a.yaml', valid('a').replace('title: One\n', 'title: One\nbase: b\n')], ['scenarios/b.yaml', withBase(shifted(valid('b'), 10), 'a')]);
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/a.yaml:3:7 error: cyclic base: a → b → a\n  fix: break the cycle: one scenario in it must have no `base:` (or a base outside it)',
      'scenarios/b.yaml:3:7 error: cyclic base: b → a → b\n  fix: break the cycle: one scenario in it must have no `base:` (or a base outside it)',
    ]);
    expect(r.scenarios).toEqual([]);
  });

  it('a base that is itself', async () => {
    const e = onlyError(await run(['scenarios/a.yaml', valid('a').replace('title: One\n', 'title: One\nbase: a\n')]));
    expect(e.pos).toEqual(at('scenarios/a.yaml', 3, 7));
    expect(e.message).toBe('cyclic base: a → a');
  });

  it('a scenario whose base runs into a cycle terminates, and is not rendered', async () => {
    const r = await run(
      ['scenarios/a.yaml', valid('a').replace('title: One\n', 'title: One\nbase: b\n')],
      ['scenarios/b.yaml', valid('b').replace('title: One\n', 'title: One\nbase: a\n')],
      ['scenarios/c.yaml', withBase(shifted(valid('c'), 20), 'a')],
    );
    expect(r.errors.map((e) => `${e.pos.file} ${e.message}`)).toEqual(['scenarios/a.yaml cyclic base: a → b → a', 'scenarios/b.yaml cyclic base: b → a → b']);
    expect(r.scenarios).toEqual([]);
  });

  it('a scenario whose base is broken is not rendered (the base’s error is the report)', async () => {
    const base = valid('a').replace('t: 1s', 't: 1 s');
    const child = y`
      id: b
      title: B
      base: a
      events:
        - off: 3
          t: 2s
          type: agents/context-added
          payload: {role: user, content: again}
    `;
    const r = await run(['scenarios/a.yaml', base], ['scenarios/b.yaml', child]);
    expect(r.errors.map((e) => `${e.pos.file}:${e.pos.line}:${e.pos.col} ${e.message}`)).toEqual(['scenarios/a.yaml:9:8 unparseable time label "1 s": it is not an elapsed time']);
    expect(r.scenarios).toEqual([]);
    // The same child renders once its base is fixed.
    expect(ids(await run(['scenarios/a.yaml', valid('a')], ['scenarios/b.yaml', child]))).toEqual(['a', 'b']);
  });

  it('a broken base does not hide the child’s own errors', async () => {
    const child = y`
      id: b
      title: B
      base: nope
      events:
        - off: 3
          t: 2s
          type: agents/context-added
          payload: {role: usr, content: again}
    `;
    const r = await run(['scenarios/b.yaml', child]);
    expect(r.errors.map((e) => `${e.pos.line}:${e.pos.col} ${e.message}`)).toEqual([
      '3:7 unknown base `nope`',
      '8:15 @3 agents/context-added: `role` is the string "usr", which is not allowed — did you mean `user`?',
    ]);
  });
});

describe('offsets strictly increase', () => {
  it('within a file', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('off: 2', 'off: 1')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:8:10 error: offset @1 is not after @1, the previous event\n' +
        '  fix: give this event an offset greater than 1 — offsets strictly increase (a batch takes one offset per item)',
    );
    expect(r.scenarios).toEqual([]);
  });

  it('after `sections` batch expansion (a batch at @5 with 3 sections takes @5–@7)', async () => {
    const r = await run([
      'scenarios/one.yaml',
      y`
      id: one
      title: One
      events:
        - off: 5
          t: 0ms
          type: agents/context-added
          payload:
            role: system
            sections:
              - {key: a, content: A}
              - {key: b, content: B}
              - {key: c, content: C}
        - off: 7
          t: 0ms
          type: agent/created
          payload: {}
    `,
    ]);
    expect(formatError(onlyError(r))).toBe(
      "scenarios/one.yaml:13:10 error: offset @7 is not after @7, the last offset of the previous event's batch (@5–@7)\n" +
        '  fix: give this event an offset greater than 7 — offsets strictly increase (a batch takes one offset per item)',
    );
  });

  it('across the base chain', async () => {
    const child = y`
      id: b
      title: B
      base: a
      events:
        - off: 2
          t: 2s
          type: agents/context-added
          payload: {role: user, content: again}
    `;
    const r = await run(['scenarios/a.yaml', valid('a')], ['scenarios/b.yaml', child]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/b.yaml:5:10 error: offset @2 is not after @2, the last event of base `a`\n' +
        "  fix: start this scenario's offsets above 2 — offsets strictly increase across the base chain",
    );
    expect(ids(r)).toEqual(['a']);
  });

  it('across the base chain, when the base ends in a batch', async () => {
    const base = y`
      id: a
      title: A
      events:
        - off: 10
          t: 0ms
          type: agents/context-added
          payload:
            role: system
            sections: [{key: x, content: X}, {key: y, content: Y}]
    `;
    const child = withBase(shifted(valid('b'), 10), 'a');
    const e = onlyError(await run(['scenarios/a.yaml', base], ['scenarios/b.yaml', child]));
    expect(e.pos).toEqual(at('scenarios/b.yaml', 5, 10));
    expect(e.message).toBe('offset @11 is not after @11, the last offset of base `a` (its final batch takes @10–@11)');
  });

  it('time never runs backwards (within a file and across the chain)', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('t: 0ms', 't: 2s')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:9:8 error: time "1s" is before "2s" of @1 (the previous event) — createdAt would run backwards\n' +
        '  fix: give this event a time of 2s or later: events are appended in time order',
    );
    const child = withBase(shifted(valid('b'), 10), 'a').replace('t: 1s', 't: 3s');
    const e = onlyError(await run(['scenarios/a.yaml', valid('a')], ['scenarios/b.yaml', child]));
    expect(e.pos).toEqual(at('scenarios/b.yaml', 6, 8));
    expect(e.message).toBe('time "0ms" is before "1s" of @2 (the last event of base `a`) — createdAt would run backwards');
  });
});

describe('events', () => {
  it('unknown event type', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('type: agent/llm-request-requested', 'type: agent/llm-request-requestd')]);
    const e = onlyError(r);
    expect(e.pos).toEqual(at('scenarios/one.yaml', 10, 11));
    expect(e.message).toBe('unknown event type `agent/llm-request-requestd` at @2 for fold `context-protocol` — did you mean `agent/llm-request-requested`?');
    expect(e.fix).toBe(
      'use one of: agent/created, agent/configured, agents/context-added, agents/context-rewritten, agent/llm-request-requested, agent/llm-request-settled, ' +
        'capability-host/script-run-requested, capability-host/script-run-settled, agent/paused, agent/resumed, agent/token-usage-reported, agent/summary-updated',
    );
    expect(r.scenarios).toEqual([]);
  });

  it('unparseable time label', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('t: 1s', 't: 1 min')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:9:8 error: unparseable time label "1 min": it is not an elapsed time\n' +
        '  fix: write an elapsed time like `0ms`, `250ms`, `4.2s`, `9m 18s`, `1h 2m`, or a range `3m–19m` (its end counts)',
    );
    // The dropped event does not cascade into a second, misleading error about the request.
    expect(r.scenarios).toEqual([]);
  });

  it('a time range that ends before it starts', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', valid().replace('t: 1s', 't: 19m–3m')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 9, 8));
    expect(e.message).toBe('unparseable time label "19m–3m": the range ends (3m) before it starts (19m)');
  });

  it('a non-numeric offset', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', valid().replace('off: 2', 'off: two')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 8, 10));
    expect(e.message).toBe('`off` must be a whole number, got the string "two"');
  });

  it('an unknown key in an event', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', valid().replace('t: 1s', 't: 1s\n    notes: x')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 10, 5));
    expect(e.message).toBe('unknown field `notes` in an event — did you mean `note`?');
    expect(e.fix).toBe('remove it or fix its spelling; allowed here: off, t, type, payload, note');
  });

  it('a payload that is not a mapping: one error, no cascade of missing fields', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('payload: {model: m}', 'payload: m')]);
    expect(formatError(onlyError(r))).toBe('scenarios/one.yaml:11:14 error: `payload` must be a mapping, got the string "m"\n  fix: make `payload` a mapping');
    expect(r.scenarios).toEqual([]);
  });

  it('`sections` on an event type that does not batch', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('payload: {model: m}', 'payload: {model: m, sections: [{key: a, content: b}]}')]);
    const e = onlyError(r);
    expect(e.pos).toEqual(at('scenarios/one.yaml', 11, 25));
    expect(e.message).toBe('@2 agent/llm-request-requested: unknown field `sections`');
    expect(r.scenarios).toEqual([]);
  });
});

describe('payload schema violations point at the offending YAML node', () => {
  /** The user turn @1 with this block payload (starting on line 8). */
  const withPayload = (payload: string) => y`
    id: one
    title: One
    events:
      - off: 1
        t: 0ms
        type: agents/context-added
        payload:
    ${payload}
      - off: 2
        t: 1s
        type: agent/llm-request-requested
        payload: {model: m}
  `;

  it('unknown field', async () => {
    const r = await run(['scenarios/one.yaml', withPayload('      role: user\n      content: hello\n      kye: k')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:10:7 error: @1 agents/context-added: unknown field `kye`\n' +
        '  fix: remove it or fix its spelling; allowed here: role, content, key, actor, refs, files, llmRequestPolicy, llmRequestOffset, compaction',
    );
    expect(r.scenarios).toEqual([]);
  });

  it('wrong type', async () => {
    const r = await run(['scenarios/one.yaml', withPayload('      role: user\n      content: [hello]')]);
    expect(formatError(onlyError(r))).toBe('scenarios/one.yaml:9:7 error: @1 agents/context-added: `content` must be a string, got a list\n  fix: make `content` a string');
  });

  it('missing `role` (points at the payload mapping)', async () => {
    const r = await run(['scenarios/one.yaml', withPayload('      content: hello')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:8:7 error: @1 agents/context-added: missing required field `role`\n' + '  fix: add `role:` with one of "system", "developer", "user", "assistant"',
    );
  });

  it('bad actor type', async () => {
    const r = await run(['scenarios/one.yaml', withPayload('      role: user\n      content: hello\n      actor:\n        type: robot')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:11:9 error: @1 agents/context-added: `actor.type` is the string "robot", which is not a known kind\n' +
        '  fix: use one of: "user", "agent", "script", "integration", "slack", "telegram", "email", "github"',
    );
  });

  it('bad actor fields (missing, unknown)', async () => {
    const r = await run(['scenarios/one.yaml', withPayload('      role: user\n      content: hello\n      actor: {type: user, origin: web, name: x}')]);
    const e = onlyError(r);
    expect(e.pos).toEqual(at('scenarios/one.yaml', 10, 40));
    expect(e.message).toBe('@1 agents/context-added: unknown field `actor.name`');
    expect(e.fix).toBe('remove it or fix its spelling; allowed here: type, origin, userId');
  });

  it('bad ref shape: missing field in one ref, wrong type in another', async () => {
    const r = await run([
      'scenarios/one.yaml',
      withPayload('      role: user\n      content: hello\n      refs:\n        - {type: event, streamPath: /s}\n        - type: file\n          path: 3'),
    ]);
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/one.yaml:11:11 error: @1 agents/context-added: missing required field `refs.0.offset`\n  fix: add `offset:` with a whole number',
      'scenarios/one.yaml:13:11 error: @1 agents/context-added: `refs.1.path` must be a string, got number 3\n  fix: make `refs.1.path` a string',
    ]);
  });

  it('a ref of an unknown kind', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', withPayload('      role: user\n      content: hello\n      refs: [{type: url, href: x}]')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 10, 15));
    expect(e.message).toBe('@1 agents/context-added: `refs.0.type` is the string "url", which is not a known kind');
  });

  describe('inside a `sections` entry', () => {
    /** A system batch at @1–@2 with these section entries (from line 10) and shared fields. */
    const batch = (sections: string, shared = '') => y`
      id: one
      title: One
      events:
        - off: 1
          t: 0ms
          type: agents/context-added
          payload:
            role: system${shared}
            sections:
      ${sections}
    `;

    it('a per-section field of the wrong type points into that entry', async () => {
      const r = await run(['scenarios/one.yaml', batch('        - key: a\n          content: A\n        - key: b\n          content: 5')]);
      expect(formatError(onlyError(r))).toBe(
        'scenarios/one.yaml:13:11 error: @1 agents/context-added: `sections.1.content` must be a string, got number 5\n  fix: make `sections.1.content` a string',
      );
      expect(r.scenarios).toEqual([]);
    });

    it('an unknown field in an entry points at it', async () => {
      const e = onlyError(await run(['scenarios/one.yaml', batch('        - key: a\n          content: A\n          actor: {type: agent, path: /x}')]));
      expect(e.pos).toEqual(at('scenarios/one.yaml', 12, 11));
      expect(e.message).toBe('@1 agents/context-added: unknown field `sections.0.actor`');
      expect(e.fix).toBe('remove it or fix its spelling; allowed here: key, content');
    });

    it('a missing field of an entry points at the entry', async () => {
      const e = onlyError(await run(['scenarios/one.yaml', batch('        - key: a\n          content: A\n        - key: b')]));
      expect(e.pos).toEqual(at('scenarios/one.yaml', 12, 11));
      expect(e.message).toBe('@1 agents/context-added: missing required field `sections.1.content`');
    });

    it('an empty key (a fold rule) points at that entry’s key', async () => {
      const e = onlyError(await run(['scenarios/one.yaml', batch('        - key: a\n          content: A\n        - key: ""\n          content: B')]));
      expect(e.pos).toEqual(at('scenarios/one.yaml', 12, 11));
      expect(e.message).toMatch(/^@2 agents\/context-added: `key`/);
    });

    it('a bad shared field is reported once for the whole batch, at the shared node', async () => {
      const r = await run([
        'scenarios/one.yaml',
        batch('        - {key: a, content: A}\n        - {key: b, content: B}\n        - {key: c, content: C}', '\n      actor: {type: agent}'),
      ]);
      expect(formatError(onlyError(r))).toBe(
        'scenarios/one.yaml:9:14 error: @1–@3 (batch) agents/context-added: missing required field `actor.path`\n  fix: add `path:` with a string',
      );
    });

    it('`sections` must be a non-empty list', async () => {
      const e = onlyError(
        await run([
          'scenarios/one.yaml',
          y`
        id: one
        title: One
        events:
          - off: 1
            t: 0ms
            type: agents/context-added
            payload: {role: system, sections: []}
      `,
        ]),
      );
      expect(e.pos).toEqual(at('scenarios/one.yaml', 7, 29));
      expect(e.message).toBe('@1 agents/context-added: `sections` must not be empty');
    });

    it('a batch payload cannot also carry `key`', async () => {
      const e = onlyError(await run(['scenarios/one.yaml', batch('        - {key: a, content: A}', '\n      key: k')]));
      expect(e.pos).toEqual(at('scenarios/one.yaml', 9, 7));
      expect(e.message).toBe('@1 agents/context-added: a `sections` batch cannot also have `key`');
    });
  });
});

describe('annotations', () => {
  const annotated = (annotation: string) => `${valid()}annotations:\n${annotation}`;

  it('naming a request that is not the scenario’s own: lists the valid ones', async () => {
    const child = y`
      id: b
      title: B
      base: a
      events:
        - off: 3
          t: 2s
          type: agents/context-added
          payload: {role: user, content: again}
        - off: 4
          t: 3s
          type: agent/llm-request-settled
          payload: {requestOffset: 2, result: {status: succeeded}}
        - off: 5
          t: 4s
          type: agent/llm-request-requested
          payload: {model: m}
      annotations:
        - request: "@2"
          find: hello
          comment: the base's request
    `;
    const r = await run(['scenarios/a.yaml', valid('a')], ['scenarios/b.yaml', child]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/b.yaml:18:14 error: annotation names request @2, which belongs to base scenario `a`, not to this one\n' +
        '  fix: annotate it in `a` (this scenario\'s base), or use one of: "@5"',
    );
    expect(ids(r)).toEqual(['a']);
  });

  it('naming an offset that is not a request at all', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', annotated('  - request: "@1"\n    find: hello\n    comment: c\n')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 13, 14));
    expect(e.fix).toBe('use one of: "@2"');
  });

  it('a malformed request reference', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', annotated('  - request: "2"\n    find: hello\n    comment: c\n')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 13, 14));
    expect(e.message).toBe('`request` must name a request as "@<offset>", got "2"');
  });

  it('stale `find`: names the request, the find string and the closest rendered lines', async () => {
    const r = await run(['scenarios/one.yaml', annotated('  - request: "@2"\n    find: "helo wrld"\n    comment: c\n')]);
    expect(formatError(onlyError(r))).toBe(
      [
        'scenarios/one.yaml:14:11 error: stale anchor: find "helo wrld" matches no line of request @2',
        '  closest rendered lines:',
        '    | content: "hello"',
        '    | - role: developer',
        '    | model: m',
        '  fix: change `find:` to text the rendered request contains (see the closest lines), or remove the annotation if what it explained is gone',
      ].join('\n'),
    );
  });

  it('`occurrence` beyond the number of matches', async () => {
    const r = await run(['scenarios/one.yaml', annotated('  - request: "@2"\n    find: "role: "\n    comment: c\n    occurrence: 9\n')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:14:11 error: find "role: " matches 4 lines of request @2, but occurrence is 9\n' + '  fix: use an occurrence from 1 to 4, or remove `occurrence:`',
    );
  });

  it('`occurrence: 0`', async () => {
    const e = onlyError(await run(['scenarios/one.yaml', annotated('  - request: "@2"\n    find: hello\n    comment: c\n    occurrence: 0\n')]));
    expect(e.pos).toEqual(at('scenarios/one.yaml', 16, 17));
    expect(e.message).toBe('`occurrence` must be ≥ 1, got number 0');
  });

  it('an ambiguous anchor is a warning, not an error; `occurrence` settles it', async () => {
    const r = await run(['scenarios/one.yaml', annotated('  - request: "@2"\n    find: "role: "\n    comment: c\n')]);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      {
        pos: at('scenarios/one.yaml', 14, 11),
        message: 'ambiguous anchor: find "role: " matches 4 lines of request @2; the first wins (add `occurrence: N` to pick another)',
      },
    ]);
    expect(ids(r)).toEqual(['one']);
    const settled = await run(['scenarios/one.yaml', annotated('  - request: "@2"\n    find: "role: "\n    comment: c\n    occurrence: 4\n')]);
    expect(settled.errors).toEqual([]);
    expect(settled.warnings).toEqual([]);
    expect(settled.scenarios[0]!.requests[0]!.text).toContain('  # c\n  - role: developer\n    content: "Requested at:');
  });
});

describe('a pinned request the fold did not accept says why', () => {
  const fix = 'change the events before it so the fold accepts this request, or remove the request event';

  it('no pending trigger', async () => {
    const r = await run(['scenarios/one.yaml', valid().replace('{role: user, content: hello}', '{role: system, content: hello}')]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:8:5 error: request @2 renders nothing: fold `context-protocol` did not accept it — no trigger is pending — nothing since the last send asked for a request (add a user or developer item that may trigger)\n' +
        `  fix: ${fix}`,
    );
  });

  it('an open, unsettled request', async () => {
    const r = await run([
      'scenarios/one.yaml',
      y`
      id: one
      title: One
      events:
        - {off: 1, t: 0ms, type: agents/context-added, payload: {role: user, content: hello}}
        - {off: 2, t: 1s, type: agent/llm-request-requested, payload: {model: m}}
        - {off: 3, t: 2s, type: agents/context-added, payload: {role: user, content: again}}
        - {off: 4, t: 3s, type: agent/llm-request-requested, payload: {model: m}}
    `,
    ]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:7:5 error: request @4 renders nothing: fold `context-protocol` did not accept it — request @2 is still open — settle it first with `agent/llm-request-settled` {requestOffset: 2}\n' +
        `  fix: ${fix}`,
    );
  });

  it('paused', async () => {
    const r = await run([
      'scenarios/one.yaml',
      y`
      id: one
      title: One
      events:
        - {off: 1, t: 0ms, type: agent/paused, payload: {}}
        - {off: 2, t: 0ms, type: agents/context-added, payload: {role: user, content: hello}}
        - {off: 3, t: 1s, type: agent/llm-request-requested, payload: {model: m}}
    `,
    ]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/one.yaml:6:5 error: request @3 renders nothing: fold `context-protocol` did not accept it — the agent is paused (since @1) — add an `agent/resumed` event before it\n' +
        `  fix: ${fix}`,
    );
  });
});

describe('the corpus as a whole', () => {
  it('one bad file does not hide another’s: both reported, sorted by file', async () => {
    const r = await run(
      ['scenarios/b.yaml', valid('b').replace('t: 1s', 't: soon')],
      ['scenarios/a.yaml', valid('a').replace('title: One\n', 'title: One\ncolour: red\n')],
      ['scenarios/c.yaml', valid('c')],
    );
    const err = new CorpusError(r.errors);
    expect(err.errors.map((e) => `${e.pos.file}:${e.pos.line}:${e.pos.col}`)).toEqual(['scenarios/a.yaml:3:1', 'scenarios/b.yaml:9:8']);
    expect(ids(r)).toEqual(['c']);
    expect(() => assertClean(r)).toThrow(CorpusError);
  });

  it('errors of one file are sorted by position', async () => {
    const r = await run(['scenarios/a.yaml', valid('a').replace('t: 1s', 't: soon').replace('title: One\n', 'title: One\ncolour: red\n').replace('t: 0ms', 't: later')]);
    expect(new CorpusError(r.errors).errors.map((e) => [e.pos.line, e.pos.col])).toEqual([
      [3, 1],
      [6, 8],
      [10, 8],
    ]);
  });

  it('CorpusError lists every error and ends with the count; nothing was written', async () => {
    const r = await run(['scenarios/b.yaml', valid('b').replace('t: 1s', 't: soon')], ['scenarios/a.yaml', valid('a').replace('title: One\n', 'title: One\ncolour: red\n')]);
    const err = new CorpusError(r.errors);
    expect(err.name).toBe('CorpusError');
    expect(UserError.is(err)).toBe(true);
    expect(err.message).toBe(
      [
        'scenarios/a.yaml:3:1 error: unknown field `colour` in the scenario',
        '  fix: remove it or fix its spelling; allowed here: id, fold, options, base, events, compare, expect, deploy, sharesCache, startedAt, opens, title, intro, annotations',
        '',
        'scenarios/b.yaml:9:8 error: unparseable time label "soon": it is not an elapsed time',
        '  fix: write an elapsed time like `0ms`, `250ms`, `4.2s`, `9m 18s`, `1h 2m`, or a range `3m–19m` (its end counts)',
        '',
        '2 errors in 2 files; nothing was written.',
      ].join('\n'),
    );
    const one = new CorpusError([r.errors[0]!]);
    expect(one.message).toMatch(/\n\n1 error in 1 file; nothing was written\.$/);
    const three = new CorpusError([...r.errors, { ...r.errors[0]! }]);
    expect(three.message).toMatch(/\n\n3 errors in 2 files; nothing was written\.$/);
  });
});

describe('markdown interop format', () => {
  it.skipIf(!HAS_REFERENCE)(`positions are the .md file’s own line numbers (fence offset applied)${NEEDS_REFERENCE}`, async () => {
    const legacy = reference('4-legacy.md');
    const lineOf = (needle: string): number => legacy.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const badType = legacy.replace('type: agent/llm-request-requested', 'type: agent/llm-request-requestd');
    const e = onlyError(await run(['reference/4-legacy.md', badType]));
    expect(e.pos).toEqual(at('reference/4-legacy.md', 80, 11));
    expect(lineOf('type: agent/llm-request-requested')).toBe(80);

    const stale = legacy.replace(`find: 'supersedes="@30"'`, `find: 'supersedes="@31"'`);
    const s = onlyError(await run(['reference/4-legacy.md', stale]));
    expect(s.pos).toEqual(at('reference/4-legacy.md', 145, 9));
    expect(s.message).toBe('stale anchor: find "supersedes=\\"@31\\"" matches no line of request @82');
    expect(s.detail?.[1]).toBe('  | <section key="config/agents-md" supersedes="@30">');

    const other = legacy.replace('- request: "@82"\n  find: \'supersedes', '- request: "@81"\n  find: \'supersedes');
    const o = onlyError(await run(['reference/4-legacy.md', other]));
    expect(o.pos).toEqual(at('reference/4-legacy.md', 144, 12));
    expect(o.fix).toBe('use one of: "@36", "@82"');
  });

  const md = (events: string, annotations = '') => y`
    # Title M

    Intro prose.

    <details>
    <summary>events</summary>

    \`\`\`yaml (events.yaml)
    ${events}
    \`\`\`
    ${annotations}
    </details>
  `;
  const mdEvents = [
    'id: m',
    'events:',
    '  - off: 1',
    '    t: 0ms',
    '    type: agents/context-added',
    '    payload: {role: user, content: hello}',
    '    note: the user asks',
    '  - off: 2',
    '    t: 1s',
    '    type: agent/llm-request-requested',
    '    payload: {model: m}',
  ].join('\n');
  const mdAnnotations = ['```yaml (annotations.yaml)', '- request: "@2"', '  find: hello', '  comment: the user’s turn', '```', ''].join('\n');

  it('malformed YAML in a fence points into the .md file', async () => {
    const e = onlyError(await run(['scenarios/m.md', md(mdEvents.replace('    t: 1s', '   t: 1s'))]));
    expect(formatError(e)).toBe(
      [
        'scenarios/m.md:17:4 error: malformed YAML: this line is not indented like the lines of its list entry',
        '  (4 more YAML errors after this one, likely caused by it: fix this one first)',
        '  fix: indent `t:` by 4 spaces, like the line above (or start a new list entry with `- `)',
      ].join('\n'),
    );
  });

  it('a payload error in the events fence points into the .md file', async () => {
    const e = onlyError(await run(['scenarios/m.md', md(mdEvents.replace('role: user', 'role: usr'))]));
    expect(e.pos).toEqual(at('scenarios/m.md', 14, 15));
    expect(e.message).toBe('@1 agents/context-added: `role` is the string "usr", which is not allowed — did you mean `user`?');
  });

  it('an annotation error in the annotations fence points into the .md file', async () => {
    const r = await run(['scenarios/m.md', md(mdEvents, mdAnnotations.replace('find: hello', 'find: goodbye'))]);
    expect(onlyError(r).pos).toEqual(at('scenarios/m.md', 23, 9));
  });

  it('a misnamed fence is an error, not silently ignored annotations', async () => {
    const r = await run(['scenarios/m.md', md(mdEvents, mdAnnotations.replace('(annotations.yaml)', '(annotation.yaml)'))]);
    expect(formatError(onlyError(r))).toBe(
      'scenarios/m.md:21:10 error: unknown fence `(annotation.yaml)`: it would be ignored\n' +
        '  fix: scenarios read `(events.yaml)` and `(annotations.yaml)` fences (`(request@N.yaml)` blocks are generated output): fix the name, or remove the fence',
    );
    expect(r.scenarios).toEqual([]);
  });

  it('a second events fence is an error', async () => {
    const twice = md(mdEvents, '```yaml (events.yaml)\nid: m2\n```\n');
    const e = onlyError(await run(['scenarios/m.md', twice]));
    expect(e.pos).toEqual(at('scenarios/m.md', 21, 10));
    expect(e.message).toBe('a second `(events.yaml)` fence (the first is on line 8): it would be ignored');
  });

  it('an unclosed fence is an error', async () => {
    const text = md(mdEvents, mdAnnotations).replace(/```\n\n<\/details>\n$/, '\n</details>\n');
    const e = onlyError(await run(['scenarios/m.md', text]));
    expect(e.pos).toEqual(at('scenarios/m.md', 21, 1));
    expect(e.message).toBe('the ```yaml (annotations.yaml) fence is never closed: it runs to the end of the file');
  });

  it('CRLF line endings read like LF (same positions)', async () => {
    const text = md(mdEvents.replace('role: user', 'role: usr')).replace(/\n/g, '\r\n');
    const e = onlyError(await run(['scenarios/m.md', text]));
    expect(e.pos).toEqual(at('scenarios/m.md', 14, 15));
    expect(assertClean(await run(['scenarios/m.md', md(mdEvents).replace(/\n/g, '\r\n')])).scenarios[0]!.scenario.title).toBe('Title M');
  });

  it('missing events fence and missing title', async () => {
    const r = await run(['scenarios/m.md', 'Just prose.\n']);
    expect(r.errors.map((e) => `${e.pos.line}:${e.pos.col} ${e.message}`)).toEqual(['1:1 missing `# Title` line', '1:1 missing the ```yaml (events.yaml) fence']);
  });

  it('both syntaxes give the same model for the same events', async () => {
    const native = y`
      id: m
      title: Title M
      intro: Intro prose.
      events:
        - off: 1
          t: 0ms
          type: agents/context-added
          payload: {role: user, content: hello}
          note: the user asks
        - off: 2
          t: 1s
          type: agent/llm-request-requested
          payload: {model: m}
      annotations:
        - request: "@2"
          find: hello
          comment: the user’s turn
    `;
    const a = assertClean(await run(['scenarios/m.yaml', native])).scenarios[0]!;
    const b = assertClean(await run(['scenarios/m.md', md(mdEvents, mdAnnotations)])).scenarios[0]!;
    const model = (s: Scenario) => ({
      id: s.id,
      title: s.title,
      intro: s.intro,
      stem: s.stem,
      fold: s.fold,
      options: s.options,
      base: s.base,
      events: s.events.map(eventModel),
      chain: s.chain.map(eventModel),
      annotations: s.annotations.map(({ request, find, comment, occurrence }) => ({ request, find, comment, occurrence })),
    });
    expect(model(b.scenario)).toEqual(model(a.scenario));
    expect(b.requests.map((r) => r.text)).toEqual(a.requests.map((r) => r.text));
    expect(a.requests[0]!.text).toContain('  - role: user\n    # the user’s turn\n    content: "hello"');
  });
});

/** An event without its source positions and text. */
const eventModel = (e: ScenarioEvent) => ({
  offset: e.offset,
  type: e.type,
  createdAt: e.createdAt,
  payload: e.payload,
  t: e.t,
  elapsedMs: e.elapsedMs,
  note: e.note,
  batch: e.batch,
  scenarioId: e.scenarioId,
});

describe('loading: batches, times, derived fields', () => {
  const load = async (text: string) => {
    const r = await loadTexts([{ file: 'scenarios/one.yaml', text }], config);
    expect(r.errors.map(formatError)).toEqual([]);
    return r.scenarios[0]!;
  };

  it('a `sections` batch expands to offsets off…off+N-1, one createdAt, `batch` set', async () => {
    const text = y`
      id: one
      title: One
      events:
        - off: 10
          t: 4.2s
          type: agents/context-added
          payload:
            role: system
            actor: {type: agent, path: /a}
            sections:
              - {key: identity, content: I}
              - {key: tools, content: T}
              - {key: gotchas, content: G}
          note: the birth batch
        - off: 13
          t: 5s
          type: agent/created
          payload: {}
    `;
    const s = await load(text);
    expect(s.events.map(eventModel)).toEqual([
      ...['identity', 'tools', 'gotchas'].map((key, index) => ({
        offset: 10 + index,
        type: 'agents/context-added',
        createdAt: '2026-08-24T16:41:04.200Z',
        t: '4.2s',
        elapsedMs: 4_200,
        note: 'the birth batch',
        payload: { role: 'system', actor: { type: 'agent', path: '/a' }, key, content: key[0]!.toUpperCase() },
        batch: { first: 10, size: 3, index, ownFields: ['key', 'content'] },
        scenarioId: 'one',
      })),
      { offset: 13, type: 'agent/created', createdAt: '2026-08-24T16:41:05.000Z', t: '5s', elapsedMs: 5_000, note: undefined, batch: undefined, payload: {}, scenarioId: 'one' },
    ]);
    // While loading, each section's payload errors are located in its own entry; shared fields in
    // the payload. A loaded event no longer locates (nothing keeps the file's YAML tree alive).
    const { draft } = parseYamlScenario('scenarios/one.yaml', 'one', text, { timeZero: config.timeZero });
    const written = await expandEvents(draft!.events, config.folds.get(s.fold), []);
    expect(written[1]!.locate(['content'])).toEqual(at('scenarios/one.yaml', 12, 24));
    expect(written[2]!.locate(['actor', 'path'])).toEqual(at('scenarios/one.yaml', 9, 28));
    expect(s.chain.filter((e) => 'locate' in e)).toEqual([]);
    expect(s.events.slice(0, 3).map((e) => [e.pos, e.offPos, e.typePos].map((p) => `${p.line}:${p.col}`))).toEqual(Array(3).fill(['4:5', '4:10', '6:11']));
  });

  it('time labels → createdAt (time zero + label; a range counts as its end)', async () => {
    const labels = ['0ms', '250ms', '4.2s', '9m 18s', '10m 16.3s', '3m–19m'];
    const s = await load(`id: one\ntitle: One\nevents:\n${labels.map((t, i) => `  - {off: ${i + 1}, t: ${t}, type: agent/created, payload: {}}\n`).join('')}`);
    expect(s.events.map((e) => [e.t, e.elapsedMs, e.createdAt])).toEqual([
      ['0ms', 0, '2026-08-24T16:41:00.000Z'],
      ['250ms', 250, '2026-08-24T16:41:00.250Z'],
      ['4.2s', 4_200, '2026-08-24T16:41:04.200Z'],
      ['9m 18s', 558_000, '2026-08-24T16:50:18.000Z'],
      ['10m 16.3s', 616_300, '2026-08-24T16:51:16.300Z'],
      ['3m–19m', 1_140_000, '2026-08-24T17:00:00.000Z'],
    ]);
  });

  it('time zero is configurable', async () => {
    const r = await loadTexts([{ file: 'scenarios/one.yaml', text: valid() }], { ...config, timeZero: '2020-01-01T00:00:00.000Z' });
    expect(r.scenarios[0]!.events.map((e) => e.createdAt)).toEqual(['2020-01-01T00:00:00.000Z', '2020-01-01T00:00:01.000Z']);
  });

  it('derived expiresAt = time zero + elapsed + 30s on requested and script-run-requested events without one', async () => {
    const s = await load(y`
      id: one
      title: One
      events:
        - {off: 1, t: 0ms, type: agents/context-added, payload: {role: user, content: hello}}
        - {off: 2, t: 9m 18s, type: agent/llm-request-requested, payload: {model: m}}
        - {off: 3, t: 10m, type: capability-host/script-run-requested, payload: {executionId: x, code: "return 1"}}
        - {off: 4, t: 11m, type: agent/llm-request-settled, payload: {requestOffset: 2, result: {status: succeeded}}}
        - {off: 5, t: 12m, type: agents/context-added, payload: {role: user, content: again}}
        - {off: 6, t: 13m, type: agent/llm-request-requested, payload: {model: m, expiresAt: "2030-01-01T00:00:00.000Z"}}
    `);
    expect(s.events.map((e) => (e.payload as { expiresAt?: string }).expiresAt)).toEqual([
      undefined,
      '2026-08-24T16:50:48.000Z',
      '2026-08-24T16:51:30.000Z',
      undefined,
      undefined,
      '2030-01-01T00:00:00.000Z',
    ]);
  });

  it('a base chain: own events after the base’s, each tagged with its scenario', async () => {
    const child = y`
      id: b
      title: B
      base: a
      events:
        - {off: 3, t: 2s, type: agent/llm-request-settled, payload: {requestOffset: 2, result: {status: succeeded}}}
    `;
    const r = await loadTexts(
      [
        { file: 'scenarios/b.yaml', text: child },
        { file: 'scenarios/a.yaml', text: valid('a') },
      ],
      config,
    );
    expect(r.errors).toEqual([]);
    expect(r.scenarios.map((s) => s.id)).toEqual(['a', 'b']);
    expect(r.scenarios[1]!.chain.map((e) => [e.offset, e.scenarioId])).toEqual([
      [1, 'a'],
      [2, 'a'],
      [3, 'b'],
    ]);
  });
});
