/**
 * `deploy:` — a fold rule that lands mid-stream: requests before its event render under the
 * scenario's own options, requests from it on under the deployed ones; the first request after the
 * deploy shows the one-time ✂ reset. And every way to write it wrong is a located error.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from './errors.ts';

const config = await resolveOptions(process.cwd());

/** Two turns; `deploy` (a YAML mapping, inline) is inserted at line 4. */
const scenario = (deploy: string, extra = '') =>
  [
    'id: one',
    'title: One',
    'options: {metadataLines: every-item}',
    `deploy: ${deploy}`,
    'events:',
    '  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, content: You help.}}',
    '  - {off: 2, t: 1s, type: agents/context-added, payload: {role: user, content: first question, actor: {type: user, origin: web}}}',
    '  - {off: 3, t: 2s, type: agent/llm-request-requested, payload: {model: m}}',
    '  - {off: 4, t: 3s, type: agent/llm-request-settled, payload: {requestOffset: 3, result: {status: succeeded}}}',
    '  - {off: 5, t: 4s, type: agents/context-added, payload: {role: user, content: second question, actor: {type: user, origin: web}}}',
    '  - {off: 6, t: 5s, type: agent/llm-request-requested, payload: {model: m}}',
    extra,
  ].join('\n');

const run = async (text: string) => await renderTexts([{ file: 'scenarios/one.yaml', text }], config, { everyEvent: false });

describe('deploy', () => {
  it('renders requests before the deploy under the old options and from it on under the new', async () => {
    const r = await run(scenario('{at: "@5", options: {metadataLines: synthesized-only}}'));
    expect(r.errors.map(formatError)).toEqual([]);
    const [before, after] = r.scenarios[0]!.requests;
    expect(before!.text).toMatch(/@2 actor=user:web/); // every item carries a metadata line
    expect(after!.text).not.toMatch(/@2 actor=user:web/); // user turns render bare
    // the protocol prompt (the first message) changed: the cut falls right above its content
    expect(after!.lines[after!.cut!]!.text).toMatch(/^ {4}content: "AGENT_CONTEXT_PROTOCOL_PROMPT/);
  });

  it('without a deploy the same stream appends: the cut sits where the previous request ended', async () => {
    const r = await run(scenario('{at: "@5", options: {metadataLines: every-item}}'));
    const [before, after] = r.scenarios[0]!.requests;
    expect(after!.cut).toBe(before!.lines.length);
  });

  it('names an own event', async () => {
    const r = await run(scenario('{at: "@9", options: {}}'));
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/one.yaml:4:14 error: `deploy.at` names @9, which is not one of this scenario\'s own events\n  fix: use one of: "@1", "@2", "@3", "@4", "@5", "@6"',
    ]);
  });

  it('not the first event', async () => {
    const r = await run(scenario('{at: "@1", options: {}}'));
    expect(r.errors[0]!.message).toContain("names the stream's first event");
  });

  it('as "@N"', async () => {
    const r = await run(scenario('{at: "5", options: {}}'));
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/one.yaml:4:14 error: `deploy.at` must name an event as "@<offset>", got "5"\n  fix: write e.g. `at: "@40"` (quoted: @ cannot start a plain YAML value)',
    ]);
  });

  it('with options the fold accepts, located inside `options`', async () => {
    const r = await run(scenario('{at: "@5", options: {metadataLines: sometimes}}'));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.pos).toEqual({ file: 'scenarios/one.yaml', line: 4, col: 30 });
    expect(r.errors[0]!.message).toMatch(/^deploy option `metadataLines` is the string "sometimes", which is not allowed/);
  });

  it('with a known fold', async () => {
    const r = await run(scenario('{at: "@5", fold: nope}'));
    expect(r.errors[0]!.message).toBe('unknown fold `nope` in `deploy`');
  });

  it('with known keys only', async () => {
    const r = await run(scenario('{at: "@5", option: {}}'));
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/one.yaml:4:20 error: unknown field `option` in `deploy` — did you mean `options`?\n  fix: remove it or fix its spelling; allowed here: at, options, fold',
    ]);
  });
});
