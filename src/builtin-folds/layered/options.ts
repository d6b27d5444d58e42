/**
 * The `layered` fold's options (spec "Options"), their defaults, and their strict validation —
 * so the audit's recommendation can be shown as a before/after of option sets. Besides the schema
 * (unknown option, wrong type), the rules: no duplicates in either list, and when the trailing
 * slot ranks mandates (`highest-precedence`, `consolidated`) every mandate sourceType must have a
 * rank in `precedence`.
 */
import * as z from 'zod';
import type { Issue } from '../../folds/types.ts';
import { sourceTypeIssue } from './schema.ts';

export const TRAILING_SLOT_MODES = ['join-all', 'highest-precedence', 'consolidated'] as const;
export type TrailingSlotMode = (typeof TRAILING_SLOT_MODES)[number];

/** Where a system entry that arrives after the first send goes (and how the steering reminder is re-emitted). */
export const LATE_SYSTEM_MODES = ['leading-system', 'mid-conversation'] as const;
export type LateSystemMode = (typeof LATE_SYSTEM_MODES)[number];

/** Where the renderer puts its last cache breakpoint. */
export const LAST_BREAKPOINT_MODES = ['transcript', 'final-message'] as const;
export type LastBreakpointMode = (typeof LAST_BREAKPOINT_MODES)[number];

export interface LayeredOptions {
  /** sourceTypes pulled out of the inline transcript into the trailing user slot. */
  repairMandateSourceTypes: string[];
  /** How the trailing slot combines several mandates. */
  trailingSlot: TrailingSlotMode;
  /** Mandate ranks, highest first (used by `highest-precedence` and `consolidated`). */
  precedence: string[];
  /**
   * `leading-system` (today): every system entry is folded into the leading system message, and the
   * steering reminder is re-emitted as a trailing user turn. `mid-conversation`: nothing sent is
   * rewritten — a system entry added after the first send is sent as a `system` message at its
   * place in the transcript, an update of a sent system entry is appended as a `system` message
   * where it happened (the entry keeps its sent text), and the reminder goes out as a trailing
   * `system` message — so the earlier messages stay a byte-stable prefix (Anthropic's
   * mid-conversation system messages, on the models that accept them).
   */
  lateSystem: LateSystemMode;
  /**
   * `transcript` (today): the last breakpoint is on the last transcript message, before the
   * reminder and the slot, which are re-rendered every turn. `final-message`: on the request's
   * final message, whatever it is — when that is a turn re-rendered every time (a reminder), the
   * entry written there is never read again (the trap of a trailing reminder carrying the last
   * breakpoint).
   */
  lastBreakpoint: LastBreakpointMode;
  /** Retention the breakpoints ask for (Anthropic `ttl`): '5m' or '1h'; absent: the provider's default. */
  breakpointTtl?: '5m' | '1h';
}

export const DEFAULT_OPTIONS: LayeredOptions = {
  repairMandateSourceTypes: ['retryFeedback'],
  trailingSlot: 'join-all',
  precedence: ['recoveryTicket', 'retryFeedback', 'groundingFeedback', 'rejectionFeedback', 'remainingDelta'],
  lateSystem: 'leading-system',
  lastBreakpoint: 'transcript',
};

export const OPTIONS_SCHEMA = z.strictObject({
  repairMandateSourceTypes: z.array(z.string()),
  trailingSlot: z.enum(TRAILING_SLOT_MODES),
  precedence: z.array(z.string()),
  lateSystem: z.enum(LATE_SYSTEM_MODES),
  lastBreakpoint: z.enum(LAST_BREAKPOINT_MODES),
  breakpointTtl: z.enum(['5m', '1h']).optional(),
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
