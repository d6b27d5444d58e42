/**
 * The traffic summary of an imported log: its totals are the sums of its conversations' own figures
 * (computed here independently, from the report's per-request rows and from the log's own usage
 * lines), its misses by cause and by change add up to the total lost, the worst conversations are
 * those that lost the most, and the change labels name what differed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { importLog } from '../import/log/index.ts';
import { renderTexts } from '../corpus/check.ts';
import { formatError } from '../scenarios/errors.ts';
import { buildReport } from './report.ts';
import { trafficLines, trafficSummary, type TrafficManifest } from './traffic.ts';
import { changeOf } from './traffic-change.ts';

const dir = mkdtempSync(join(tmpdir(), 'traffic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };

const LONG = 'You are a careful coding agent. '.repeat(200);
const TOOLS = ['read', 'write', 'test'].map((name) => ({ type: 'function', function: { name, description: `${name} a file`, parameters: { type: 'object', properties: {} } } }));

/** A log of four conversations (gpt-5): one steady, one whose system prompt changes, one whose tools are re-ordered, one idle 12 minutes. */
function log(): { lines: unknown[]; usage: { input: number; cached: number }[] } {
  const lines: unknown[] = [];
  const usage: { input: number; cached: number }[] = [];
  const t0 = Date.parse('2026-12-01T10:00:00Z');
  for (let k = 0; k < 5; k++) {
    for (const c of ['steady', 'system', 'tools', 'idle']) {
      const system = c === 'system' && k >= 3 ? `Today is Tuesday. ${LONG}` : LONG;
      const tools = c === 'tools' && k >= 2 ? [...TOOLS].reverse() : TOOLS;
      const at = t0 + k * 30_000 + (c === 'idle' && k >= 3 ? 12 * 60_000 : 0);
      const messages = [{ role: 'system', content: system }, ...Array.from({ length: k + 1 }, (_, i) => ({ role: 'user', content: `question ${i} of ${c}` }))];
      const u = { input: 1500 + 10 * k, cached: k ? 1280 : 0 };
      usage.push(u);
      lines.push({
        timestamp: new Date(at).toISOString(),
        body: { model: 'gpt-5', user: `team-${c}`, tools, messages },
        response: { usage: { prompt_tokens: u.input, prompt_tokens_details: { cached_tokens: u.cached } } },
      });
    }
  }
  return { lines, usage };
}

async function imported() {
  const { lines, usage } = log();
  const path = join(dir, 'day.jsonl');
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const files: { file: string; text: string }[] = [];
  const { result, errors } = await importLog({ file: 'logs/day.jsonl', path, prefix: 'day' }, (c, r) => {
    files.push({ file: `scenarios/${c.id}.yaml`, text: r.yaml });
    return [];
  });
  expect(errors.map(formatError)).toEqual([]);
  const manifest: TrafficManifest = {
    log: 'logs/day.jsonl',
    prefix: 'day',
    formats: ['openai-chat'],
    lines: result!.lines,
    conversations: result!.conversations.map((c) => ({ id: c.id, groupedBy: c.conversation.by, key: c.conversation.key, requests: c.requests, lines: c.lines })),
  };
  const corpus = await renderTexts(files, config, { everyEvent: false });
  expect(corpus.errors.map(formatError)).toEqual([]);
  return { corpus, manifest, usage };
}

describe('traffic summary', () => {
  it("its totals are the sums of its conversations' figures (independently computed)", async () => {
    const { corpus, manifest, usage } = await imported();
    const s = trafficSummary(corpus, manifest);
    const rows = buildReport(corpus).scenarios.flatMap((x) => x.requests);
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
    expect(s.conversations).toBe(4);
    expect(s.requests).toBe(20);
    expect(rows).toHaveLength(20);
    expect(s.totals.inputTokens).toBe(sum((r) => r.inputTokens));
    expect(s.totals.cachedTokens).toBe(sum((r) => r.cachedTokens));
    expect(s.totals.cachedShare).toBeCloseTo(sum((r) => r.cachedTokens) / sum((r) => r.inputTokens), 12);
    expect(s.totals.costUsd).toBeCloseTo(
      sum((r) => r.costUsd!),
      9,
    );
    expect(s.totals.tokensLost).toBe(sum((r) => r.cacheBreak?.tokensLost ?? 0));
    expect(s.totals.lostCostUsd).toBeCloseTo(
      sum((r) => r.cacheBreak?.lostCostUsd ?? 0),
      9,
    );
    // Every conversation's own totals add up to the log's.
    expect(s.perConversation.reduce((n, c) => n + c.totals.inputTokens, 0)).toBe(s.totals.inputTokens);
    expect(s.perConversation.reduce((n, c) => n + c.requests, 0)).toBe(s.requests);
    // Misses, by cause and by change, add up to what was lost.
    for (const lines of [s.byCause, s.byChange]) {
      expect(lines.reduce((n, l) => n + l.tokensLost, 0)).toBe(s.totals.tokensLost);
      expect(lines.reduce((n, l) => n + l.lostCostUsd!, 0)).toBeCloseTo(s.totals.lostCostUsd!, 9);
    }
    expect(s.totals.tokensLost).toBeGreaterThan(0);
    // Billed usage: the log's own figures, summed.
    expect(s.measured!.requests).toBe(20);
    expect(s.measured!.billed).toEqual({ inputTokens: usage.reduce((n, u) => n + u.input, 0), cachedTokens: usage.reduce((n, u) => n + u.cached, 0), cacheWriteTokens: 0 });
    expect(s.measured!.modelled.inputTokens).toBe(s.totals.inputTokens);
    expect(s.missing).toEqual([]);
  });

  it('names the change behind each miss and ranks the worst conversations; the steady one is not among them', async () => {
    const { corpus, manifest } = await imported();
    const s = trafficSummary(corpus, manifest);
    expect(s.byChange.map((c) => [c.change, c.requests, c.conversations]).sort()).toEqual([
      ['idle past the cache retention', 1, 1],
      ['system prompt changed', 1, 1],
      ['tools re-ordered', 1, 1],
    ]);
    expect(s.worst.map((w) => w.id).sort()).toEqual(['day-team-idle', 'day-team-system', 'day-team-tools']);
    for (let i = 1; i < s.worst.length; i++) expect(s.worst[i - 1]!.lostCostUsd!).toBeGreaterThanOrEqual(s.worst[i]!.lostCostUsd!);
    expect(trafficLines(s)[0]).toMatch(
      /^traffic of logs\/day\.jsonl \(day-…\): 4 conversations, 20 requests, [\d,]+ input tokens, \d+ % cached, \$[\d.]+; lost to cache misses: [\d,]+ tokens, \$[\d.]+$/,
    );
  });

  it('a conversation removed since the import is listed as missing, and not counted', async () => {
    const { corpus, manifest } = await imported();
    const s = trafficSummary(corpus, {
      ...manifest,
      conversations: [...manifest.conversations, { id: 'day-gone', groupedBy: 'user', key: 'gone', requests: 3, lines: [99, 101] }],
    });
    expect(s.missing).toEqual(['day-gone']);
    expect(s.conversations).toBe(4);
  });

  it('change labels', () => {
    const b = {
      model: 'm',
      tools: [1, 2],
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'q' },
      ],
    };
    expect(changeOf('model-changed', b, { ...b, model: 'n' })).toBe('model changed');
    expect(changeOf('earlier-message-changed', b, { ...b, tools: [2, 1] })).toBe('tools re-ordered');
    expect(changeOf('earlier-message-changed', b, { ...b, tools: [3] })).toBe('tools changed');
    expect(changeOf('system-changed', b, { ...b, messages: [{ role: 'system', content: 'T' }, b.messages[1]] })).toBe('system prompt changed');
    expect(changeOf('earlier-message-changed', b, { ...b, messages: [b.messages[0], { role: 'user', content: 'r' }] })).toBe('an earlier user message rewritten');
    expect(changeOf('earlier-message-changed', b, { ...b, messages: [b.messages[0]] })).toBe('messages removed (compaction)');
    expect(changeOf('expired', b, b)).toBe('idle past the cache retention');
    expect(changeOf('system-changed', { system: 'a', messages: [] }, { system: 'b', messages: [] })).toBe('system prompt changed');
  });
});
