/**
 * Test helpers for the context-protocol fold's unit tests (*.test.ts beside this file): a tiny
 * event-stream builder that hands out increasing offsets and createdAt instants, validates every
 * payload through the fold (so a test can never run on an input the loader would reject), and
 * shortcuts to take snapshots. Not imported by the site.
 */
import type { RenderedMessage, Snapshot, StreamEvent } from '../../src/folds/types.ts';
import { contextProtocol } from '../../src/builtin-folds/context-protocol/index.ts';
import type { MetadataLines } from '../../src/builtin-folds/context-protocol/protocol-prompt.ts';
import type { ContextPayload } from '../../src/builtin-folds/context-protocol/schema.ts';

export const T0 = Date.parse('2026-08-24T16:41:00.000Z');

/** createdAt of the event at `offset` in a Stream: time zero + offset seconds. */
export const timeAt = (offset: number): string => new Date(T0 + offset * 1000).toISOString();

export class Stream {
  readonly events: StreamEvent[] = [];
  private next = 1;

  /** Append an event; offsets default to previous + 1 (pass `offset` to jump ahead). */
  add(type: string, payload: unknown, offset = this.next): number {
    if (offset < this.next) throw new Error(`offset ${offset} does not increase`);
    const issues = contextProtocol.validateEvent(type, payload);
    if (issues.length) throw new Error(`invalid test payload for ${type} @${offset}: ${JSON.stringify(issues)}`);
    this.events.push({ offset, type, createdAt: timeAt(offset), payload });
    this.next = offset + 1;
    return offset;
  }

  ctx(payload: ContextPayload, offset?: number): number {
    return this.add('agents/context-added', payload, offset);
  }
  section(key: string, content: string, role: ContextPayload['role'] = 'system', extra: Partial<ContextPayload> = {}): number {
    return this.ctx({ role, key, content, ...extra });
  }
  user(content: string, extra: Partial<ContextPayload> = {}): number {
    return this.ctx({ role: 'user', content, actor: { type: 'user', origin: 'web' }, ...extra });
  }
  dev(content: string, extra: Partial<ContextPayload> = {}): number {
    return this.ctx({ role: 'developer', content, ...extra });
  }
  system(content: string, extra: Partial<ContextPayload> = {}): number {
    return this.ctx({ role: 'system', content, ...extra });
  }
  assistant(content: string, llmRequestOffset?: number): number {
    return this.ctx({ role: 'assistant', content, ...(llmRequestOffset === undefined ? {} : { llmRequestOffset }) });
  }
  request(model = 'test/model'): number {
    return this.add('agent/llm-request-requested', { model });
  }
  settle(requestOffset: number, status: 'succeeded' | 'failed' | 'cancelled' = 'succeeded'): number {
    return this.add('agent/llm-request-settled', { requestOffset, result: { status } });
  }
  /** request + assistant reply + settlement: one complete exchange. Returns the request offset. */
  exchange(reply: string): number {
    const r = this.request();
    this.assistant(reply, r);
    this.settle(r);
    return r;
  }
  rewrite(op: 'replace' | 'delete', key: string, content?: string): number {
    return this.add('agents/context-rewritten', { op, key, ...(content === undefined ? {} : { content }) });
  }
  compact(content: string, replacesHistoryThrough: number): number {
    return this.ctx({ role: 'developer', content, llmRequestPolicy: 'dont-trigger-request', compaction: { replacesHistoryThrough } });
  }
  get last(): number {
    return this.next - 1;
  }
}

export function snapshots(events: readonly StreamEvent[], at: readonly number[], metadataLines: MetadataLines = 'synthesized-only'): Snapshot[] {
  return contextProtocol.snapshots(events, { metadataLines }, new Set(at));
}

/** The snapshot as of one offset. */
export function snap(s: Stream, offset = s.last, metadataLines: MetadataLines = 'synthesized-only'): Snapshot {
  const [one] = snapshots(s.events, [offset], metadataLines);
  if (!one) throw new Error(`no event @${offset}`);
  return one;
}

/** `[role, content]` of every message after the protocol prompt (standing document first). */
export const rc = (msgs: readonly RenderedMessage[]): [string, string][] => msgs.slice(1).map((m) => [m.role, m.content]);

/** The standing document's content. */
export const doc = (sn: Snapshot): string => sn.messages[1]!.content;

/** The timeline: `[role, content]` of every message after the standing document. */
export const timeline = (sn: Snapshot): [string, string][] => sn.messages.slice(2).map((m) => [m.role, m.content]);

export const sec = (key: string, content: string, supersedes?: number): string =>
  `<section key="${key}"${supersedes === undefined ? '' : ` supersedes="@${supersedes}"`}>\n${content}\n</section>`;

export const stamp = (offset: number): [string, string] => ['developer', `Requested at: ${timeAt(offset)}`];
