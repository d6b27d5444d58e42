/**
 * Why a prompt changed: each visible cause alone (events, options, fold/base settings, deploy,
 * base chain, fold code, shared code, nothing visible, an unreadable base file), their
 * combinations, a request seeing only the events at or before it, and the sentence in plain text
 * and Markdown (untrusted names cannot become markup).
 */
import { describe, expect, it } from 'vitest';
import { causes, causeSchema, requestWhy, whyMarkdown, whyText, type WhyInput } from './cause.ts';
import { scenarioShape } from './shape.ts';

const yaml = (body: string) => scenarioShape('scenarios/x.yaml', `id: x\ntitle: X\n${body}`)!;

const EVENTS = `events:
  - {off: 10, t: 0ms, type: a, payload: {text: one}}
  - {off: 12, t: 1s, type: a, payload: {text: two}, note: "a caption"}
  - {off: 14, t: 2s, type: req, payload: {}}
  - {off: 20, t: 3s, type: req, payload: {}}
`;

const EVENT_21 = '  - {off: 21, t: 4s, type: req, payload: {}}\n';

const input = (before: string, after: string, extra: Partial<WhyInput> = {}): WhyInput => ({
  before: yaml(before),
  after: yaml(after),
  defaultFold: 'context-protocol',
  chain: [],
  foldFiles: [],
  sharedFiles: [],
  ...extra,
});

describe('causes', () => {
  it('names edited, added and removed events by offset', () => {
    const after = `${EVENTS.replace('text: two', 'text: TWO').replace('  - {off: 10, t: 0ms, type: a, payload: {text: one}}\n', '')}${EVENT_21}`;
    const c = causes(input(EVENTS, after));
    expect(c).toEqual([{ kind: 'events', edited: [12], added: [21], removed: [10] }]);
    expect(whyText(c)).toBe('Why: the scenario changed — event @12 edited, @21 added, @10 removed');
  });

  it('a request sees only the events at or before it', () => {
    const after = `${EVENTS.replace('text: two', 'text: TWO')}${EVENT_21}`;
    const i = input(EVENTS, after, { foldFiles: [] });
    expect(whyText(causes(i, 14))).toBe('Why: the scenario changed — event @12 edited');
    expect(whyText(causes(i, 21))).toBe('Why: the scenario changed — event @12 edited, @21 added');
    // @10 changed although no event at or before it did: not the scenario, and the fold's folder is unchanged.
    expect(causes(i, 10)).toEqual([{ kind: 'unknown', fold: 'context-protocol', folder: true }]);
  });

  it('ignores event keys order and a caption edit, but not a time edit', () => {
    const reordered = EVENTS.replace('{off: 10, t: 0ms, type: a, payload: {text: one}}', '{type: a, payload: {text: one}, t: 0ms, off: 10}').replace(
      'a caption',
      'another caption',
    );
    const i = input(EVENTS, reordered, { foldFiles: ['src/builtin-folds/context-protocol/render.ts'] });
    expect(causes(i)).toEqual([
      { kind: 'fold-code', fold: 'context-protocol', files: ['src/builtin-folds/context-protocol/render.ts'] },
      { kind: 'other-keys', keys: ['notes'] },
    ]);
    expect(whyText(causes(i))).toBe(
      "Why: the context-protocol fold changed (src/builtin-folds/context-protocol/render.ts); the scenario's events and options did not; also edited: notes",
    );
    expect(causes(input(EVENTS, EVENTS.replace('t: 1s', 't: 1.5s')))).toEqual([{ kind: 'events', edited: [12], added: [], removed: [] }]);
  });

  it('names a changed fold option with its old and new value', () => {
    const c = causes(input(`options: {mandateSlot: final, keep: 1}\n${EVENTS}`, `options: {keep: 1, mandateSlot: system}\n${EVENTS}`));
    expect(c).toEqual([{ kind: 'options', changes: [{ name: 'mandateSlot', before: 'final', after: 'system' }] }]);
    expect(whyText(c)).toBe('Why: fold option mandateSlot changed: final → system');
    expect(whyMarkdown(c)).toBe('Why: fold option `mandateSlot` changed: `final` → `system`');
  });

  it('lists several options, set and unset ones, and shows lists compactly', () => {
    const c = causes(input(`options: {a: [x, y], gone: true}\n${EVENTS}`, `options: {a: [x], fresh: 3}\n${EVENTS}`));
    expect(whyText(c)).toBe('Why: fold options changed: a: ["x","y"] → ["x"], fresh: (unset) → 3, gone: true → (unset)');
  });

  it('names a changed fold or base, with the default fold when none is written', () => {
    expect(whyText(causes(input(EVENTS, `fold: layered\n${EVENTS}`)))).toBe("Why: the scenario's fold: changed: context-protocol → layered");
    expect(whyText(causes(input(`base: a\n${EVENTS}`, `base: b\n${EVENTS}`)))).toBe("Why: the scenario's base: changed: a → b");
    expect(whyText(causes(input(`base: a\n${EVENTS}`, EVENTS)))).toBe("Why: the scenario's base: changed: a → (none)");
  });

  it('names a deploy change, and only for requests from the deployment on', () => {
    const i = input(`deploy: {at: "@14", options: {x: 1}}\n${EVENTS}`, `deploy: {at: "@20", options: {x: 2}}\n${EVENTS}`);
    expect(whyText(causes(i))).toBe('Why: the deploy: entry changed (at: @14 → @20; options.x: 1 → 2)');
    expect(causes(i, 12)).toEqual([{ kind: 'unknown', fold: 'context-protocol', folder: true }]);
    expect(causes(i, 14)[0]).toMatchObject({ kind: 'deploy', from: 14 });
  });

  it('names a base scenario whose events were edited', () => {
    const base = { id: 'shared', before: yaml(EVENTS), after: yaml(EVENTS.replace('text: one', 'text: uno')) };
    const i = input(EVENTS, EVENTS, { chain: [base] });
    expect(causes(i)).toEqual([{ kind: 'base-chain', id: 'shared', edited: [10], added: [], removed: [] }]);
    expect(whyMarkdown(causes(i))).toBe('Why: its base scenario `shared` changed — event @10 edited');
    // An ancestor that did not exist at the base is not a cause of its own (the `base:` edit is).
    expect(causes(input(EVENTS, EVENTS, { chain: [{ id: 'new', after: yaml(EVENTS) }] }))).toEqual([{ kind: 'unknown', fold: 'context-protocol', folder: true }]);
  });

  it('blames the fold when the scenario is the same, listing at most three files', () => {
    const files = ['src/builtin-folds/layered/a.ts', 'src/builtin-folds/layered/b.ts', 'src/builtin-folds/layered/c.ts', 'src/builtin-folds/layered/d.ts'];
    const c = causes(input(`fold: layered\n${EVENTS}`, `fold: layered\n${EVENTS}`, { foldFiles: files, sharedFiles: ['src/prompt/render.ts'] }));
    expect(c).toEqual([{ kind: 'fold-code', fold: 'layered', files }]);
    expect(whyText(c)).toBe(
      'Why: the layered fold changed (src/builtin-folds/layered/a.ts, src/builtin-folds/layered/b.ts, src/builtin-folds/layered/c.ts and 1 more); the scenario did not',
    );
  });

  it('falls back to the shared rendering code, then to "not visible"', () => {
    expect(whyText(causes(input(EVENTS, EVENTS, { sharedFiles: ['src/prompt/render.ts'] })))).toBe(
      'Why: the shared rendering code changed (src/prompt/render.ts); the scenario and the context-protocol fold did not',
    );
    expect(whyText(causes(input(EVENTS, EVENTS)))).toBe(
      "Why: not visible: the scenario, its options and the context-protocol fold's code are as at the base — the base's fixtures may have been out of date",
    );
    const custom = causes(input(`fold: mine\n${EVENTS}`, `fold: mine\n${EVENTS}`, { foldFiles: undefined }));
    expect(custom).toEqual([{ kind: 'unknown', fold: 'mine', folder: false }]);
    expect(whyText(custom)).toContain('the mine fold has no src/builtin-folds/ folder to compare');
  });

  it('combines causes, closest first, the fold code marked as "too"', () => {
    const after = `options: {x: 2}\n${EVENTS.replace('text: one', 'text: uno')}annotations: [{request: "@14", find: a, comment: b}]\n`;
    const c = causes(input(`options: {x: 1}\n${EVENTS}`, after, { foldFiles: ['src/builtin-folds/context-protocol/render.ts'], sharedFiles: ['src/prompt/render.ts'] }));
    expect(c.map((x) => x.kind)).toEqual(['options', 'events', 'fold-code', 'other-keys']);
    expect(whyText(c)).toBe(
      "Why: fold option x changed: 1 → 2; the scenario changed — event @10 edited; the context-protocol fold's code changed too (src/builtin-folds/context-protocol/render.ts); also edited: annotations",
    );
    // The request-level list leaves out what never reaches a prompt.
    expect(causes(input(`options: {x: 1}\n${EVENTS}`, after), 14).map((x) => x.kind)).toEqual(['options', 'events']);
  });

  it('says so when the base version of the file cannot be read', () => {
    const i: WhyInput = { ...input(EVENTS, EVENTS), before: scenarioShape('scenarios/x.yaml', 'events: [unclosed') };
    expect(i.before).toBeUndefined();
    expect(whyText(causes(i))).toBe('Why: the scenario file changed, but its version at the base could not be read, so the edit cannot be named');
  });

  it('lists at most six offsets', () => {
    const many = (n: number) => `events:\n${Array.from({ length: n }, (_, k) => `  - {off: ${k + 1}, t: ${k}s, type: a, payload: {n: ${k}}}`).join('\n')}\n`;
    expect(whyText(causes(input(many(2), many(10))))).toBe('Why: the scenario changed — events @3, @4, @5, @6, @7, @8 and 2 more added');
  });

  it('keeps untrusted names from becoming Markdown', () => {
    const c = causes(input(`fold: "[x](https://evil.example)"\n${EVENTS}`, `fold: "<img src=x>"\noptions: {"a\`b": "**c**"}\n${EVENTS}`));
    const md = whyMarkdown(c);
    expect(md).toContain('\\[x\\](https://evil.example) → \\<img src=x\\>');
    expect(md).toContain('`aˋb`');
    expect(md).toContain('`**c**`');
  });

  it('round-trips through the changes.json schema, and rejects what is not a cause', () => {
    const c = causes(input(`options: {x: 1}\n${EVENTS}`, `options: {x: 2}\n${EVENTS}`, { foldFiles: ['src/builtin-folds/context-protocol/a.ts'] }));
    for (const x of c) expect(causeSchema.parse(JSON.parse(JSON.stringify(x)))).toEqual(x);
    expect(causeSchema.safeParse({ kind: 'events', edited: [-1], added: [], removed: [] }).success).toBe(false);
    expect(causeSchema.safeParse({ kind: 'script', src: 'x' }).success).toBe(false);
  });
});

describe('requestWhy', () => {
  const scenario = causes(input(EVENTS, `${EVENTS.replace('text: two', 'text: TWO')}expect: {busts: []}\n`));
  it('is undefined when the request says what the scenario says', () => {
    expect(requestWhy(scenario, causes(input(EVENTS, EVENTS.replace('text: two', 'text: TWO')), 14))).toBeUndefined();
  });
  it("is the request's own list when it differs", () => {
    const own = causes(input(EVENTS, EVENTS.replace('text: two', 'text: TWO')), 10);
    expect(requestWhy(scenario, own)).toBe(own);
    expect(requestWhy(undefined, undefined)).toBeUndefined();
  });
});

describe('scenarioShape', () => {
  it('reads the markdown interop format', () => {
    const md =
      '# Title\n\nIntro.\n\n<details>\n\n```yaml (events.yaml)\nid: m\noptions: {a: 1}\nevents:\n  - {off: 3, t: 0ms, type: a}\n```\n\n```yaml (annotations.yaml)\n- {request: "@3", find: x, comment: y}\n```\n</details>\n';
    const s = scenarioShape('scenarios/m.md', md)!;
    expect(s).toMatchObject({ id: 'm', options: { a: 1 } });
    expect([...s.events.keys()]).toEqual([3]);
    expect([...s.other.keys()].sort()).toEqual(['annotations', 'id', 'intro', 'title']);
    expect(scenarioShape('scenarios/m.md', '# Only a title\n')).toBeUndefined();
  });
  it('is undefined for text that is not a mapping', () => {
    expect(scenarioShape('scenarios/x.yaml', '- a\n- b\n')).toBeUndefined();
  });
});
