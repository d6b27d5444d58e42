/** The runtime fold check agrees with the Fold type: required members required, optional hooks optional but typed. */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { checkFold } from './check.ts';

const minimal = {
  id: 'mini',
  title: 'Mini',
  description: 'The least a fold must have.',
  defaults: {},
  eventTypes: ['send'],
  requestTypes: ['send'],
  validateOptions: () => [],
  validateEvent: () => [],
  snapshots: () => [],
};

describe('checkFold', () => {
  it('accepts every built-in fold and a fold without any optional hook (abridgements included)', () => {
    for (const fold of BUILTIN_FOLDS.values()) expect(checkFold(fold), fold.id).toEqual([]);
    expect(checkFold(minimal)).toEqual([]);
  });

  it('names the missing members and the wrongly typed ones', () => {
    const { snapshots: _s, title: _t, ...rest } = minimal;
    expect(checkFold(rest)).toEqual(['missing title, snapshots']);
    expect(checkFold({ ...minimal, eventTypes: 'send', abridgements: [] })).toEqual(['`eventTypes` is string, not a list', '`abridgements` is array, not a function']);
    expect(checkFold({ ...minimal, id: 'Mini Fold' })).toEqual(['`id` "Mini Fold" is not [a-z0-9-]+']);
    expect(checkFold(undefined)).toEqual(["the module's default export (or `fold` export) is undefined, not a fold object"]);
  });
});
