/**
 * Messages that help a new author: "did you mean" for near-misses (event types with the mixed
 * agent/ vs agents/ prefixes, keys, fold ids, scenario ids, option values), an id with capitals
 * gets its lowercase form, an annotation naming a base's request says which scenario owns it, and
 * one mistake does not produce a second, confusing error.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../cli/config.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from './errors.ts';

const config = await loadConfig();
const run = async (files: Record<string, string>) =>
  (
    await renderTexts(
      Object.entries(files).map(([file, text]) => ({ file, text })),
      config,
      { everyEvent: false },
    )
  ).errors.map(formatError);

const scenario = (id: string, events: string, extra = '') => `id: ${id}\ntitle: T\n${extra}events:\n${events}`;
const user = (off: number, t = '0ms') => `  - off: ${off}\n    t: ${t}\n    type: agents/context-added\n    payload: {role: user, content: "hi ${off}"}\n`;
const request = (off: number, type = 'agent/llm-request-requested', t = '1s') => `  - off: ${off}\n    t: ${t}\n    type: ${type}\n    payload: {model: m}\n`;
const settle = (off: number, req: number) => `  - off: ${off}\n    t: 2s\n    type: agent/llm-request-settled\n    payload: {requestOffset: ${req}, result: {status: succeeded}}\n`;

describe('did you mean', () => {
  it('an event type with the wrong agent/ vs agents/ prefix', async () => {
    const errors = await run({ 'scenarios/a.yaml': scenario('a', user(1).replace('agents/context-added', 'agent/context-added')) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('unknown event type `agent/context-added` at @1 for fold `context-protocol` — did you mean `agents/context-added`?');
  });
  it('a misspelt scenario key, event key and payload field', async () => {
    // (an event with a wrong key is not checked further: its payload's typo is in a second event)
    const errors = (
      await run({
        'scenarios/a.yaml': scenario('a', user(1).replace('t: 0ms', 'tt: 0ms\n    t: 0ms') + user(2).replace('content:', 'contnt: x, content:'), 'intr: x\n'),
      })
    ).join('\n');
    expect(errors).toMatch(/unknown field `intr`.* — did you mean `intro`\?/);
    expect(errors).toMatch(/unknown field `tt`.* — did you mean `t`\?/);
    expect(errors).toMatch(/unknown field `contnt`.* — did you mean `content`\?/);
  });
  it('a fold id, a base id and an option value', async () => {
    const errors = (
      await run({
        'scenarios/a.yaml': scenario('birth-window', user(1)),
        'scenarios/b.yaml': scenario('b', user(2), 'base: birth-windw\n'),
        'scenarios/c.yaml': scenario('c', user(1), 'fold: layerd\n'),
        'scenarios/d.yaml': scenario('d', user(1), 'options: {metadataLines: every-items}\n'),
      })
    ).join('\n');
    expect(errors).toContain('unknown base `birth-windw` — did you mean `birth-window`?');
    expect(errors).toContain('unknown fold `layerd` — did you mean `layered`?');
    expect(errors).toMatch(/`metadataLines` is the string "every-items", which is not allowed — did you mean `every-item`\?/);
  });
  it('an actor kind and an enum value inside a payload', async () => {
    const errors = (
      await run({ 'scenarios/a.yaml': scenario('a', user(1).replace('content: "hi 1"', 'content: x, actor: {type: slak}').replace('role: user', 'role: users')) })
    ).join('\n');
    expect(errors).toContain('which is not allowed — did you mean `user`?');
    expect(errors).toContain('which is not a known kind — did you mean `slack`?');
  });
});

describe('one mistake, one message', () => {
  it('a misspelt request type is not also reported as an annotation naming no request', async () => {
    const text = `${scenario('a', user(1) + request(2, 'agent/llm-request-requestd'))}annotations:\n  - {request: "@2", find: "hi", comment: c}\n`;
    const errors = await run({ 'scenarios/a.yaml': text });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('did you mean `agent/llm-request-requested`?');
  });

  it('malformed YAML in a base is not also reported as an unknown base in its children', async () => {
    const errors = await run({
      'scenarios/a.yaml': scenario('first', user(1)).replace('title: T', 'title: "unclosed'),
      'scenarios/b.yaml': scenario('second', user(10, '5s'), 'base: first\n'),
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^scenarios\/a\.yaml:2:8 error: malformed YAML/);
  });
});

describe('ids and owners', () => {
  it('an id with capitals suggests the lowercase one', async () => {
    const [e] = await run({ 'scenarios/a.yaml': scenario('Birth-Window', user(1)) });
    expect(e).toContain('invalid id "Birth-Window"');
    expect(e).toContain('fix: write `id: birth-window`');
  });
  it('an annotation naming a base scenario’s request says which scenario owns it', async () => {
    const errors = await run({
      'scenarios/a.yaml': scenario('first', user(1) + request(2) + settle(3, 2)),
      'scenarios/b.yaml': `${scenario('second', user(10, '5s') + request(11, undefined, '6s'), 'base: first\n')}annotations:\n  - {request: "@2", find: "hi", comment: c}\n`,
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('annotation names request @2, which belongs to base scenario `first`, not to this one');
    expect(errors[0]).toContain('fix: annotate it in `first` (this scenario\'s base), or use one of: "@11"');
  });
});
