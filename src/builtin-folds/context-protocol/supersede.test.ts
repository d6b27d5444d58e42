/**
 * The `supersedingSections` option: `timeline` (default, the reference platform's rule)
 * appends a sent key's re-add at the tail with `supersedes`, so the previous request stays a
 * byte-stable prefix; `standing-document` puts the newest text in place of the key's first
 * occurrence — the leading system message changes — and later occurrences render nothing.
 */
import { describe, expect, it } from 'vitest';
import { contextProtocol } from './index.ts';
import { protocolPrompt } from './protocol-prompt.ts';
import { doc, sec, stamp, Stream, timeline } from '../../../tests/support/context-protocol.ts';
import type { SupersedingSections } from './supersede.ts';

const at = (s: Stream, offsets: number[], supersedingSections: SupersedingSections) =>
  contextProtocol.snapshots(s.events, { metadataLines: 'synthesized-only', supersedingSections }, new Set(offsets));

/** Birth (two sections), a first exchange, a re-add of `rules`, a second request. */
function stream() {
  const s = new Stream();
  const rules = s.section('rules', 'rev 1');
  s.section('style', 'be brief');
  s.user('hi');
  const r1 = s.exchange('hello');
  const readd = s.section('rules', 'rev 2');
  s.user('next');
  const r2 = s.request();
  return { s, rules, r1, readd, r2 };
}

describe('supersedingSections', () => {
  it('timeline (default): the re-add is a system message at the tail; the first request is a byte-stable prefix of the second', () => {
    const { s, rules, r1, readd, r2 } = stream();
    const [a, b] = at(s, [r1, r2], 'timeline');
    expect(doc(b!)).toBe(`${sec('rules', 'rev 1')}\n\n${sec('style', 'be brief')}`);
    expect(timeline(b!).slice(-3)).toEqual([['system', sec('rules', 'rev 2', rules)], ['user', 'next'], stamp(r2)]);
    for (const [i, m] of a!.messages.entries()) expect(b!.messages[i]).toEqual(m);
    expect(b!.messages.at(-3)!.parts[0]!.from).toEqual([readd]);
    // The default is the same as leaving the option out (what the golden files pin).
    expect(at(s, [r2], 'timeline')[0]!.messages).toEqual(contextProtocol.snapshots(s.events, { metadataLines: 'synthesized-only' }, new Set([r2]))[0]!.messages);
  });

  it('standing-document: the newest text replaces the first occurrence in the leading system message; nothing is appended', () => {
    const { s, r1, readd, r2 } = stream();
    const [a, b] = at(s, [r1, r2], 'standing-document');
    expect(doc(a!)).toBe(`${sec('rules', 'rev 1')}\n\n${sec('style', 'be brief')}`);
    expect(doc(b!)).toBe(`${sec('rules', 'rev 2')}\n\n${sec('style', 'be brief')}`);
    expect(b!.messages[1]!.parts.map((p) => p.from)).toEqual([[readd], [], [2]]);
    expect(timeline(b!)).toEqual([['user', 'hi'], stamp(r1), ['assistant', 'hello'], ['user', 'next'], stamp(r2)]);
    expect(b!.messages.some((m) => m.content.includes('supersedes='))).toBe(false);
    // The protocol prompt (message 0) is the only message the two requests still share.
    expect(b!.messages[0]).toEqual(a!.messages[0]);
    expect(b!.messages[1]!.content).not.toBe(a!.messages[1]!.content);
  });

  it('standing-document: a key first added after the conversation started is updated where it first appeared, in its role', () => {
    const s = new Stream();
    s.section('rules', 'rev 1');
    s.user('hi');
    const r1 = s.exchange('hello');
    s.section('late', 'first', 'developer');
    s.user('again');
    const r2 = s.exchange('ok');
    const readd = s.section('late', 'second', 'developer');
    s.user('more');
    const r3 = s.request();
    const [c] = at(s, [r3], 'standing-document');
    expect(timeline(c!)).toEqual([
      ['user', 'hi'],
      stamp(r1),
      ['assistant', 'hello'],
      ['developer', sec('late', 'second')],
      ['user', 'again'],
      stamp(r2),
      ['assistant', 'ok'],
      ['user', 'more'],
      stamp(r3),
    ]);
    expect(c!.messages[5]!.parts[0]!.from).toEqual([readd]);
  });

  it('standing-document: an un-sent coalesce, a rewrite and a delete behave as under timeline', () => {
    const s = new Stream();
    s.section('rules', 'draft');
    s.section('rules', 'rev 1'); // un-sent: coalesces in place
    s.user('hi');
    const r1 = s.exchange('hello');
    s.rewrite('replace', 'rules', 'rewritten');
    s.user('go');
    const r2 = s.exchange('ok');
    s.rewrite('delete', 'rules');
    s.user('bye');
    const r3 = s.request();
    for (const mode of ['timeline', 'standing-document'] as const) {
      const [a, b, c] = at(s, [r1, r2, r3], mode);
      expect(doc(a!)).toBe(sec('rules', 'rev 1'));
      expect(doc(b!)).toBe(sec('rules', 'rewritten'));
      expect(doc(c!)).toBe('');
    }
  });

  it('the protocol prompt says how an updated section reads under each value, and the stand-in says which', () => {
    expect(protocolPrompt('synthesized-only')).toMatch(/Nothing in it is ever edited in place/);
    expect(protocolPrompt('synthesized-only', 'standing-document')).toMatch(/Each section shows its newest text/);
    expect(protocolPrompt('synthesized-only', 'standing-document')).not.toMatch(/supersedes=/);
    const s = new Stream();
    s.user('hi');
    const options = { metadataLines: 'synthesized-only', supersedingSections: 'standing-document' } as const;
    const [ab] = contextProtocol.abridgements(options);
    expect(ab!.text).toBe(contextProtocol.snapshots(s.events, options, new Set([s.last]))[0]!.messages[0]!.content);
    expect(ab!.standIn).toMatch(/^AGENT_CONTEXT_PROTOCOL_PROMPT \(sections updated in place\) — /);
    expect(contextProtocol.abridgements({ metadataLines: 'every-item', supersedingSections: 'standing-document' })[0]!.standIn).toMatch(
      /\(every item carries a metadata line; sections updated in place\)/,
    );
  });
});
