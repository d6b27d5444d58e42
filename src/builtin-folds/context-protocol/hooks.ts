/**
 * The context-protocol fold's optional hooks: its `sections:` batch syntax (one authored
 * `agents/context-added` event standing for one keyed event per section), the derived `expiresAt`
 * of requests and script runs, and how its events read on their timeline cards.
 */
import * as z from 'zod';
import type { AuthoredEvent, EventDescription, Expansion, StreamEvent } from '../../folds/types.ts';
import { schemaIssues } from '../../folds/validate.ts';
import { State } from './reduce.ts';

/** The only event type whose payload may carry a `sections:` batch. */
const BATCH_TYPE = 'agents/context-added';
/** Event types whose payload gets a derived `expiresAt` (createdAt + 30 s) when the author omits it. */
const EXPIRING_TYPES = new Set(['agent/llm-request-requested', 'capability-host/script-run-requested']);
const EXPIRY_MS = 30_000;

const sectionsSchema = z.array(z.strictObject({ key: z.string(), content: z.string() })).min(1);
/** Made once: zod compiles a schema's checks on its first use, so a schema made per call was compiled again for every batch. */
const batchSchema = z.strictObject({ sections: sectionsSchema });

/** `sections: [{key, content}, …]` → one keyed event per section at off, off+1, … */
export function expand(e: AuthoredEvent): Expansion {
  const { sections, ...shared } = e.payload;
  if (e.type !== BATCH_TYPE || sections === undefined) return { events: [{ payload: e.payload }] };
  const issues = schemaIssues(batchSchema, { sections });
  for (const k of ['key', 'content']) {
    if (k in shared) issues.push({ path: [k], message: `a \`sections\` batch cannot also have \`${k}\``, fix: `move \`${k}:\` into each section entry, or drop \`sections:\`` });
  }
  if (issues.length) return { events: [], issues };
  const list = sections as { key: string; content: string }[];
  return {
    batch: true,
    events: list.map((s, i) => ({ payload: { ...shared, key: s.key, content: s.content }, at: ['sections', i], ownFields: ['key', 'content'] })),
  };
}

/** Requests and script runs expire 30 s after they are created unless the author says otherwise. */
export function derive(e: AuthoredEvent): Record<string, unknown> {
  if (!EXPIRING_TYPES.has(e.type) || e.payload.expiresAt !== undefined) return e.payload;
  return { ...e.payload, expiresAt: new Date(Date.parse(e.createdAt) + EXPIRY_MS).toISOString() };
}

function preview(p: Record<string, unknown>): string | undefined {
  const pick = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const result = p.result as Record<string, unknown> | undefined;
  const settlement = p.settlement as Record<string, unknown> | undefined;
  return (
    pick(p.content) ??
    pick(p.model) ??
    pick(p.code) ??
    (result ? `${String(result.status)}${typeof result.text === 'string' ? ` — ${result.text}` : ''}` : undefined) ??
    (settlement ? String(settlement.status) : undefined) ??
    (p.op ? `${String(p.op)} ${String(p.key)}` : undefined)
  );
}

function badges(type: string, p: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof p.role === 'string') out.push(p.role);
  if (typeof p.key === 'string') out.push(`key=${p.key}`);
  const actor = p.actor as { type?: string } | undefined;
  if (actor?.type) out.push(`actor=${actor.type}`);
  if (Array.isArray(p.refs) && p.refs.length) out.push(`refs×${p.refs.length}`);
  if (Array.isArray(p.files) && p.files.length) out.push(`files×${p.files.length}`);
  if (p.compaction) out.push('compaction');
  if (type === 'agents/context-rewritten') out.push('⚠ rewrite');
  return out;
}

/** Cards: the payload's text, its role/key/actor badges, and the occurrence a keyed re-add supersedes. */
export function describe(events: readonly StreamEvent[]): EventDescription[] {
  const state = new State();
  return events.map((e) => {
    state.apply(e);
    const p = (e.payload ?? {}) as Record<string, unknown>;
    const d: EventDescription = { badges: badges(e.type, p) };
    const text = preview(p);
    if (text !== undefined) d.preview = text; // else the generic preview: the fields as YAML, never raw JSON (folds/hooks.ts)
    const section = e.type === BATCH_TYPE && typeof p.key === 'string' ? state.latestSection(p.key) : undefined;
    if (section?.offset === e.offset && section.supersedes !== undefined) d.links = [{ label: 'supersedes', offset: section.supersedes }];
    return d;
  });
}
