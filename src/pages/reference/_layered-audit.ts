/**
 * The context-role audit's inventory (src/pages/reference/layered.mdx, "The audit's four recommendations") as data: per
 * producer sourceType, the layer and role it is produced with today, what the audit recommends,
 * where the audit says it renders, and the audit's reason in its own words. The placement table
 * page computes the destinations from these layer/role pairs with the layered fold's placement.ts (under the default
 * options and under RECOMMENDED_OPTIONS), so the fold — not this file — decides where an entry
 * goes; a test checks the computed destinations against what the audit says.
 */
import { DEFAULT_OPTIONS, type LayeredOptions } from '../../builtin-folds/layered/options.ts';
import type { Destination } from '../../builtin-folds/layered/placement.ts';
import type { EntryRole, Layer } from '../../builtin-folds/layered/schema.ts';

export interface Produced {
  layer: Layer;
  role: EntryRole;
}

export interface AuditRow {
  /** Stable id of the row (a sourceType, or a sourceType plus its variant). */
  id: string;
  /** The sourceTypes the row covers (several producers may share one row). */
  sourceTypes: string[];
  /** Which variant, when one sourceType has two producers (the locked/unlocked steering note). */
  variant?: string;
  /** Where the audit found the producer. */
  producer: string;
  today: Produced;
  /** Where the audit says it renders today. */
  auditSaysToday: Destination;
  /** The audit's verdict, as it words it ("keep", "→ USER + trailing", …). */
  verdict: string;
  /** Produced with this layer/role after the recommendation (the same as `today` for "keep"). */
  recommended: Produced;
  /** The audit's rationale, quoted. */
  reason: string;
  /** True when the recommendation changes the producer (recommendation 1). */
  moves: boolean;
  /** A row this fold does not model faithfully, and why. */
  outsideModel?: string;
}

const L1_USER: Produced = { layer: 'L1', role: 'USER' };

/** The audit's recommendations 1 and 2: the four escalations re-roled and in the slot, one mandate at a time. */
export const RECOMMENDED_OPTIONS: LayeredOptions = {
  ...DEFAULT_OPTIONS,
  repairMandateSourceTypes: ['retryFeedback', 'recoveryTicket', 'remainingDelta', 'groundingFeedback', 'rejectionFeedback'],
  trailingSlot: 'highest-precedence',
};

export const AUDIT_ROWS: readonly AuditRow[] = [
  {
    id: 'retryFeedback',
    sourceTypes: ['retryFeedback'],
    producer: 'ContextFeedback.kt:34',
    today: L1_USER,
    auditSaysToday: 'slot',
    verdict: 'keep',
    recommended: L1_USER,
    moves: false,
    reason: 'Reference implementation (#293).',
  },
  {
    id: 'recoveryTicket',
    sourceTypes: ['recoveryTicket'],
    producer: 'ContextFeedback.kt:118',
    today: { layer: 'L1', role: 'SYSTEM' },
    auditSaysToday: 'system',
    verdict: '→ USER + trailing',
    recommended: L1_USER,
    moves: true,
    reason:
      '⚠️ Highest-value defect. The recovery stage exists only because of this ticket, and its mandate ends up above the whole transcript. Same shape as retryFeedback; got the opposite treatment.',
  },
  {
    id: 'remainingDelta',
    sourceTypes: ['remainingDelta'],
    producer: 'ContextFeedback.kt:186',
    today: { layer: 'L1', role: 'SYSTEM' },
    auditSaysToday: 'system',
    verdict: '→ USER + trailing',
    recommended: L1_USER,
    moves: true,
    reason:
      "⚠️ Loop-state, recomputed every turn a write lands. It is the stage's completion signal and it is buried, and mutating it invalidates the cached system prefix each turn — the one cache anti-pattern #312 asked to flag. Trailing is both more salient and cache-safe.",
  },
  {
    id: 'groundingFeedback',
    sourceTypes: ['groundingFeedback'],
    producer: 'ContextFeedback.kt:89',
    today: { layer: 'L1', role: 'SYSTEM' },
    auditSaysToday: 'system',
    verdict: '→ USER + trailing',
    recommended: L1_USER,
    moves: true,
    reason: 'Gate verdict on a returned plan; "emit a corrected plan" is a repair mandate by any reading.',
  },
  {
    id: 'rejectionFeedback',
    sourceTypes: ['rejectionFeedback'],
    producer: 'SessionOrchestratorContext.kt:117',
    today: { layer: 'L2', role: 'SYSTEM' },
    auditSaysToday: 'system',
    verdict: '→ USER + trailing',
    recommended: { layer: 'L2', role: 'USER' },
    moves: true,
    reason: 'Literally operator voice ("the operator declined"). Escalation-grade; the user channel is where it belongs.',
  },
  {
    id: 'steeringNote-locked',
    sourceTypes: ['steeringNote'],
    variant: 'locked',
    producer: 'Context.kt:80',
    today: { layer: 'L0', role: 'SYSTEM' },
    auditSaysToday: 'system',
    verdict: 'keep',
    recommended: { layer: 'L0', role: 'SYSTEM' },
    moves: false,
    reason: 'Already double-anchored.',
  },
  {
    id: 'steeringNote-unlocked',
    sourceTypes: ['steeringNote'],
    variant: 'unlocked',
    producer: 'Context.kt:94, ToolExec.kt:528',
    today: { layer: 'L2', role: 'USER' },
    auditSaysToday: 'inline',
    verdict: 'keep, note inconsistency',
    recommended: { layer: 'L2', role: 'USER' },
    moves: false,
    reason: "The renderer's anchor only catches the SYSTEM variant, so the two steering paths get different salience. Cosmetic, not load-bearing.",
  },
  {
    id: 'artifactRepair',
    sourceTypes: ['artifactRepair'],
    producer: 'Artifacts.kt:132',
    today: { layer: 'L2', role: 'USER' },
    auditSaysToday: 'inline',
    verdict: 'keep',
    recommended: { layer: 'L2', role: 'USER' },
    moves: false,
    reason: 'Isolated tools-less pack; already the last (only) message.',
    outsideModel:
      "An artifact repair runs in its own pack, with no tools and this entry as its only message. This fold models one stage's context and renders every live entry into one request; it has no notion of a separate pack, so no bundled scenario pretends to show one.",
  },
  {
    id: 'criticFeedback',
    sourceTypes: ['criticFeedback', 'neededArtifact'],
    producer: 'Context.kt:444',
    today: L1_USER,
    auditSaysToday: 'inline',
    verdict: 'keep',
    recommended: L1_USER,
    moves: false,
    reason: 'Stage input, not a mid-loop correction. Trailing slot should not carry inputs.',
  },
  {
    id: 'unconfirmedFix',
    sourceTypes: ['unconfirmedFix'],
    producer: 'Concepts.kt:107',
    today: L1_USER,
    auditSaysToday: 'inline',
    verdict: 'keep',
    recommended: L1_USER,
    moves: false,
    reason: 'Advisory, not a mandate.',
  },
  {
    id: 'toolResult',
    sourceTypes: ['toolResult'],
    producer: 'Execution.kt:351/564, ToolExec.kt:215…',
    today: { layer: 'L2', role: 'TOOL' },
    auditSaysToday: 'inline',
    verdict: 'keep',
    recommended: { layer: 'L2', role: 'TOOL' },
    moves: false,
    reason:
      'Routine self-correctable — "target not found", READ_BEFORE_WRITE, patch misses. Lifting these floods the user channel and destroys the effect. Escalation happens on repetition, and that path already exists (STAGE_LOOP_BREAK_GATE → recoveryTicket); #309\'s loop-breaker is the right place, not the per-failure site.',
  },
  {
    id: 'assistantToolCall',
    sourceTypes: ['assistantToolCall'],
    producer: 'ToolExec.kt:205…',
    today: { layer: 'L2', role: 'ASSISTANT' },
    auditSaysToday: 'inline',
    verdict: 'keep',
    recommended: { layer: 'L2', role: 'ASSISTANT' },
    moves: false,
    reason: 'Correct.',
  },
  {
    id: 'initialIntent',
    sourceTypes: ['initialIntent'],
    producer: 'Context.kt:162',
    today: L1_USER,
    auditSaysToday: 'inline',
    verdict: 'keep',
    recommended: L1_USER,
    moves: false,
    reason: 'Doc comment at Context.kt:148 claims "pinned L0 SYSTEM"; code says L1/USER. Comment is stale — fix the comment, not the code (L1/USER is right).',
  },
  {
    id: 'clarificationAnswer',
    sourceTypes: ['clarificationAnswer'],
    producer: 'Context.kt:205',
    today: { layer: 'L0', role: 'SYSTEM' },
    auditSaysToday: 'system',
    verdict: 'keep, flag cache',
    recommended: { layer: 'L0', role: 'SYSTEM' },
    moves: false,
    reason: 'Mutable mid-run (grows per clarification) inside the cached prefix. Low frequency; acceptable.',
  },
  {
    id: 'stable-L0',
    sourceTypes: [
      'schemaInstruction',
      'systemPrompt',
      'operatingGuidance',
      'projectProfile',
      'agentInstructions',
      'operatorProfile',
      'claimedTask',
      'promotedConcept',
      'verifiedBaseline',
      'successfulPlanShape',
    ],
    producer: 'various',
    today: { layer: 'L0', role: 'SYSTEM' },
    auditSaysToday: 'system',
    verdict: 'keep',
    recommended: { layer: 'L0', role: 'SYSTEM' },
    moves: false,
    reason: 'Stable per stage. Correct and cache-friendly.',
  },
  {
    id: 'agentPrompt',
    sourceTypes: ['agentPrompt'],
    producer: 'Execution.kt:120/147',
    today: L1_USER,
    auditSaysToday: 'inline',
    verdict: 'keep',
    recommended: L1_USER,
    moves: false,
    reason: 'The stage task.',
  },
  {
    id: 'reference',
    sourceTypes: ['repoMap', 'docsCatalog', 'relevantFiles', 'decisionJournal'],
    producer: 'Context.kt:289/376, ContextFeedback.kt:245, Execution.kt:189',
    today: { layer: 'L3', role: 'USER' },
    auditSaysToday: 'inline',
    verdict: 'keep',
    recommended: { layer: 'L3', role: 'USER' },
    moves: false,
    reason: 'Reference material; #290 already moved these out of the system fold.',
  },
];
