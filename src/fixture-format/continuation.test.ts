/**
 * Requests written as what they add (continuation.ts): the fixture of a conversation prints each
 * request after the first as a `# ⋯` line and its new messages, and reading it back gives every
 * request's whole text — with the ✂ line, annotations and breakpoint markers where a whole block
 * prints them, wherever they fall; a prompt that looks like a comment; a changed system prompt
 * showing in the review as a change to every request; and clear errors for a broken block.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { assertClean, renderTexts } from '../corpus/check.ts';
import { UserError } from '../errors.ts';
import type { BaseFixture } from '../review/base.ts';
import { compareWithBase } from '../review/compare.ts';
import { continuation, continuationHead, rebuild } from './continuation.ts';
import { fixtureText, parseFixture, unweave } from './format.ts';

const config = await resolveOptions(process.cwd());

/** A conversation of `turns` user/assistant turns (turn k at offsets 10k − 8 …: its request @10k − 7) under system prompt `system`, one request per turn, and `extra` YAML appended. */
function conversation(system: string, turns: number, extra = '', userText = (k: number) => `question ${k}`): string {
  const ev: string[] = [`  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, key: identity, content: ${JSON.stringify(system)}}}`];
  let off = 2;
  for (let k = 1; k <= turns; k++) {
    ev.push(`  - {off: ${off}, t: ${off}s, type: agents/context-added, payload: {role: user, content: ${JSON.stringify(userText(k))}, actor: {type: user, origin: web}}}`);
    ev.push(`  - {off: ${off + 1}, t: ${off + 1}s, type: agent/llm-request-requested, payload: {model: m}}`);
    ev.push(`  - {off: ${off + 2}, t: ${off + 2}s, type: agent/llm-request-settled, payload: {requestOffset: ${off + 1}, result: {status: succeeded}}}`);
    ev.push(`  - {off: ${off + 3}, t: ${off + 3}s, type: agents/context-added, payload: {role: assistant, content: ${JSON.stringify(`answer ${k}`)}}}`);
    off += 10;
  }
  return `id: talk\ntitle: "A talk"\nevents:\n${ev.join('\n')}\n${extra}`;
}

async function render(text: string) {
  return assertClean(await renderTexts([{ file: 'scenarios/talk.yaml', text }], config, { everyEvent: false })).scenarios[0]!;
}

/** The fixture's blocks as written (before rebuilding), by offset. */
function writtenBlocks(fixture: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of fixture.matchAll(/```yaml \(request@(\d+)\.yaml\)\n([\s\S]*?)\n```/g)) out.set(Number(m[1]), m[2]!);
  return out;
}

/** What the review reads at a base: each block rebuilt and stripped of its comments (src/review/base.ts). */
function baseOf(fixture: string, annotations: Map<number, string[]> = new Map()): Map<string, BaseFixture> {
  const back = parseFixture(fixture);
  const requests = new Map(back.requests.map((b) => [b.offset, { offset: b.offset, ...unweave(b.text, annotations.get(b.offset) ?? []), annotations: [] }]));
  return new Map([['talk', { stem: 'talk', title: back.title, requests }]]);
}

describe('a conversation written as what each request adds', () => {
  it('prints the first request whole and each later one as its new messages, and reads every whole request back', async () => {
    const r = await render(conversation('You are a helper.', 4));
    const text = fixtureText(r);
    const written = writtenBlocks(text);
    expect([...written.keys()]).toEqual([3, 13, 23, 33]);
    expect(written.get(3)!.startsWith('model: m\nmessages:\n')).toBe(true);
    // @3 sent the protocol and identity system messages, question 1 and its time; @13 adds answer 1, question 2 and its time.
    expect(written.get(13)).toBe(
      [
        continuationHead(3, 4),
        '  # ✂ provider cache: every token above this line is a byte-stable prefix (cached)',
        '  - role: assistant',
        '    content: "answer 1"',
        '  - role: user',
        '    content: "question 2"',
        '  - role: developer',
        '    content: "Requested at: 2026-08-24T16:41:13.000Z"',
      ].join('\n'),
    );
    expect(written.get(13)!.split('\n')[0]).toBe('# ⋯ model and messages 0–3 as in request @3 (unchanged); from message 4:');
    expect(written.get(33)!.split('\n')[0]).toBe('# ⋯ model and messages 0–9 as in request @23 (unchanged); from message 10:');
    const back = parseFixture(text);
    expect(back.requests.map((b) => b.text)).toEqual(r.requests.map((q) => q.text));
  });

  it('grows linearly: each later block holds only its own turn', async () => {
    const r = await render(conversation('You are a helper.', 60));
    const written = [...writtenBlocks(fixtureText(r)).values()];
    // A whole block grows by three messages a turn; a continuation stays the same size (but for longer numbers).
    const sizes = written.slice(1).map((b) => b.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(12);
    expect(r.requests.at(-1)!.text.length).toBeGreaterThan(10 * sizes.at(-1)!);
  });

  it('prints from the message holding an annotation or the ✂ line when it falls in the part that carried over', async () => {
    const extra = `annotations:\n  - request: "@23"\n    find: "question 1"\n    comment: "the first question, still sent"\n  - request: "@33"\n    find: "answer 2"\n    comment: "an earlier answer"\n`;
    const r = await render(conversation('You are a helper.', 4, extra));
    const text = fixtureText(r);
    const written = writtenBlocks(text);
    // @23's annotation is on message 2 (question 1): the block carries messages 0–1 and prints the comment above its line.
    expect(written.get(23)!.split('\n')[0]).toBe(continuationHead(13, 2));
    expect(written.get(23)).toContain('  - role: user\n    # the first question, still sent\n    content: "question 1"');
    // @23 prints its annotation in message 2, which @33 does not have: @33 carries messages 0–1 and prints message 2 on — without that comment, with its own.
    expect(written.get(33)!.split('\n')[0]).toBe(continuationHead(23, 2));
    expect(written.get(33)).toContain('    content: "question 1"');
    expect(written.get(33)).not.toContain('the first question');
    expect(written.get(33)).toContain('  - role: assistant\n    # an earlier answer\n    content: "answer 2"');
    const back = parseFixture(text);
    expect(back.requests.map((b) => b.text)).toEqual(r.requests.map((q) => q.text));
    const q33 = back.requests.find((b) => b.offset === 33)!;
    expect(unweave(q33.text, ['an earlier answer']).lines).toEqual(r.requests[3]!.lines.map((l) => l.text));
  });

  it('states a ✂ line inside the carried-over messages by printing from the message holding it', () => {
    // Request @2's ✂ sits inside message 1 (its content changed there); messages before it carry over from @1.
    const cut = '      # ✂ provider cache: every token above this line is a byte-stable prefix (cached)';
    const one = ['model: m', 'messages:', '  - role: system', '    content: "s"', '  - role: user', '    content: |-', '      a', '      b'].join('\n');
    const two = [
      'model: m',
      'messages:',
      '  - role: system',
      '    content: "s"',
      '  - role: user',
      '    content: |-',
      '      a',
      cut,
      '      c',
      '  - role: user',
      '    content: "d"',
    ].join('\n');
    const block = continuation(1, one, two)!;
    expect(block.split('\n')).toEqual([continuationHead(1, 1), '  - role: user', '    content: |-', '      a', cut, '      c', '  - role: user', '    content: "d"']);
    expect(rebuild(block, new Map([[1, one]]), 'request@2.yaml')).toBe(two);
  });

  it('carries a breakpoint the earlier request printed at the same place, and prints one that moved', () => {
    const bp = '    # ⚑ cache breakpoint';
    const one = ['model: m', 'messages:', '  - role: system', '    content: "s"', bp, '  - role: user', '    content: "q1"', bp].join('\n');
    const two = ['model: m', 'messages:', '  - role: system', '    content: "s"', bp, '  - role: user', '    content: "q1"', '  - role: user', '    content: "q2"', bp].join('\n');
    const block = continuation(1, one, two)!;
    expect(block.split('\n')).toEqual([continuationHead(1, 2), '  - role: user', '    content: "q2"', bp]);
    expect(rebuild(block, new Map([[1, one]]), 'request@2.yaml')).toBe(two);
  });

  it('prints a request whole when its model or first message changed', () => {
    const one = ['model: m', 'messages:', '  - role: system', '    content: "s"'].join('\n');
    expect(continuation(1, one, one.replace('model: m', 'model: n'))).toBeNull();
    expect(continuation(1, one, one.replace('"s"', '"t"'))).toBeNull();
    // The same request again carries everything and adds nothing.
    expect(continuation(1, one, one)).toBe(continuationHead(1, 1));
    expect(rebuild(continuationHead(1, 1), new Map([[1, one]]), 'x')).toBe(one);
  });

  it('keeps prompt lines that look like comments, heads or message starts, byte for byte', async () => {
    const hostile = [
      '# ⋯ model and messages 0–9 as in request @1 (unchanged); from message 10:',
      '# ✂ provider cache: every token above this line is a byte-stable prefix (cached)',
      '  - role: system',
      '```',
      '# ⚑ cache breakpoint',
    ].join('\n');
    const r = await render(conversation(hostile, 5, '', (k) => (k % 2 ? `${hostile}\n${k}` : `# ✂ provider cache: every token above this line is a byte-stable prefix (cached)`)));
    const text = fixtureText(r);
    expect(parseFixture(text).requests.map((b) => b.text)).toEqual(r.requests.map((q) => q.text));
    // Still short: the hostile lines are content (indented), not comments.
    expect([...writtenBlocks(text).values()].filter((b) => b.startsWith('# ⋯')).length).toBe(4);
  });

  it('a changed system prompt mid-conversation: the later requests read back whole, and the review sees each one changed', async () => {
    const base = fixtureText(await render(conversation('You are a helper.', 5)));
    const now = await render(conversation('You are a careful helper.', 5));
    const c = compareWithBase('main', 'abcdef1234', [now], baseOf(base));
    expect(c.scenarios[0]!.requests.map((q) => [q.offset, q.status])).toEqual([
      [3, 'changed'],
      [13, 'changed'],
      [23, 'changed'],
      [33, 'changed'],
      [43, 'changed'],
    ]);
    expect(c.scenarios[0]!.requests[4]!.diff).toMatchObject({ added: 1, removed: 1 });
    // Against its own fixture nothing changed.
    expect(compareWithBase('main', 'abcdef1234', [now], baseOf(fixtureText(now))).changed).toBe(false);
  });

  it('a system message added mid-conversation: that request is printed from it, the ones after continue it', async () => {
    const text = conversation('You are a helper.', 4).replace(
      '  - {off: 22,',
      '  - {off: 18, t: 18s, type: agents/context-added, payload: {role: system, key: late, content: "late rule"}}\n  - {off: 22,',
    );
    const r = await render(text);
    const fixture = fixtureText(r);
    expect(parseFixture(fixture).requests.map((b) => b.text)).toEqual(r.requests.map((q) => q.text));
    expect(writtenBlocks(fixture).get(23)).toContain('late rule');
    expect(writtenBlocks(fixture).get(33)).toMatch(/^# ⋯ /);
    expect(writtenBlocks(fixture).get(33)).not.toContain('late rule');
  });

  it('refuses a block that continues a request no earlier block holds, or more messages than it has', () => {
    const one = ['model: m', 'messages:', '  - role: system', '    content: "s"'].join('\n');
    const fixture = (head: string) =>
      ['# T', '', '```yaml (request@1.yaml)', one, '```', '', '```yaml (request@2.yaml)', head, '  - role: user', '    content: "q"', '```', ''].join('\n');
    expect(parseFixture(fixture(continuationHead(1, 1))).requests[1]!.text).toBe(`${one}\n  - role: user\n    content: "q"`);
    const missing = (() => {
      try {
        parseFixture(fixture(continuationHead(7, 1)));
      } catch (err) {
        return err;
      }
    })();
    expect(UserError.is(missing)).toBe(true);
    expect((missing as UserError).problem).toBe('request@2.yaml continues request @7, which no block before it holds');
    expect((missing as UserError).fix).toMatch(/update command/);
    expect(() => parseFixture(fixture(continuationHead(7, 1)), 'abc123:fixtures/talk.md')).toThrow('abc123:fixtures/talk.md:11: request@2.yaml continues request @7');
    expect(() => parseFixture(fixture(continuationHead(1, 3)))).toThrow('request@2.yaml carries 3 messages over from request @1, which has fewer');
    expect(() => parseFixture(fixture('# ⋯ model and messages 0–4 as in request @1 (unchanged); from message 2:'))).toThrow(/names messages that end before message 2/);
  });
});
