/**
 * Which event broke the cache, for each kind a reviewer names (docs/cache-economics.md, "Why the cache broke"): an
 * in-place rewrite, a delete of one key, a delete of `*`, a compaction, a layered entry inserted
 * above the transcript, a mid-stream deploy, an expired but byte-stable request and a model change
 * — on the bundled scenarios, on crafted ones with the built-in folds, and with the example fold
 * (examples/folds/chat-log.ts). Tokens lost are checked against gpt-tokenizer's own chat encoding
 * of the requests, not against the engine.
 */
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../cli/config.ts';
import { resolveOptions } from '../integration/options.ts';
import { assertClean, renderCorpus, renderTexts, type RenderedCorpus } from '../corpus/check.ts';
import type { RequestEconomics } from './compute.ts';
import { cutNote } from './view.ts';

const words = (n: number, w = 'word'): string => w + ` ${w}`.repeat(n - 1);
/** Tokens of messages as the OpenAI chat format encodes them, without the reply priming. */
const chatTokens = (messages: readonly { role: string; content: string }[]): number =>
  o200k.encodeChat(
    messages.map((m) => ({ role: m.role as 'user', content: m.content })),
    'gpt-4o',
  ).length - 3;

let corpus: RenderedCorpus;
beforeAll(async () => {
  corpus = await renderCorpus(await loadConfig(), { everyEvent: false });
});
const req = (id: string, offset: number): RequestEconomics => corpus.economics.get(id)!.requests.find((e) => e.offset === offset)!;
const typeOf = (id: string, offset: number): string => corpus.scenarios.find((r) => r.scenario.id === id)!.scenario.chain.find((e) => e.offset === offset)!.type;

describe('the bundled scenarios name the event a reviewer would name', () => {
  it('an in-place rewrite (@40), and no event where the re-add keeps every byte', () => {
    expect(typeOf('rewrite-vs-re-add', 40)).toBe('agents/context-rewritten');
    expect(req('rewrite-vs-re-add', 42).cacheBreak).toMatchObject({ cause: 'system-changed', events: [40] });
    expect(req('rewrite-vs-re-add', 32).cacheBreak?.events ?? []).toEqual([]);
    for (const e of corpus.economics.get('sent-re-add')!.requests) expect(e.cacheBreak?.events ?? []).toEqual([]);
  });

  it('a delete of one key names the delete, not the events whose text it removed; so does a delete of `*`', () => {
    expect(req('delete-key-and-all', 42).cacheBreak).toMatchObject({ events: [40] });
    expect(typeOf('delete-key-and-all', 40)).toBe('agents/context-rewritten');
    expect(req('delete-key-and-all', 56).cacheBreak).toMatchObject({ events: [50] });
  });

  it('a compaction names the compaction', () => {
    expect(req('compaction', 52).cacheBreak).toMatchObject({ events: [50] });
  });

  it('a layered request names the feedback entry folded in above the transcript, not the repo map', () => {
    expect(req('layered-today', 11).cacheBreak).toMatchObject({ cause: 'system-changed', events: [10] });
  });

  it('a mid-stream deploy is named as the deploy (`fold-changed`)', () => {
    const e = req('metadata-lines-deploy', 45);
    expect(e.cacheBreak).toMatchObject({ cause: 'fold-changed', events: [44] });
    expect(cutNote(e, () => 'agents/context-added').events).toEqual([{ offset: 44, label: 'the deploy at @44' }]);
  });

  it('an expired but byte-stable request names no event and loses the entry it would have read', () => {
    const r = corpus.scenarios.find((x) => x.scenario.id === 'cache-economics')!;
    const e = req('cache-economics', 52);
    expect(e.cacheBreak?.cause).toBe('expired');
    expect(e.cacheBreak?.events).toEqual([]);
    // @42's own entry: its messages up to its newest user message (GPT-5.6's implicit breakpoint).
    const m = r.chain.find((q) => q.offset === 42)!.messages;
    const lastUser = m.findLastIndex((x) => x.role === 'user');
    expect(e.cacheBreak!.tokensLost).toBe(chatTokens(m.slice(0, lastUser + 1)));
  });

  it('a real loss: @42 of cache-economics loses @31’s entry, nothing of it read', () => {
    const r = corpus.scenarios.find((x) => x.scenario.id === 'cache-economics')!;
    const m = r.chain.find((q) => q.offset === 31)!.messages;
    const e = req('cache-economics', 42);
    expect(e.cachedTokens).toBe(0);
    expect(e.cacheBreak).toMatchObject({ cause: 'system-changed', events: [40] });
    expect(e.cacheBreak!.tokensLost).toBe(chatTokens(m.slice(0, m.findLastIndex((x) => x.role === 'user') + 1)));
  });
});

describe('crafted scenarios', () => {
  const run = async (text: string, folds?: string[]) => {
    const config = await resolveOptions(process.cwd(), folds ? { folds } : {});
    return assertClean(await renderTexts([{ file: 'scenarios/c.yaml', text }], config, { everyEvent: false })).economics.get('c')!.requests;
  };

  it('a layered feedback entry inserted into the system fold loses the cached system prefix', async () => {
    const es = await run(`id: c
title: "c"
fold: layered
events:
  - {off: 1, t: 0ms, type: entry/added, payload: {layer: L0, role: SYSTEM, sourceType: systemPrompt, content: "${words(1200)}"}}
  - {off: 2, t: 0ms, type: entry/added, payload: {layer: L3, role: USER, sourceType: repoMap, content: "pkg/a.go"}}
  - {off: 3, t: 1s, type: request, payload: {model: anthropic/claude-sonnet-4-5}}
  - {off: 4, t: 2s, type: entry/added, payload: {layer: L2, role: ASSISTANT, sourceType: assistantToolCall, content: "submit_plan: edit a.go"}}
  - {off: 5, t: 3s, type: entry/added, payload: {layer: L1, role: SYSTEM, sourceType: groundingFeedback, content: "Emit a corrected plan."}}
  - {off: 6, t: 4s, type: request, payload: {model: anthropic/claude-sonnet-4-5}}
`);
    const [a, b] = es;
    expect(a!.cacheWriteTokens).toBeGreaterThan(1200);
    expect(b!.cachedTokens).toBe(0);
    expect(b!.cacheBreak).toMatchObject({ cause: 'system-changed', events: [5] });
    // What @3 wrote (up to its last breakpoint) is lost whole.
    expect(b!.cacheBreak!.tokensLost).toBe(a!.cacheWriteTokens);
  });

  const cp = (model2: string, gap = '3s') => `id: c
title: "c"
events:
  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, key: rules, content: "${words(1500)}"}}
  - {off: 2, t: 0ms, type: agents/context-added, payload: {role: user, content: "first", actor: {type: user, origin: web}}}
  - {off: 3, t: 1s, type: agent/llm-request-requested, payload: {model: openai/gpt-4o}}
  - {off: 4, t: 1.5s, type: agent/llm-request-settled, payload: {requestOffset: 3, result: {status: succeeded, text: "ok"}}}
  - {off: 5, t: 2s, type: agents/context-added, payload: {role: user, content: "second", actor: {type: user, origin: web}}}
  - {off: 6, t: ${gap}, type: agent/llm-request-requested, payload: {model: ${model2}}}
`;

  it('a model change names the request that changed the model', async () => {
    const [a, b] = await run(cp('openai/gpt-4.1'));
    expect(b!.cacheBreak).toMatchObject({ cause: 'model-changed', events: [6] });
    expect(b!.cachedTokens).toBe(0);
    // OpenAI automatic caching: @3's whole prompt shared (without its last priming tokens), rounded to 128-token steps.
    const shared = a!.inputTokens - 3 + 1;
    expect(b!.cacheBreak!.tokensLost).toBe(1024 + Math.floor((shared - 1024) / 128) * 128);
  });

  it('an expired, byte-stable request under OpenAI automatic caching: the same model, no event', async () => {
    const [, b] = await run(cp('openai/gpt-4o', '5m 1.001s'));
    expect(b!.cacheBreak).toMatchObject({ cause: 'expired', events: [] });
    expect(b!.idleMs).toBe(300_001);
  });

  const chat = (extra: string) => `id: c
title: "c"
fold: chat-log
options: {systemPrompt: "${words(1100)}"}
${extra}
events:
  - {off: 1, t: 0ms, type: message, payload: {role: user, text: "hello"}}
  - {off: 2, t: 1s, type: send, payload: {model: anthropic/claude-sonnet-4-5}}
  - {off: 3, t: 2s, type: message, payload: {role: assistant, text: "hi"}}
  - {off: 4, t: 3s, type: message, payload: {role: user, text: "more"}}
  - {off: 5, t: 4s, type: send, payload: {model: anthropic/claude-sonnet-4-5}}
`;
  const folds = ['context-protocol', 'layered', './examples/folds/chat-log.ts'];

  it('the example fold: appending keeps the cache; a deploy of a new system prompt is named (fold-changed)', async () => {
    const [a, b] = await run(chat(''), folds);
    expect(b!.cacheBreak).toBeNull();
    expect(b!.cachedTokens).toBe(a!.cacheWriteTokens);
    const [c, d] = await run(chat(`deploy: {at: "@4", options: {systemPrompt: "${words(1100, 'other')}"}}`), folds);
    expect(d!.cacheBreak).toMatchObject({ cause: 'fold-changed', events: [4], tokensLost: c!.cacheWriteTokens });
  });

  it('the example fold: a model change', async () => {
    const [, b] = await run(chat('').replace(/(off: 5.*model: )anthropic\/claude-sonnet-4-5/, '$1anthropic/claude-opus-4-5'), folds);
    expect(b!.cacheBreak).toMatchObject({ cause: 'model-changed', events: [5] });
  });
});
