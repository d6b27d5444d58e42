/**
 * Bring your own fold, end to end: a temporary copy of the project registers the example fold
 * (examples/folds/chat-log.ts — the very file the docs show) in its astro.config.mjs and adds the
 * example scenario. Then, in the copy: a scenario naming an unknown fold is an error that lists the
 * known ones (custom fold included); `npm run fixtures` writes the custom-fold scenario's fixture;
 * a stale anchor in it fails `npm run build` with the file:line:column message; restored, the site
 * builds with the scenario's page. Two builds in all.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build, makeProject, ROOT } from './support/project.ts';
import chatLog from '../examples/folds/chat-log.ts';

const FOLD = 'examples/folds/chat-log.ts';
const SCENARIO = 'examples/scenarios/chat-log.yaml';

/** An npm script in the copy, with CI unset: `npm run fixtures` refuses to run in CI. */
function run(dir: string, script: string): { status: number; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' };
  delete env.CI;
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: dir, encoding: 'utf8', env });
  return { status: r.status ?? 1, output: `${r.stdout}\n${r.stderr}` };
}

describe('the example fold itself', () => {
  const ev = (offset: number, type: string, payload: unknown) => ({ offset, type, createdAt: '2026-08-24T16:41:00.000Z', payload });

  it('validates payloads and options strictly, with a fix', async () => {
    expect(chatLog.validateEvent('message', { role: 'user', text: 'hi' })).toEqual([]);
    expect(chatLog.validateEvent('message', { role: 'robot', text: 'hi', mood: 1 }).map((i) => i.path)).toEqual([['role'], ['mood']]);
    // Derived from its zod schemas (defineFold): the kit's messages name the field and the fix.
    expect(chatLog.validateEvent('send', { model: ' ' })).toEqual([{ path: ['model'], message: '`model` must not be empty', fix: 'give it a value' }]);
    expect(chatLog.validateEvent('send', 'openai/gpt-5')[0]!.path).toEqual([]);
    expect(await chatLog.validateOptions({ ...chatLog.defaults, systemPrompt: 'x' })).toEqual([]);
    expect((await chatLog.validateOptions({ systemPrompt: 'x', sytemPrompt: 'y' } as never)).map((i) => i.message)).toEqual([
      'unknown field `sytemPrompt` — did you mean `systemPrompt`?',
    ]);
  });

  it('sends every message so far, with provenance, sharing unchanged message objects', async () => {
    const events = [
      ev(1, 'send', { model: 'm' }),
      ev(2, 'message', { role: 'user', text: 'a' }),
      ev(3, 'send', { model: 'm' }),
      ev(4, 'message', { role: 'assistant', text: 'b' }),
      ev(5, 'send', { model: 'm' }),
    ];
    const snaps = await chatLog.snapshots(events, { systemPrompt: 'S' }, new Set([1, 3, 4, 5]));
    expect(snaps.map((s) => s.offset)).toEqual([1, 3, 4, 5]);
    expect(snaps[0]!.request).toEqual({ model: 'm' }); // the system prompt alone is something to send
    expect(snaps[2]!.request).toBeUndefined();
    expect(snaps[3]!.messages.map((m) => [m.role, m.content, m.parts.flatMap((p) => p.from)])).toEqual([
      ['system', 'S', []],
      ['user', 'a', [2]],
      ['assistant', 'b', [4]],
    ]);
    expect(snaps[3]!.messages[1]).toBe(snaps[1]!.messages[1]);
    const bare = await chatLog.snapshots(events, chatLog.defaults, new Set([1]));
    expect(bare[0]).toEqual({ offset: 1, messages: [], rejected: { reason: 'nothing to send yet: add a `message` event before this `send`' } });
  });
});

describe('a project’s own fold', () => {
  const dir = makeProject();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Register the example fold from its own file (makeProject copies examples/; the copy is
  // byte-identical to this repository's file, which the docs page shows).
  const configFile = join(dir, 'astro.config.mjs');
  const config = readFileSync(configFile, 'utf8');
  const registered = config.replace("folds: ['context-protocol', 'layered', 'requests'],", `folds: ['context-protocol', 'layered', 'requests', './${FOLD}'],`);
  writeFileSync(configFile, registered);

  const scenarioFile = join(dir, 'scenarios', 'chat-log.yaml');
  const scenario = readFileSync(join(ROOT, SCENARIO), 'utf8');

  it('the copy registers the example fold (the config still has the line this test edits)', () => {
    expect(readFileSync(join(dir, FOLD), 'utf8')).toBe(readFileSync(join(ROOT, FOLD), 'utf8'));
    expect(registered).not.toBe(config);
    expect(registered).toContain(`'./${FOLD}'`);
  });

  it('a scenario naming an unknown fold is an error listing the known folds; nothing is written', () => {
    const m = /^fold: (chat-log)$/m.exec(scenario)!;
    expect(m, 'the example scenario names its fold').toBeTruthy();
    const line = scenario.slice(0, m.index).split('\n').length;
    writeFileSync(scenarioFile, scenario.replace(m[0], 'fold: chat-logs'));
    const r = run(dir, 'fixtures');
    expect(r.status).not.toBe(0);
    expect(r.output).toContain(`scenarios/chat-log.yaml:${line}:7 error: unknown fold \`chat-logs\` — did you mean \`chat-log\`?\n`);
    expect(r.output).toContain(`  > ${line} | fold: chat-logs\n`); // the code frame
    expect(r.output).toContain('  fix: use one of: context-protocol, layered, requests, chat-log (or register the fold in astro.config.mjs)');
    expect(r.output).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace
    expect(existsSync(join(dir, 'fixtures'))).toBe(false);
  });

  it('`npm run fixtures` generates the custom-fold scenario’s fixture', () => {
    writeFileSync(scenarioFile, scenario);
    const r = run(dir, 'fixtures');
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain('created fixtures/chat-log.md');
    const fixture = readFileSync(join(dir, 'fixtures', 'chat-log.md'), 'utf8');
    expect(fixture).toContain('Generated from `scenarios/chat-log.yaml`');
    expect(fixture).toContain(
      ['  - role: user', '    content: "What does a fold do?"', '  # ✂ provider cache: every token above this line is a byte-stable prefix (cached)', '  - role: assistant'].join(
        '\n',
      ),
    );
    expect(fixture).toContain("# appended after the previous request's messages");
    // the built-in folds' scenarios are generated alongside, byte for byte as committed
    expect(readFileSync(join(dir, 'fixtures', '20-layered-today.md'), 'utf8')).toBe(readFileSync(join(ROOT, 'fixtures', '20-layered-today.md'), 'utf8'));
  });

  it('a stale anchor in the custom-fold scenario fails the build; restored, its page is built', () => {
    const m = /^(\s+find: )(['"])(.+)\2$/m.exec(scenario)!;
    expect(m, 'the example scenario has an annotation to break').toBeTruthy();
    const line = scenario.slice(0, m.index).split('\n').length;
    writeFileSync(scenarioFile, scenario.replace(m[0], `${m[1]}"this text is not in any prompt"`));
    const broken = build(dir);
    expect(broken.status).not.toBe(0);
    expect(broken.output).toContain(`scenarios/chat-log.yaml:${line}:${m[1]!.length + 1} error: stale anchor: find "this text is not in any prompt" matches no line of request @`);
    expect(broken.output).toContain('fix: change `find:` to text the rendered request contains');
    expect(existsSync(join(dir, 'dist', 'index.html'))).toBe(false);

    writeFileSync(scenarioFile, scenario);
    const fixed = build(dir);
    expect(fixed.status, fixed.output).toBe(0);
    const page = join(dir, 'dist', 'scenarios', 'chat-log', 'index.html');
    expect(existsSync(page)).toBe(true);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('What does a fold do?');
    expect(html).toContain('And why does the order matter?');
    expect(html).toContain('You are a terse assistant. Answer in one sentence.');
    expect(html).toContain('appended after the previous request'); // the annotation
    // the fold's own hooks: its describe gives the cards' badges, its expand the `lines` batch
    expect(html).toContain('<span class="badge">3 messages</span>');
    expect(html).toContain('<span class="badge">×2 events, one batch</span>');
    expect(html).toMatch(/<span class="badge">assistant<\/span>/);
    // The playground's worker bundles the registered custom fold (it is browser-safe).
    const worker = readdirSync(join(dir, 'dist', '_astro')).find((f) => /^worker.*\.js$/.test(f))!;
    expect(readFileSync(join(dir, 'dist', '_astro', worker), 'utf8')).toContain(`${chatLog.id}`);
  }, 300_000);
});
