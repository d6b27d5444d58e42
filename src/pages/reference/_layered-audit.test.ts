/**
 * The context-role audit's inventory (_layered-audit.ts, shown on /reference/layered-placement/):
 * every row's destination, computed by the layered fold's own placement rules, is where the audit
 * says it renders today, and under the recommended options every escalation lands in the trailing
 * slot. (The `_` prefix keeps this file out of the site's routes.)
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../builtin-folds/layered/options.ts';
import { placeEntry } from '../../builtin-folds/layered/placement.ts';
import { AUDIT_ROWS, RECOMMENDED_OPTIONS } from './_layered-audit.ts';

describe('the audit inventory', () => {
  it('covers each sourceType once per variant', () => {
    const keys = AUDIT_ROWS.flatMap((r) => r.sourceTypes.map((s) => `${s}/${r.variant ?? ''}`));
    expect(new Set(keys).size).toBe(keys.length);
  });

  for (const row of AUDIT_ROWS) {
    it(`${row.id}: renders today where the audit says (${row.auditSaysToday}); the recommendation moves it into the slot only if it is an escalation`, () => {
      for (const sourceType of row.sourceTypes) {
        expect(placeEntry({ ...row.today, sourceType }, DEFAULT_OPTIONS).destination).toBe(row.auditSaysToday);
        const after = placeEntry({ ...row.recommended, sourceType }, RECOMMENDED_OPTIONS).destination;
        if (row.moves) expect(after).toBe('slot');
        else if (sourceType === 'retryFeedback') expect(after).toBe('slot');
        else expect(after).toBe(row.auditSaysToday);
        // "No move into system is recommended anywhere."
        if (row.auditSaysToday !== 'system') expect(after).not.toBe('system');
      }
    });
  }
});
