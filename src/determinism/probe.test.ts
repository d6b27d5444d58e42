/**
 * The determinism probe on a copy of the bundled example fold (examples/folds/chat-log.ts) with two
 * planted faults — the system prompt reads the clock, and a message prints a metadata object's keys
 * in the order they come — finds both, naming the request event, the text that moved and what moved
 * it; on the unchanged example fold and the bundled corpus's built-in folds it finds nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderTexts } from '../corpus/check.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import type { AnyFold } from '../folds/types.ts';
import { loadCorpus } from '../scenarios/files.ts';
import { renderScenario } from '../prompt/render.ts';
import { chatLog } from '../../examples/folds/chat-log.ts';
import { findingMessage, probeScenario } from './probe.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the example fold with a clock read and an unordered key iteration planted in it. */
async function plantedFold(): Promise<AnyFold> {
  let src = readFileSync(join(ROOT, 'examples/folds/chat-log.ts'), 'utf8');
  const swap = (from: string, to: string) => {
    expect(src, from).toContain(from);
    src = src.replace(from, to);
  };
  swap("from 'prompt-fold-explainer/kit'", `from '${join(ROOT, 'src/package/kit.ts')}'`);
  swap("id: 'chat-log'", "id: 'chat-log-planted'");
  // Fault 1: the system prompt says today's date, read from the clock.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: fold source code, planted as text
  swap('const system = options.systemPrompt;', 'const system = `${options.systemPrompt} Today is ${new Date().toISOString().slice(0, 10)}.`;');
  // Fault 2: a message may carry `meta`, printed in whatever order its keys come.
  swap(
    "const Message = z.strictObject({ role: z.enum(['system', 'user', 'assistant']), text: z.string() });",
    "const Message = z.strictObject({ role: z.enum(['system', 'user', 'assistant']), text: z.string(), meta: z.record(z.string(), z.string()).optional() });",
  );
  swap(
    'const { role, text } = e.payload as { role: string; text: string };',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: fold source code, planted as text
    "const { role, text: said, meta } = e.payload as { role: string; text: string; meta?: Record<string, string> };\n        const text = meta ? `${Object.entries(meta).map(([k, v]) => `${k}=${v}`).join(' ')}\\n${said}` : said;",
  );
  const file = join(dir, 'planted-fold.ts');
  writeFileSync(file, src);
  return ((await import(file)) as { default: AnyFold }).default;
}

const SCENARIO = (fold: string) => `id: probe
title: A probe
fold: ${fold}
options:
  systemPrompt: "You are a terse assistant."
events:
  - off: 1
    t: 0ms
    type: message
    payload: { role: user, text: "Where is the invoice code?", meta: { repo: harbor, branch: main } }
  - off: 2
    t: 1s
    type: send
    payload: { model: openai/gpt-5 }
  - off: 3
    t: 5s
    type: message
    payload: { role: user, text: "And its tests?" }
  - off: 4
    t: 6s
    type: send
    payload: { model: openai/gpt-5 }
`;

async function probe(fold: AnyFold, text: string) {
  const folds = new Map<string, AnyFold>([...BUILTIN_FOLDS, [fold.id, fold]]);
  const corpus = await renderTexts([{ file: 'scenarios/probe.yaml', text }], { timeZero: '2026-12-01T09:00:00.000Z', folds, defaultFold: fold.id }, { everyEvent: false });
  expect(corpus.errors.map((e) => e.message)).toEqual([]);
  const r = corpus.scenarios[0]!;
  return probeScenario(r.scenario, fold, r.chain);
}

describe('the determinism probe', () => {
  it('finds the clock read and the unordered key iteration planted in a copy of the example fold', async () => {
    const findings = await probe(await plantedFold(), SCENARIO('chat-log-planted'));
    expect(findings.map((f) => [f.request, f.pos.line, f.movedBy])).toEqual([
      // The request events' lines in SCENARIO (`- off: 2`, `- off: 4`); @4 repeats @2's messages, so both faults move it too.
      [2, 11, ['clock', 'key order']],
      [4, 19, ['clock', 'key order']],
    ]);
    const [first] = findings;
    // The moved text: the date of the system prompt (the first line that moves in the cached prefix).
    expect(first!.was).toMatch(/Today is \d{4}-\d{2}-\d{2}\./);
    expect(first!.now).toMatch(/Today is \d{4}-\d{2}-\d{2}\./);
    expect(first!.was).not.toBe(first!.now);
    const m = findingMessage(first!);
    expect(m.message).toMatch(
      /^request @2: its cached prefix is not deterministic — line \d+ of the request moves when the fold runs again with the clock \(shifted by 37 days, 5 h 13 min\); the order of the keys of the events’ payload objects \(reversed\)$/,
    );
    expect(m.fix).toMatch(/^take the time from the events/);
  });

  it('names the key order alone where only the keys moved', async () => {
    const keyed = await probeOnlyKeys();
    const moved = [expect.stringContaining('repo=harbor branch=main'), expect.stringContaining('branch=main repo=harbor')];
    expect(keyed.map((f) => [f.request, f.movedBy, f.was, f.now])).toEqual([
      [2, ['key order'], ...moved],
      [4, ['key order'], ...moved],
    ]);
    expect(findingMessage(keyed[0]!).fix).toMatch(/^sort the keys or tools before printing them/);
  });

  it('finds nothing in the example fold as it is', async () => {
    const text = readFileSync(join(ROOT, 'examples/scenarios/chat-log.yaml'), 'utf8');
    expect(await probe(chatLog, text)).toEqual([]);
  });

  it('finds nothing in the built-in folds over the bundled corpus', async () => {
    const config = { root: ROOT, scenariosDir: 'scenarios', timeZero: '2026-01-01T00:00:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
    const { scenarios, errors } = await loadCorpus(config);
    expect(errors).toEqual([]);
    const probed = scenarios.filter((s) => s.fold !== 'requests' && !s.deploy);
    expect(probed.length).toBeGreaterThan(10);
    for (const s of probed) {
      const fold = BUILTIN_FOLDS.get(s.fold)!;
      const r = await renderScenario(s, fold, { everyEvent: false, describe: false }, []);
      expect(await probeScenario(s, fold, r.chain), s.id).toEqual([]);
    }
  }, 120_000);
});

/** The planted key fault alone: a fold copy whose only fault is the unordered meta keys. */
async function probeOnlyKeys() {
  const planted = await plantedFold();
  // Wrap the planted fold so its system prompt never reaches the request: the clock fault cannot move anything.
  const keysOnly = {
    ...planted,
    id: 'chat-log-keys',
    snapshots: (events: never, options: never, at: never) =>
      (planted.snapshots as (...a: unknown[]) => { messages: { role: string }[] }[])(events, options, at).map((s) => ({
        ...s,
        messages: s.messages.filter((m) => m.role !== 'system'),
      })),
  } as AnyFold;
  return probe(keysOnly, SCENARIO('chat-log-keys'));
}

describe('the probe in the test API', () => {
  it('a fold run whose prefix moves is a broken `deterministic` promise, located at the request event', async () => {
    const { checkCache } = await import('../assert/api.ts');
    const check = await checkCache({ fold: await plantedFold(), scenario: SCENARIO('chat-log-planted'), file: 'scenarios/probe.yaml' }, null, { busts: [] });
    expect(check.ok).toBe(false);
    expect(check.failures.map((f) => [f.expectation, f.request, `${f.at.file}:${f.at.line}`])).toEqual([
      ['deterministic', 2, 'scenarios/probe.yaml:11'],
      ['deterministic', 4, 'scenarios/probe.yaml:19'],
    ]);
    expect(check.text).toMatch(/^scenarios\/probe\.yaml:11:5 error: request @2: its cached prefix is not deterministic — .*\n {2}was: ".*Today is /);
  });
});
