/** defineFold derives the event types, validation and JSON Schemas from the fold's zod schemas. */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { checkFold } from './check.ts';
import { defineFold } from './define.ts';
import { UserError } from '../errors.ts';
import { thrown } from '../../tests/support/thrown.ts';

const Note = z.strictObject({ text: z.string().min(1) });
const fold = defineFold<{ limit: number }>({
  id: 'notes',
  title: 'Notes',
  description: 'Every note so far.',
  defaults: { limit: 3 },
  requestTypes: ['send'],
  payloads: { note: Note, send: z.strictObject({}) },
  authored: { note: z.union([Note, z.strictObject({ texts: z.array(z.string()) })]) },
  notes: { note: { description: 'One note.', fields: { text: 'What it says.' } } },
  options: z.strictObject({ limit: z.int().min(1) }),
  checkOptions: (o) => (o.limit > 10 ? [{ path: ['limit'], message: '`limit` is more than 10', fix: 'lower it' }] : []),
  snapshots: () => [],
});

describe('defineFold', () => {
  it('is a fold, with its event types from the payload schemas and no abridgements hook', () => {
    expect(checkFold(fold)).toEqual([]);
    expect(fold.eventTypes).toEqual(['note', 'send']);
    expect(fold.abridgements).toBeUndefined();
  });

  it('validates payloads and options from the schemas, with the field and the fix', async () => {
    expect(fold.validateEvent('note', { text: 'x' })).toEqual([]);
    expect(fold.validateEvent('note', { text: '' })).toEqual([{ path: ['text'], message: '`text` must not be empty', fix: 'give it a value' }]);
    expect(fold.validateEvent('note', { txt: 'x', text: 'y' })[0]!.message).toContain('unknown field `txt`');
    expect((await fold.validateOptions({ limit: 0 }))[0]!.path).toEqual(['limit']);
    expect(await fold.validateOptions({ limit: 11 })).toEqual([{ path: ['limit'], message: '`limit` is more than 10', fix: 'lower it' }]);
  });

  it('publishes the authored form’s JSON Schema with its notes, and the options schema', () => {
    const note = fold.payloadSchemas!().note as { description: string; anyOf: { properties: Record<string, { description?: string }> }[] };
    expect(note.description).toBe('One note.');
    expect(note.anyOf[0]!.properties.text!.description).toBe('What it says.');
    expect(note.anyOf[1]!.properties.texts).toBeDefined();
    expect(fold.optionsSchema!()).toMatchObject({ type: 'object', properties: { limit: { type: 'integer', minimum: 1 } } });
  });

  it('refuses a request type without a payload schema: the author’s error, with its fix', () => {
    const err = thrown(() => defineFold({ ...fold, id: 'x', payloads: { note: Note }, requestTypes: ['send'] } as never));
    expect(UserError.is(err)).toBe(true);
    expect((err as UserError).problem).toBe('defineFold(x): request types send have no payload schema');
    expect((err as UserError).fix).toBe('add a zod schema for `send` to `payloads` (a request is an event, validated like the others), or remove it from `requestTypes`');
  });

  it('refuses a field note on a field its schema does not have', () => {
    const err = thrown(() => defineFold({ ...fold, id: 'y', payloads: { note: Note, send: z.strictObject({}) }, notes: { note: { fields: { txt: 'a typo of text' } } } } as never));
    expect(UserError.is(err)).toBe(true);
    expect((err as UserError).problem).toBe('payload notes for note: no field txt in its schema');
    expect((err as UserError).fix).toContain('name a field of the `note` schema in `notes.note.fields`');
  });
});
