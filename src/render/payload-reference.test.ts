/**
 * The generated payload reference cannot go stale: every event type of every bundled fold (and the
 * example fold) is documented from the fold's own schemas, and every example it shows is accepted
 * by the fold's validator. Field rows carry types, allowed values and required/optional.
 */
import { describe, expect, it } from 'vitest';
import { contextProtocol } from '../builtin-folds/context-protocol/index.ts';
import { layered } from '../builtin-folds/layered/index.ts';
import { requests } from '../builtin-folds/requests/index.ts';
import { chatLog } from '../../examples/folds/chat-log.ts';
import type { AnyFold } from '../folds/types.ts';
import { foldReference } from './payload-reference.ts';

const FOLDS: AnyFold[] = [contextProtocol, layered, requests, chatLog];

describe('payload reference', () => {
  for (const fold of FOLDS) {
    it(`${fold.id}: documents every event type with an example the fold accepts`, async () => {
      const ref = await foldReference(fold);
      expect(ref.types.map((t) => t.type)).toEqual([...fold.eventTypes]);
      for (const t of ref.types) {
        expect(t.documented, t.type).toBe(true);
        expect(t.description, t.type).toBeTruthy();
        expect(fold.validateEvent(t.type, t.example), `${t.type} example ${JSON.stringify(t.example)}`).toEqual([]);
        expect(t.exampleYaml).toContain(`type: ${t.type}`);
      }
      expect(ref.rules.length).toBeGreaterThan(0);
      // Every option with a default is documented (an optional one without a default too, from the schema), and the defaults pass the fold's own option check.
      const top = ref.options.filter((o) => o.depth === 0).map((o) => o.path);
      expect(top).toEqual(expect.arrayContaining(Object.keys(fold.defaults)));
      expect(fold.validateOptions(ref.defaults)).toEqual([]);
    });
  }

  it('shows types, allowed values and required vs optional from the schema', async () => {
    const ref = await foldReference(contextProtocol);
    const added = ref.types.find((t) => t.type === 'agents/context-added')!;
    const row = (path: string) => added.fields.find((f) => f.path === path);
    expect(row('role')).toMatchObject({ required: true, allowed: ['system', 'developer', 'user', 'assistant'] });
    expect(row('key')).toMatchObject({ required: false, type: 'text (not empty)' });
    expect(row('llmRequestOffset')).toMatchObject({ required: false, type: 'whole number ≥ 0' });
    expect(row('actor')!.type).toContain('tagged by `type`: `user`, `agent`, `script`');
    expect(row('actor (type: user).origin')).toMatchObject({ required: true, allowed: ['web', 'mcp'] });
    expect(row('refs[] (type: event).offset')).toMatchObject({ required: true });
    expect(row('sections')!.description).toContain('alternative form');
    const settled = ref.types.find((t) => t.type === 'agent/llm-request-settled')!;
    expect(settled.fields.find((f) => f.path === 'result.status')).toMatchObject({ required: true, allowed: ['succeeded', 'failed', 'cancelled'] });
    expect(ref.types.find((t) => t.type === 'agent/llm-request-requested')!.isRequest).toBe(true);
    expect(ref.types.find((t) => t.type === 'agent/created')!.freeForm).toBe(true);
    expect(ref.options).toEqual([
      expect.objectContaining({ path: 'metadataLines', required: false, allowed: ['synthesized-only', 'every-item'] }),
      expect.objectContaining({ path: 'supersedingSections', required: false, allowed: ['timeline', 'standing-document'] }),
    ]);
  });

  it('a fold without the hooks still lists its event types, undocumented', async () => {
    const { payloadSchemas: _p, optionsSchema: _o, rules: _r, ...bare } = chatLog;
    const ref = await foldReference(bare as AnyFold);
    expect(ref.types.map((t) => [t.type, t.documented])).toEqual([
      ['message', false],
      ['send', false],
    ]);
    expect(ref.options).toEqual([]);
    expect(ref.rules).toEqual([]);
  });

  it('the schema notes name fields that exist (a renamed field fails here, not silently)', async () => {
    const { payloadJsonSchemas } = await import('../folds/json-schema.ts');
    const z = await import('zod');
    expect(() => payloadJsonSchemas({ x: z.strictObject({ a: z.string() }) }, { x: { fields: { b: 'gone' } } })).toThrow(/no field b/);
  });
});
