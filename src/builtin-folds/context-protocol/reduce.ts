/**
 * The context-protocol reducer (src/pages/reference/context-protocol.mdx): folds events one at a time into the reduced state —
 * an offset-ordered list of context items (send stamps, keyed sections, unkeyed messages) plus the
 * request bookkeeping (pending trigger, open request, last sent offset, paused, config).
 *
 * Items are immutable values: a coalesce or rewrite puts a NEW item in the list, so a renderer may
 * cache per item. `latest` indexes each key's newest occurrence so a keyed add costs O(1).
 */
import type { Outcome } from '../../folds/snapshots.ts';
import type { StreamEvent } from '../../folds/types.ts';
import type { ContextPayload, RewritePayload } from './schema.ts';

export type Item =
  | { kind: 'stamp'; offset: number; requestedAt: string }
  | { kind: 'section'; offset: number; key: string; supersedes?: number; payload: ContextPayload }
  | { kind: 'message'; offset: number; payload: ContextPayload };
export type Section = Extract<Item, { kind: 'section' }>;

export type TriggerKind = 'external' | 'agent-loop';
const RETRY_LIMIT = 3;

export class State {
  items: Item[] = [];
  /** Newest accepted request; an item is sent iff its offset ≤ this. */
  lastRequestOffset = -1;
  pendingTrigger: { offset: number; kind: TriggerKind } | null = null;
  openRequest: number | null = null;
  paused: number | null = null;
  config: Record<string, unknown> = {};
  private failedAttempts = 0;
  private latest = new Map<string, Section>();

  /** Apply one validated event. Returns, for a request event, whether it was accepted and why not. */
  apply(e: StreamEvent): Outcome {
    const p = e.payload as Record<string, unknown>;
    switch (e.type) {
      case 'agents/context-added':
        this.contextAdded(e.offset, p as unknown as ContextPayload);
        return;
      case 'agents/context-rewritten':
        this.rewrite(e.offset, p as unknown as RewritePayload);
        return;
      case 'agent/llm-request-requested':
        return this.request(e);
      case 'agent/llm-request-settled':
        this.settle(e.offset, p as { requestOffset: number; result: { status: string } });
        return;
      case 'agent/configured':
        this.config = deepMerge(this.config, p.config as Record<string, unknown>);
        return;
      case 'agent/paused':
        this.paused = e.offset;
        return;
      case 'agent/resumed':
        this.paused = null;
        return;
      default:
        return; // created, script runs, token usage, summary: no effect on the prompt
    }
  }

  /** The newest section of `key` (what a re-add of that key supersedes), if any. */
  latestSection(key: string): Section | undefined {
    return this.latest.get(key);
  }

  /** Sections at the head of the list that form the standing document. */
  standingDocumentLength(): number {
    let n = 0;
    for (const it of this.items) {
      if (it.kind !== 'section' || it.supersedes !== undefined) break;
      n++;
    }
    return n;
  }

  private contextAdded(offset: number, p: ContextPayload): void {
    if (p.compaction) {
      this.compact(offset, p);
      return;
    }
    if (p.key !== undefined) {
      const prev = this.latest.get(p.key);
      if (prev && prev.offset > this.lastRequestOffset) {
        // Un-sent: coalesce in place — same slot, same supersedes, new payload and offset.
        const next: Section = { ...prev, offset, payload: p };
        this.items[this.items.indexOf(prev)] = next;
        this.latest.set(p.key, next);
      } else {
        const next: Section = { kind: 'section', offset, key: p.key, payload: p };
        if (prev) next.supersedes = prev.offset;
        this.items.push(next);
        this.latest.set(p.key, next);
      }
    } else {
      if (p.role === 'assistant' && p.llmRequestOffset !== undefined && p.llmRequestOffset !== this.openRequest) return;
      this.items.push({ kind: 'message', offset, payload: p });
    }
    this.noteTrigger(offset, p);
  }

  private noteTrigger(offset: number, p: ContextPayload): void {
    if (p.role === 'system' || p.role === 'assistant' || p.llmRequestPolicy === 'dont-trigger-request') return;
    const internal = p.role === 'developer' && (!p.actor || p.actor.type === 'agent' || p.actor.type === 'script');
    this.pendingTrigger = { offset, kind: internal ? 'agent-loop' : 'external' };
  }

  private request(e: StreamEvent): Outcome {
    const why: string[] = [];
    if (this.paused !== null) why.push(`the agent is paused (since @${this.paused}) — add an \`agent/resumed\` event before it`);
    if (this.openRequest !== null) why.push(`request @${this.openRequest} is still open — settle it first with \`agent/llm-request-settled\` {requestOffset: ${this.openRequest}}`);
    if (!this.pendingTrigger) why.push('no trigger is pending — nothing since the last send asked for a request (add a user or developer item that may trigger)');
    if (why.length) return { accepted: false, reason: why.join('; ') };
    this.pendingTrigger = null;
    this.openRequest = e.offset;
    this.lastRequestOffset = e.offset;
    this.items.push({ kind: 'stamp', offset: e.offset, requestedAt: e.createdAt });
    return { accepted: true, model: (e.payload as { model: string }).model };
  }

  private settle(offset: number, p: { requestOffset: number; result: { status: string } }): void {
    if (p.requestOffset !== this.openRequest) return;
    this.openRequest = null;
    if (p.result.status === 'failed') {
      this.failedAttempts++;
      if (this.failedAttempts < RETRY_LIMIT) this.pendingTrigger = { offset, kind: 'agent-loop' };
    } else {
      this.failedAttempts = 0;
    }
  }

  private rewrite(offset: number, p: RewritePayload): void {
    if (p.op === 'delete' && p.key === '*') {
      this.items = [];
    } else if (p.op === 'delete') {
      this.items = this.items.filter((it) => !(it.kind === 'section' && it.key === p.key));
    } else {
      const role = this.latest.get(p.key)?.payload.role ?? 'system';
      const next: Section = { kind: 'section', offset, key: p.key, payload: { role, key: p.key, content: p.content ?? '' } };
      const first = this.items.findIndex((it) => it.kind === 'section' && it.key === p.key);
      if (first < 0) this.items.push(next);
      else this.items = this.items.flatMap((it, i) => (i === first ? [next] : it.kind === 'section' && it.key === p.key ? [] : [it]));
    }
    this.reindex();
  }

  private compact(offset: number, p: ContextPayload): void {
    const cutoff = p.compaction!.replacesHistoryThrough;
    if (cutoff >= offset) return;
    this.lastRequestOffset = Math.max(this.lastRequestOffset, cutoff);
    const newest = new Map<string, Section>();
    for (const it of this.items) if (it.kind === 'section') newest.set(it.key, it); // Map keeps first-insertion order
    const sections: Item[] = [...newest.values()].map(({ supersedes: _dropped, ...s }) => s);
    const systemMessages = this.items.filter((it) => it.kind === 'message' && it.payload.role === 'system');
    const after = this.items.filter((it) => it.offset > cutoff && (it.kind === 'stamp' || (it.kind === 'message' && it.payload.role !== 'system')));
    this.items = [...sections, ...systemMessages, { kind: 'message', offset, payload: p }, ...after];
    this.reindex();
  }

  private reindex(): void {
    this.latest.clear();
    for (const it of this.items) if (it.kind === 'section') this.latest.set(it.key, it);
  }
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = isPlain(prev) && isPlain(v) ? deepMerge(prev, v) : v;
  }
  return out;
}
const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
