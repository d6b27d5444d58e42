/**
 * Validation of the `layered` fold's event payloads and options: unknown field, wrong type, missing
 * field, the rules a schema cannot say — each issue with its path, message and fix.
 */
import { describe, expect, it } from 'vitest';
import { layered } from './index.ts';
import { DEFAULT_OPTIONS, type LayeredOptions } from './options.ts';

const entry = { layer: 'L1', role: 'USER', sourceType: 'agentPrompt', content: 'task' };
const opts = (o: Record<string, unknown>): LayeredOptions => ({ ...DEFAULT_OPTIONS, ...o }) as LayeredOptions;

describe('layered event validation', () => {
  it('accepts well-formed payloads of every event type', () => {
    expect(layered.validateEvent('entry/added', entry)).toEqual([]);
    expect(layered.validateEvent('entry/added', { ...entry, ordinal: 0 })).toEqual([]);
    expect(layered.validateEvent('entry/updated', { ordinal: 3, content: '' })).toEqual([]);
    expect(layered.validateEvent('entry/removed', { ordinal: 3 })).toEqual([]);
    expect(layered.validateEvent('request', { model: 'm' })).toEqual([]);
    expect(layered.eventTypes).toEqual(['entry/added', 'entry/updated', 'entry/removed', 'request']);
    expect(layered.requestTypes).toEqual(['request']);
  });

  it('an unknown field names it and lists the allowed ones', () => {
    expect(layered.validateEvent('entry/added', { ...entry, key: 'x' })).toEqual([
      { path: ['key'], message: 'unknown field `key`', fix: 'remove it or fix its spelling; allowed here: layer, role, sourceType, content, ordinal' },
    ]);
  });

  it('a wrong type says what it must be and what it got', () => {
    expect(layered.validateEvent('entry/updated', { ordinal: 'seven', content: 'x' })).toEqual([
      { path: ['ordinal'], message: '`ordinal` must be a whole number, got the string "seven"', fix: 'make `ordinal` a whole number' },
    ]);
    expect(layered.validateEvent('entry/added', { ...entry, ordinal: 1.5 })).toEqual([
      { path: ['ordinal'], message: '`ordinal` must be a whole number, got number 1.5', fix: 'make `ordinal` a whole number' },
    ]);
    expect(layered.validateEvent('entry/added', { ...entry, layer: 'L4' })).toEqual([
      { path: ['layer'], message: '`layer` is the string "L4", which is not allowed', fix: 'use one of: "L0", "L1", "L2", "L3"' },
    ]);
    expect(layered.validateEvent('entry/added', { ...entry, role: 'user' })).toEqual([
      { path: ['role'], message: '`role` is the string "user", which is not allowed — did you mean `USER`?', fix: 'use one of: "SYSTEM", "USER", "ASSISTANT", "TOOL"' },
    ]);
  });

  it('a missing field says what to add', () => {
    expect(layered.validateEvent('entry/added', { layer: 'L1', role: 'USER', content: 'x' })).toEqual([
      { path: ['sourceType'], message: 'missing required field `sourceType`', fix: 'add `sourceType:` with a string' },
    ]);
    expect(layered.validateEvent('entry/removed', {})).toEqual([{ path: ['ordinal'], message: 'missing required field `ordinal`', fix: 'add `ordinal:` with a whole number' }]);
    expect(layered.validateEvent('request', {})).toEqual([{ path: ['model'], message: 'missing required field `model`', fix: 'add `model:` with a string' }]);
  });

  it('rules a schema cannot say: a sourceType is one word; a model is not empty', () => {
    const [bad] = layered.validateEvent('entry/added', { ...entry, sourceType: 'steeringNote (locked)' });
    expect(bad).toMatchObject({ path: ['sourceType'], fix: expect.stringContaining('as one word, e.g. `retryFeedback`') });
    expect(bad!.message).toMatch(/^`sourceType` is "steeringNote \(locked\)", which is not a sourceType/);
    expect(layered.validateEvent('request', { model: ' ' })).toEqual([
      { path: ['model'], message: '`model` is empty', fix: 'name the model this send goes to, e.g. `model: anthropic/claude-sonnet-5`' },
    ]);
  });
});

describe('layered option validation', () => {
  it('the defaults are valid, and so is the audit’s recommended set', () => {
    expect(layered.validateOptions(DEFAULT_OPTIONS)).toEqual([]);
    expect(
      layered.validateOptions(
        opts({
          repairMandateSourceTypes: ['retryFeedback', 'recoveryTicket', 'remainingDelta', 'groundingFeedback', 'rejectionFeedback'],
          trailingSlot: 'highest-precedence',
        }),
      ),
    ).toEqual([]);
  });

  it('unknown option, wrong type, unknown mode', () => {
    expect(layered.validateOptions(opts({ trailing: 'join-all' }))).toEqual([
      {
        path: ['trailing'],
        message: 'unknown field `trailing` — did you mean `trailingSlot`?',
        fix: 'remove it or fix its spelling; allowed here: repairMandateSourceTypes, trailingSlot, precedence, lateSystem, lastBreakpoint, breakpointTtl',
      },
    ]);
    expect(layered.validateOptions(opts({ repairMandateSourceTypes: 'retryFeedback' }))).toEqual([
      { path: ['repairMandateSourceTypes'], message: '`repairMandateSourceTypes` must be a list, got the string "retryFeedback"', fix: 'make `repairMandateSourceTypes` a list' },
    ]);
    expect(layered.validateOptions(opts({ trailingSlot: 'priority' }))).toEqual([
      { path: ['trailingSlot'], message: '`trailingSlot` is the string "priority", which is not allowed', fix: 'use one of: "join-all", "highest-precedence", "consolidated"' },
    ]);
  });

  it('duplicates, and a mandate without a rank when the slot ranks mandates', () => {
    expect(layered.validateOptions(opts({ repairMandateSourceTypes: ['retryFeedback', 'retryFeedback'] }))).toEqual([
      { path: ['repairMandateSourceTypes', 1], message: '`repairMandateSourceTypes` lists `retryFeedback` twice (items 0 and 1)', fix: 'remove the second `retryFeedback`' },
    ]);
    const unranked = opts({ repairMandateSourceTypes: ['retryFeedback', 'artifactRepair'], trailingSlot: 'consolidated' });
    expect(layered.validateOptions(unranked)).toEqual([
      {
        path: ['precedence'],
        message: '`precedence` does not rank `artifactRepair`, listed in `repairMandateSourceTypes` — `trailingSlot: consolidated` orders mandates by `precedence`',
        fix: 'add `artifactRepair` to `precedence` (highest first), or remove it from `repairMandateSourceTypes`',
      },
    ]);
    expect(layered.validateOptions({ ...unranked, trailingSlot: 'join-all' })).toEqual([]);
  });
});
