/**
 * The `layered` fold's options (spec "Options"), their defaults, and their strict validation —
 * so the audit's recommendation can be shown as a before/after of option sets. Besides the schema
 * (unknown option, wrong type), the rules: no duplicates in either list, and when the trailing
 * slot ranks mandates (`highest-precedence`, `consolidated`) every mandate sourceType must have a
 * rank in `precedence`.
 */
import * as z from 'zod';
import type { Issue } from '../types.ts';
import { sourceTypeIssue } from './schema.ts';

export const TRAILING_SLOT_MODES = ['join-all', 'highest-precedence', 'consolidated'] as const;
export type TrailingSlotMode = (typeof TRAILING_SLOT_MODES)[number];

export interface LayeredOptions {
  /** sourceTypes pulled out of the inline transcript into the trailing user slot. */
  repairMandateSourceTypes: string[];
  /** How the trailing slot combines several mandates. */
  trailingSlot: TrailingSlotMode;
  /** Mandate ranks, highest first (used by `highest-precedence` and `consolidated`). */
  precedence: string[];
}

export const DEFAULT_OPTIONS: LayeredOptions = {
  repairMandateSourceTypes: ['retryFeedback'],
  trailingSlot: 'join-all',
  precedence: ['recoveryTicket', 'retryFeedback', 'groundingFeedback', 'rejectionFeedback', 'remainingDelta'],
};

export const OPTIONS_SCHEMA = z.strictObject({
  repairMandateSourceTypes: z.array(z.string()),
  trailingSlot: z.enum(TRAILING_SLOT_MODES),
  precedence: z.array(z.string()),
});

function listIssues(name: 'repairMandateSourceTypes' | 'precedence', list: string[]): Issue[] {
  const out: Issue[] = [];
  const seen = new Map<string, number>();
  list.forEach((s, i) => {
    const bad = sourceTypeIssue([name, i], s);
    if (bad) out.push(bad);
    const first = seen.get(s);
    if (first !== undefined) {
      out.push({ path: [name, i], message: `\`${name}\` lists \`${s}\` twice (items ${first} and ${i})`, fix: `remove the second \`${s}\`` });
    } else seen.set(s, i);
  });
  return out;
}

/** The relations between options a schema cannot say (run once the schema passes: defineFold's `checkOptions`). */
export function optionRelations(options: LayeredOptions): Issue[] {
  const out = [...listIssues('repairMandateSourceTypes', options.repairMandateSourceTypes), ...listIssues('precedence', options.precedence)];
  if (options.trailingSlot !== 'join-all') {
    const unranked = options.repairMandateSourceTypes.filter((s) => !options.precedence.includes(s));
    if (unranked.length) {
      out.push({
        path: ['precedence'],
        message: `\`precedence\` does not rank ${unranked.map((s) => `\`${s}\``).join(', ')}, listed in \`repairMandateSourceTypes\` — \`trailingSlot: ${options.trailingSlot}\` orders mandates by \`precedence\``,
        fix: `add ${unranked.map((s) => `\`${s}\``).join(', ')} to \`precedence\` (highest first), or remove ${unranked.length > 1 ? 'them' : 'it'} from \`repairMandateSourceTypes\``,
      });
    }
  }
  return out;
}
