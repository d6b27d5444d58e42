/**
 * The playground's URL state round-trips any text exactly (a pasted link reopens the same edit), a
 * damaged link is an explained refusal, and the text edits behind the fold switcher and the
 * download button change only the line they mean to.
 */
import { describe, expect, it } from 'vitest';
import { decodeHash, encodeState, forDownload, idOf, setFold } from './state.ts';

describe('URL state', () => {
  it('round-trips text, file and selected event', () => {
    const text = 'id: x\ntitle: "ünïcödé ✂ </script> #s=  \\n"\n\tevents: []\n'.repeat(50);
    const hash = encodeState({ file: 'scenarios/02-x.yaml', text, selected: 31 });
    expect(hash).toMatch(/^#s=[A-Za-z0-9+\-$]+@31$/);
    expect(decodeHash(hash)).toEqual({ kind: 'state', state: { file: 'scenarios/02-x.yaml', text, selected: 31 } });
    expect(hash.length).toBeLessThan(text.length); // compressed
    expect(encodeState({ file: 'scenarios/02-x.yaml', text })).toBe(hash.replace(/@31$/, ''));
  });

  it('refuses damaged and foreign links with a reason', () => {
    const hash = encodeState({ file: 'scenarios/a.yaml', text: 'id: a\n' });
    expect(decodeHash(hash.slice(0, -3))).toMatchObject({ kind: 'bad' });
    expect(decodeHash('#@31')).toMatchObject({ kind: 'bad', reason: expect.stringContaining('not a playground link') });
    expect(decodeHash('')).toEqual({ kind: 'none' });
  });

  it('opens a scenario by id, optionally at an event', () => {
    expect(decodeHash('#open=sent-re-add')).toEqual({ kind: 'open', id: 'sent-re-add' });
    expect(decodeHash('#open=sent-re-add@40')).toEqual({ kind: 'open', id: 'sent-re-add', selected: 40 });
    expect(decodeHash('#open=<script>')).toMatchObject({ kind: 'bad' });
  });
});

describe('text edits', () => {
  it('sets the fold: replaces it, or adds it after the id', () => {
    expect(setFold('id: a\nfold: layered\ntitle: t\n', 'context-protocol')).toBe('id: a\nfold: context-protocol\ntitle: t\n');
    expect(setFold('id: a\ntitle: t\n', 'layered')).toBe('id: a\nfold: layered\ntitle: t\n');
    expect(setFold('  fold: nested\n', 'layered')).toBe('fold: layered\n  fold: nested\n');
  });

  it('gives a download a fresh id when the site already has it', () => {
    const taken = new Set(['a', 'a-edited']);
    expect(forDownload('id: a\ntitle: t\n', taken)).toEqual({ name: 'a-edited-2.yaml', text: 'id: a-edited-2\ntitle: t\n', id: 'a-edited-2' });
    expect(forDownload('id: b\n', taken)).toEqual({ name: 'b.yaml', text: 'id: b\n', id: 'b' });
    expect(idOf('title: x\nid: "q-1" # c\n')).toBe('q-1');
  });
});
