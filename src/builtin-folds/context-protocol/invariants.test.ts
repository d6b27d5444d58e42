/**
 * The fold's invariants (the byte-superset rule of src/pages/reference/context-protocol.mdx, "The cache"), one `it` each, on hand-built
 * event streams. Assertions compare exact rendered strings, so a change in ordering, quoting or
 * metadata lines fails here before it reaches the golden-file conformance test.
 */
import { describe, expect, it } from 'vitest';
import { printRequest } from '../../prompt/print.ts';
import { contextProtocol } from './index.ts';
import { doc, rc, sec, snap, snapshots, stamp, Stream, timeAt, timeline } from '../../../tests/support/context-protocol.ts';

const lines = (msgs: Parameters<typeof printRequest>[1]): string[] => printRequest(null, msgs, contextProtocol.abridgements(contextProtocol.defaults)).map((l) => l.text);

describe('invariants', () => {
  it('byte-superset: absent rewrites and compaction, request k+1 starts with request k byte for byte', () => {
    const s = new Stream();
    s.section('identity', 'You are an agent.');
    s.section('rules', 'Be terse.\nReally.');
    s.user('hi — what can you do?');
    const r1 = s.exchange('Plenty.');
    s.dev('script finished', { actor: { type: 'script', executionId: 'ex-1' } });
    s.section('rules', 'Be terse v2.'); // sent → tail with supersedes
    s.section('late', 'a first-ever key after the conversation');
    s.dev('a ping from slack', { actor: { type: 'slack', userId: 'U1' }, refs: [{ type: 'file', path: '/w/a.txt' }] });
    const r2 = s.exchange('Noted.');
    s.user('files!', { files: [{ contentType: 'text/plain', filename: 'a.txt', path: '/w/a.txt', size: 3, url: 'https://x/a.txt' }] });
    s.section('late', 'late v2'); // sent → tail
    s.section('late', 'late v3'); // un-sent → coalesces into the v2 slot
    s.dev('from a parent', { actor: { type: 'agent', path: '/agents/parent' } });
    const r3 = s.request();

    for (const mode of ['synthesized-only', 'every-item'] as const) {
      const snaps = snapshots(s.events, [r1, r2, r3], mode);
      expect(snaps.map((x) => x.request?.model)).toEqual(['test/model', 'test/model', 'test/model']);
      for (let k = 1; k < snaps.length; k++) {
        const before = snaps[k - 1]!.messages;
        const after = snaps[k]!.messages;
        expect(after.length).toBeGreaterThan(before.length);
        expect(after.slice(0, before.length)).toEqual(before);
        const [a, b] = [lines(before), lines(after)];
        expect(b.slice(0, a.length)).toEqual(a);
        expect(b.length).toBeGreaterThan(a.length);
      }
    }
  });

  it('first-appearance order: the standing document lists keys in the order they first appeared', () => {
    const s = new Stream();
    const z = s.section('zeta', 'Z');
    const a1 = s.section('alpha', 'A1');
    const m = s.section('mu', 'M');
    const a2 = s.section('alpha', 'A2'); // re-add before any send: newest content, oldest slot
    const sn = snap(s);
    expect(doc(sn)).toBe([sec('zeta', 'Z'), sec('alpha', 'A2'), sec('mu', 'M')].join('\n\n'));
    expect(sn.messages[1]!.parts.filter((p) => p.from.length).map((p) => p.from)).toEqual([[z], [a2], [m]]);
    expect(a1).toBeLessThan(a2);
    expect(timeline(sn)).toEqual([]);
  });

  it('un-sent coalesce keeps the slot, and keeps `supersedes`', () => {
    const s = new Stream();
    const b1 = s.section('b', 'B1');
    s.section('c', 'C1');
    s.user('go');
    const r = s.exchange('ok');
    const b2 = s.section('b', 'B2'); // sent → tail, supersedes @b1
    const u = s.user('between');
    const b3 = s.section('b', 'B3'); // b2 un-sent → coalesces at b2's slot, BEFORE the @u message
    const sn = snap(s);
    expect(timeline(sn)).toEqual([['user', 'go'], stamp(r), ['assistant', 'ok'], ['system', sec('b', 'B3', b1)], ['user', 'between']]);
    // the slot now holds @b3's content; the supersedes attribute still names b1, not b2
    expect(sn.messages[5]!.parts).toEqual([{ text: sec('b', 'B3', b1), from: [b3] }]);
    expect(b2).toBeLessThan(u);
    expect(doc(sn)).toBe([sec('b', 'B1'), sec('c', 'C1')].join('\n\n'));
  });

  it('sent re-add lands at the tail with `supersedes` naming the previous (sent) occurrence', () => {
    const s = new Stream();
    const a1 = s.section('a', 'A1');
    s.section('b', 'B1');
    s.user('hi');
    s.exchange('hello');
    const a2 = s.section('a', 'A2');
    const sn = snap(s);
    expect(doc(sn)).toBe([sec('a', 'A1'), sec('b', 'B1')].join('\n\n')); // the v1 copy is untouched
    expect(timeline(sn).at(-1)).toEqual(['system', sec('a', 'A2', a1)]);
    s.user('again');
    s.exchange('sure');
    s.section('a', 'A3'); // chains: supersedes the newest occurrence (@a2), not the first
    expect(timeline(snap(s)).at(-1)).toEqual(['system', sec('a', 'A3', a2)]);
  });

  it('first-ever key after the conversation lands in the timeline without `supersedes`', () => {
    const s = new Stream();
    s.section('a', 'A');
    s.user('hi');
    s.section('fresh', 'before any send, but after a message'); // the leading run already ended
    const r = s.exchange('hello');
    s.section('later', 'after a send');
    const sn = snap(s);
    expect(doc(sn)).toBe(sec('a', 'A'));
    expect(timeline(sn)).toEqual([
      ['user', 'hi'],
      ['system', sec('fresh', 'before any send, but after a message')],
      stamp(r),
      ['assistant', 'hello'],
      ['system', sec('later', 'after a send')],
    ]);
  });

  it('rewrite replace changes past positions (the cached prefix breaks)', () => {
    const s = new Stream();
    s.section('a', 'A1');
    s.section('b', 'B1');
    s.user('hi');
    const r1 = s.exchange('hello');
    s.section('a', 'A2'); // tail, supersedes
    s.user('more');
    const r2 = s.exchange('sure');
    const w = s.rewrite('replace', 'a', 'A-rewritten');
    s.user('after the rewrite');
    const r3 = s.request();
    const [, before, after] = snapshots(s.events, [r1, r2, r3]);
    // the new occurrence sits at the key's FIRST position; the tail copy is gone
    expect(doc(after!)).toBe([sec('a', 'A-rewritten'), sec('b', 'B1')].join('\n\n'));
    expect(after!.messages[1]!.parts[0]).toEqual({ text: sec('a', 'A-rewritten'), from: [w] });
    expect(timeline(after!)).toEqual([
      ['user', 'hi'],
      stamp(r1),
      ['assistant', 'hello'],
      ['user', 'more'],
      stamp(r2),
      ['assistant', 'sure'],
      ['user', 'after the rewrite'],
      stamp(r3),
    ]);
    expect(after!.messages.slice(0, before!.messages.length)).not.toEqual(before!.messages);
    expect(after!.messages[1]).not.toEqual(before!.messages[1]);
  });

  it('rewrite replace takes the role of the key’s latest occurrence (or system), sits at the first occurrence, and never triggers', () => {
    const s = new Stream();
    s.section('a', 'A');
    s.user('hi');
    const r = s.exchange('hello');
    const n1 = s.section('notes', 'N1', 'system'); // first-ever after the conversation: a timeline section
    s.user('more');
    const r2 = s.exchange('ok');
    s.section('notes', 'N2', 'developer', { llmRequestPolicy: 'dont-trigger-request' }); // tail, supersedes @n1; latest role: developer
    const w = s.rewrite('replace', 'notes', 'N-rewritten');
    const g = s.rewrite('replace', 'ghost', 'never existed'); // appended at the tail, as system
    const sn = snap(s);
    expect(timeline(sn)).toEqual([
      ['user', 'hi'],
      stamp(r),
      ['assistant', 'hello'],
      ['developer', sec('notes', 'N-rewritten')],
      ['user', 'more'],
      stamp(r2),
      ['assistant', 'ok'],
      ['system', sec('ghost', 'never existed')],
    ]);
    expect(sn.messages[5]!.parts[0]!.from).toEqual([w]);
    expect(sn.messages.at(-1)!.parts[0]!.from).toEqual([g]);
    expect(n1).toBeLessThan(w);
    s.request();
    expect(snap(s).rejected?.reason).toMatch(/no trigger is pending/);
  });

  it('delete KEY removes every occurrence of the key, and only it', () => {
    const s = new Stream();
    s.section('a', 'A1');
    s.section('b', 'B1');
    s.user('hi');
    const r = s.exchange('hello');
    s.section('a', 'A2');
    s.section('b', 'B2');
    s.rewrite('delete', 'a');
    const sn = snap(s);
    expect(doc(sn)).toBe(sec('b', 'B1'));
    expect(timeline(sn)).toEqual([['user', 'hi'], stamp(r), ['assistant', 'hello'], ['system', sec('b', 'B2', 2)]]);
    expect(sn.messages.some((m) => m.content.includes('key="a"'))).toBe(false);
    // with no occurrence left, a re-add is a first-ever key again: no supersedes
    s.section('a', 'A3');
    expect(timeline(snap(s)).at(-1)).toEqual(['system', sec('a', 'A3')]);
  });

  it('delete `*` empties the whole list: standing document, timeline and stamps', () => {
    const s = new Stream();
    s.section('a', 'A1');
    s.user('hi');
    s.exchange('hello');
    s.section('a', 'A2');
    s.system('a system note');
    const before = snap(s);
    expect(before.messages.length).toBeGreaterThan(2);
    s.rewrite('delete', '*');
    const sn = snap(s);
    expect(sn.messages.slice(1)).toEqual([{ role: 'system', content: '', parts: [] }]);
    // the next key starts a new standing document (nothing precedes it)
    s.section('b', 'B');
    s.user('fresh start');
    const r = s.request();
    const after = snap(s);
    expect(after.request).toEqual({ model: 'test/model' });
    expect(rc(after.messages)).toEqual([['system', sec('b', 'B')], ['user', 'fresh start'], stamp(r)]);
  });

  it('compaction rebuild: newest section per key, system messages, the summary, then the later stamps and non-system messages', () => {
    const s = new Stream();
    const a1 = s.section('a', 'A1');
    const b = s.section('b', 'B1');
    s.user('u1'); // ≤ cutoff: dropped
    const r1 = s.request(); // ≤ cutoff: dropped
    s.assistant('reply 1', r1); // dropped
    s.settle(r1);
    const sys1 = s.system('system note 1'); // kept (all unkeyed system messages)
    const a2 = s.section('a', 'A2'); // newest 'a', loses its supersedes
    s.dev('dev note'); // ≤ cutoff: dropped
    const cutoff = s.last;
    const r2 = s.request(); // after cutoff: kept
    s.assistant('reply 2', r2); // kept
    s.settle(r2);
    s.user('u2'); // kept
    const c = s.section('c', 'C1'); // a timeline section → collapsed into the leading run
    const sys2 = s.system('system note 2'); // system message after the cutoff: part (2), not part (4)
    s.section('b', 'B2', 'system'); // un-sent → tail superseding section … collapsed to newest
    const b2 = s.last;
    const summary = s.compact('Summary of everything through the cutoff.', cutoff);
    const sn = snap(s, summary);
    expect(doc(sn)).toBe([sec('a', 'A2'), sec('b', 'B2'), sec('c', 'C1')].join('\n\n'));
    expect(sn.messages[1]!.parts.filter((p) => p.from.length).map((p) => p.from)).toEqual([[a2], [b2], [c]]);
    expect(timeline(sn)).toEqual([
      ['system', `@${sys1}\nsystem note 1`],
      ['system', `@${sys2}\nsystem note 2`],
      ['user', `@${summary}\nSummary of everything through the cutoff.`],
      stamp(r2),
      ['assistant', 'reply 2'],
      ['user', 'u2'],
    ]);
    expect(a1).toBeLessThan(a2);
    expect(b).toBeLessThan(b2);
  });

  it('compaction raises lastRequestOffset to the cutoff, so items through the cutoff count as sent', () => {
    const s = new Stream();
    s.section('a', 'A1');
    s.user('hi');
    s.exchange('hello');
    const k = s.section('k', 'K1'); // un-sent, after the last send
    const summary = s.compact('summary', k); // cutoff = @k > lastRequestOffset
    s.section('k', 'K2'); // k is now sent → tail with supersedes, not a coalesce
    const sn = snap(s);
    expect(doc(sn)).toBe([sec('a', 'A1'), sec('k', 'K1')].join('\n\n'));
    expect(timeline(sn)).toEqual([
      ['user', `@${summary}\nsummary`],
      ['system', sec('k', 'K2', k)],
    ]);
  });

  it('compaction is ignored when replacesHistoryThrough ≥ its own offset', () => {
    for (const delta of [0, 1, 100]) {
      const s = new Stream();
      s.section('a', 'A1');
      s.user('hi');
      s.exchange('hello');
      s.section('a', 'A2');
      const before = snap(s);
      const offset = s.last + 1;
      s.compact('summary', offset + delta);
      expect(snap(s, offset).messages).toEqual(before.messages);
    }
  });

  it('demotion keeps the metadata line: third-party developer items render as user WITH the line; agent/script stay developer', () => {
    const s = new Stream();
    const cases = [
      [{ type: 'slack', userId: 'U1' }, 'user', 'slack:"U1"'],
      [{ type: 'telegram', username: 'tg' }, 'user', 'telegram:"tg"'],
      [{ type: 'email', address: 'a@b.c' }, 'user', 'email:"a@b.c"'],
      [{ type: 'github', login: 'octo' }, 'user', 'github:"octo"'],
      [{ type: 'integration', name: 'linear' }, 'user', 'integration:"linear"'],
      [{ type: 'user', origin: 'web' }, 'user', 'user:web'],
      [{ type: 'script', executionId: 'ex-9' }, 'developer', 'script:"ex-9"'],
    ] as const;
    const offsets = cases.map(([actor]) => s.dev('payload text', { actor }));
    const plain = s.dev('no actor');
    const sn = snap(s);
    expect(timeline(sn)).toEqual([
      ...cases.map(([, role, actor], i): [string, string] => [role, `@${offsets[i]} actor=${actor}\npayload text`]),
      ['developer', `@${plain}\nno actor`],
    ]);
    // the agent actor stays developer too (its reply line is covered in render.test.ts)
    const agent = s.dev('hi', { actor: { type: 'agent', path: '/agents/p' } });
    const last = snap(s).messages.at(-1)!;
    expect(last.role).toBe('developer');
    expect(last.content.startsWith(`@${agent} actor=agent:"/agents/p"\n`)).toBe(true);
  });

  it('refs force the metadata line on user and assistant items', () => {
    const s = new Stream();
    const u = s.user('see this', { refs: [{ type: 'file', path: '/w/a.txt' }] });
    s.ctx({ role: 'user', content: 'no refs', actor: { type: 'user', origin: 'web' } });
    s.ctx({ role: 'user', content: 'empty refs', refs: [] });
    const a = s.ctx({ role: 'assistant', content: 'done', refs: [{ type: 'git-commit', repoPath: '/repos/x', commitOid: 'abc' }] });
    s.ctx({ role: 'assistant', content: 'bare reply' });
    expect(timeline(snap(s))).toEqual([
      ['user', `@${u} actor=user:web refs=["file:/w/a.txt"]\nsee this`],
      ['user', 'no refs'],
      ['user', 'empty refs'],
      ['assistant', `@${a} refs=["/repos/x@abc"]\ndone`],
      ['assistant', 'bare reply'],
    ]);
  });

  it('`every-item` puts the line on every message; `synthesized-only` only on system/developer/ref-carrying ones', () => {
    const s = new Stream();
    s.section('a', 'A');
    const u = s.user('hi');
    const f = s.user('with a file', { files: [{ contentType: 'image/png', filename: 'p.png', path: '/w/p.png', size: 10, url: 'https://x/p.png' }] });
    const r = s.request();
    const as = s.assistant('hello', r);
    s.settle(r);
    const sy = s.system('sys');
    const d = s.dev('dev', { actor: { type: 'email', name: 'Ann' } });
    const late = s.section('late', 'L', 'developer');
    const [synth] = snapshots(s.events, [late], 'synthesized-only');
    const [every] = snapshots(s.events, [late], 'every-item');
    expect(timeline(synth!)).toEqual([
      ['user', 'hi'],
      ['user', 'with a file'],
      stamp(r),
      ['assistant', 'hello'],
      ['system', `@${sy}\nsys`],
      ['user', `@${d} actor=email:"Ann"\ndev`],
      ['developer', sec('late', 'L')],
    ]);
    expect(timeline(every!)).toEqual([
      ['user', `@${u} actor=user:web\nhi`],
      ['user', `@${f} actor=user:web\nwith a file`],
      stamp(r),
      ['assistant', `@${as}\nhello`],
      ['system', `@${sy}\nsys`],
      ['user', `@${d} actor=email:"Ann"\ndev`],
      ['developer', sec('late', 'L')], // sections never carry a metadata line
    ]);
    // the protocol prompt says which items carry the line, so it differs between the modes
    expect(synth!.messages[0]!.content).not.toBe(every!.messages[0]!.content);
    expect(synth!.messages[0]!.content).toMatch(/User and assistant turns are shown exactly as written/);
    expect(every!.messages[0]!.content).toMatch(/Every timeline item starts with one protocol metadata line/);
  });

  describe('an unaccepted requested event renders nothing and says why', () => {
    it('no pending trigger', () => {
      const s = new Stream();
      s.section('a', 'A');
      s.system('system items never trigger');
      const before = snap(s);
      s.request();
      const sn = snap(s);
      expect(sn.request).toBeUndefined();
      expect(sn.rejected?.reason).toMatch(/no trigger is pending/);
      expect(sn.rejected?.reason).not.toMatch(/paused|still open/);
      expect(sn.messages).toEqual(before.messages); // no stamp
    });

    it('an unsettled open request', () => {
      const s = new Stream();
      s.user('one');
      const r = s.request();
      s.user('two'); // a trigger IS pending …
      s.request(); // … but @r is still open
      const sn = snap(s);
      expect(sn.request).toBeUndefined();
      expect(sn.rejected?.reason).toMatch(new RegExp(`request @${r} is still open`));
      expect(sn.rejected?.reason).not.toMatch(/paused|no trigger/);
      expect(timeline(sn)).toEqual([['user', 'one'], stamp(r), ['user', 'two']]);
      // settling it lets the pending trigger through
      s.settle(r);
      const r2 = s.request();
      expect(snap(s).request).toEqual({ model: 'test/model' });
      expect(timeline(snap(s)).at(-1)).toEqual(stamp(r2));
    });

    it('paused', () => {
      const s = new Stream();
      s.user('hi');
      const p = s.add('agent/paused', {});
      s.request();
      const sn = snap(s);
      expect(sn.request).toBeUndefined();
      expect(sn.rejected?.reason).toMatch(new RegExp(`paused \\(since @${p}\\)`));
      expect(sn.rejected?.reason).not.toMatch(/still open|no trigger/);
      // the trigger survives the rejection: after resuming, the next request is accepted
      s.add('agent/resumed', {});
      const r = s.request();
      expect(snap(s).request).toEqual({ model: 'test/model' });
      expect(timeline(snap(s))).toEqual([['user', 'hi'], stamp(r)]);
    });

    it('several reasons at once are all named', () => {
      const s = new Stream();
      s.user('hi');
      s.request();
      s.add('agent/paused', {});
      s.request();
      const reason = snap(s).rejected?.reason ?? '';
      expect(reason).toMatch(/paused/);
      expect(reason).toMatch(/still open/);
      expect(reason).toMatch(/no trigger is pending/);
    });

    it('a rejected request marks nothing as sent: a re-add still coalesces in place', () => {
      const s = new Stream();
      s.section('a', 'A1');
      s.request(); // rejected: nothing pending
      const a2 = s.section('a', 'A2');
      const sn = snap(s);
      expect(doc(sn)).toBe(sec('a', 'A2'));
      expect(sn.messages[1]!.parts).toEqual([{ text: sec('a', 'A2'), from: [a2] }]);
      expect(timeline(sn)).toEqual([]);
      expect(timeAt(a2)).toBe(s.events.at(-1)!.createdAt);
    });
  });
});
