/**
 * The editor schema and `npm run check` agree: the committed schemas/ files are the generated ones
 * (fresh), every bundled scenario names its fold's schema in its modeline and is valid under it,
 * and a set of broken scenarios is rejected by both — the JSON Schema validated with ajv, the
 * scenario with the real loader and fold. (What needs the whole corpus — offsets in order, stale
 * anchors, refused requests — only the check can see; those cases are not in the set.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../cli/config.ts';
import { renderTexts } from '../corpus/check.ts';
import { scenarioSchemaFiles } from './json-schema.ts';

const config = await loadConfig();
const files = await scenarioSchemaFiles(config.folds, config.defaultFold);
const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: false });
const validators = new Map(files.map((f) => [f.name, ajv.compile(JSON.parse(f.text))]));
const validate = (fold: string, text: string) => validators.get(`scenario.${fold}.json`)!(parse(text));
const check = async (text: string) => (await renderTexts([{ file: 'scenarios/x.yaml', text }], config, { everyEvent: false })).errors;

describe('editor schemas (schemas/scenario.<fold>.json)', () => {
  it('are committed and fresh (`npm run schemas` rewrites them)', () => {
    const dir = join(config.root, 'schemas');
    const committed = readdirSync(dir)
      .filter((n) => n.startsWith('scenario.') && n.endsWith('.json'))
      .sort();
    expect(committed, 'run `npm run schemas` and commit schemas/').toEqual(files.map((f) => f.name).sort());
    for (const f of files) expect(readFileSync(join(dir, f.name), 'utf8'), `schemas/${f.name} is stale: run \`npm run schemas\``).toBe(f.text);
  });

  it('every bundled scenario points its modeline at its fold’s schema and is valid under it', () => {
    const dir = join(config.root, config.scenariosDir);
    const names = readdirSync(dir).filter((n) => n.endsWith('.yaml'));
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const text = readFileSync(join(dir, name), 'utf8');
      const fold = (parse(text) as { fold?: string }).fold ?? config.defaultFold;
      expect(text.split('\n')[0], `${name}: first line`).toBe(`# yaml-language-server: $schema=../schemas/scenario.${fold}.json`);
      const ok = validate(fold, text);
      expect(ok, `${name}: ${JSON.stringify(validators.get(`scenario.${fold}.json`)!.errors?.slice(0, 3))}`).toBe(true);
    }
  });

  const base = (events: string, extra = '') => `id: x\ntitle: X\n${extra}events:\n${events}`;
  const user = '  - off: 1\n    t: 0ms\n    type: agents/context-added\n    payload: {role: user, content: hi}\n';
  const request = '  - off: 2\n    t: 1s\n    type: agent/llm-request-requested\n    payload: {model: m}\n';

  const VALID: [string, string, string][] = [
    ['a minimal scenario with a request and an annotation', 'context-protocol', `${base(user + request)}annotations:\n  - {request: "@2", find: "hi", comment: c}\n`],
    [
      'a sections batch',
      'context-protocol',
      base(
        '  - off: 1\n    t: 0ms\n    type: agents/context-added\n    payload:\n      role: system\n      sections:\n        - {key: a, content: A}\n        - {key: b, content: B}\n',
      ),
    ],
    [
      'a free-form payload, and none at all',
      'context-protocol',
      base('  - off: 1\n    t: 0ms\n    type: agent/created\n    payload: {anything: [1, 2]}\n  - off: 2\n    t: 0ms\n    type: agent/paused\n'),
    ],
    ['some of the options', 'context-protocol', base(user, 'options: {metadataLines: every-item}\n')],
    [
      // What `npm run import` writes for a Claude Code transcript: a request after the first as `extends:`, with the bill, what the capture lacks and the provider's verdict.
      'an imported request written as what it adds, with `measured`, `unrecorded` and `providerMiss`',
      'requests',
      base(
        [
          '  - off: 1\n    t: 0ms\n    type: request/sent\n    payload:\n      format: anthropic\n      measured: {inputTokens: 25, cachedTokens: 0}\n',
          '      unrecorded: [the system prompt]\n      body: {model: claude-sonnet-4-5, max_tokens: 64, messages: [{role: user, content: hi}]}\n',
          '  - off: 2\n    t: 1s\n    type: request/sent\n    payload:\n      format: anthropic\n      measured: {inputTokens: 45, cachedTokens: 0}\n',
          '      unrecorded: [the system prompt]\n      providerMiss: {type: messages_changed}\n',
          '      extends: {keep: 1, append: [{role: assistant, content: hello}, {role: user, content: again}]}\n',
        ].join(''),
        'fold: requests\n',
      ),
    ],
    [
      'a layered scenario',
      'layered',
      base(
        '  - off: 1\n    t: 0ms\n    type: entry/added\n    payload: {layer: L1, role: USER, sourceType: userMessage, content: hi}\n  - off: 2\n    t: 1s\n    type: request\n    payload: {model: m}\n',
        'fold: layered\n',
      ),
    ],
  ];
  for (const [what, fold, text] of VALID) {
    it(`both accept: ${what}`, async () => {
      expect(await check(text)).toEqual([]);
      expect(validate(fold, text), JSON.stringify(validators.get(`scenario.${fold}.json`)!.errors)).toBe(true);
    });
  }

  const INVALID: [string, string, string][] = [
    ['an unknown top-level key', 'context-protocol', base(user, 'titel: X\n')],
    ['a missing title', 'context-protocol', `id: x\nevents:\n${user}`],
    ['an id with capitals', 'context-protocol', base(user).replace('id: x', 'id: My-Scenario')],
    ['no events', 'context-protocol', 'id: x\ntitle: X\nevents: []\n'],
    ['an unknown event key', 'context-protocol', base(user.replace('    t: 0ms', '    t: 0ms\n    time: 0ms'))],
    ['an event type the fold does not have', 'context-protocol', base(user.replace('agents/context-added', 'agent/context-added'))],
    ['a payload missing a required field', 'context-protocol', base(user.replace('role: user, ', ''))],
    ['a payload with an unknown field', 'context-protocol', base(user.replace('content: hi', 'content: hi, mood: 1'))],
    ['a value outside an enum', 'context-protocol', base(user.replace('role: user', 'role: robot'))],
    ['a tagged actor with a bad value', 'context-protocol', base(user.replace('content: hi', 'content: hi, actor: {type: user, origin: tv}'))],
    [
      'a settlement with a bad status',
      'context-protocol',
      base(`${user + request}  - off: 3\n    t: 2s\n    type: agent/llm-request-settled\n    payload: {requestOffset: 2, result: {status: done}}\n`),
    ],
    ['a request without its payload', 'context-protocol', base(`${user}  - off: 2\n    t: 1s\n    type: agent/llm-request-requested\n`)],
    ['an annotation naming a request without @', 'context-protocol', `${base(user + request)}annotations:\n  - {request: "2", find: "hi", comment: c}\n`],
    ['an unknown option', 'context-protocol', base(user, 'options: {metadataLine: every-item}\n')],
    ['an option value outside its enum', 'context-protocol', base(user, 'options: {metadataLines: all}\n')],
    ['a `sharesCache` without `at`', 'context-protocol', base(user, 'sharesCache: {scenario: other}\n')],
    ['a `deploy` without `at`', 'context-protocol', base(user, 'deploy: {options: {metadataLines: every-item}}\n')],
    ['a `deploy` with an unknown field', 'context-protocol', base(user, 'deploy: {at: "@1", option: {}}\n')],
    ['a `sharesCache.at` that is not "@N"', 'context-protocol', base(user, 'sharesCache: {scenario: other, at: "3s"}\n')],
    [
      'a layered entry with a bad layer',
      'layered',
      base('  - off: 1\n    t: 0ms\n    type: entry/added\n    payload: {layer: L9, role: USER, sourceType: userMessage, content: hi}\n', 'fold: layered\n'),
    ],
  ];
  for (const [what, fold, text] of INVALID) {
    it(`both reject: ${what}`, async () => {
      expect((await check(text)).length, `npm run check accepted it:\n${text}`).toBeGreaterThan(0);
      expect(validate(fold, text), `the JSON Schema accepted it:\n${text}`).toBe(false);
    });
  }
});
