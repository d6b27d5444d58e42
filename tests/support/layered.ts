/**
 * Test helpers for the `layered` fold: build event lists tersely and render them through the
 * fold's public `snapshots`, so each test reads as the scenario it checks.
 */
import type { RenderedMessage, Snapshot, StreamEvent } from '../../src/folds/types.ts';
import { layered } from '../../src/builtin-folds/layered/index.ts';
import { DEFAULT_OPTIONS, type LayeredOptions } from '../../src/builtin-folds/layered/options.ts';
import type { EntryRole, Layer } from '../../src/builtin-folds/layered/schema.ts';

const T0 = '2026-08-24T16:41:00.000Z';

export const ev = (offset: number, type: string, payload: unknown): StreamEvent => ({ offset, type, createdAt: T0, payload });

export const add = (offset: number, layer: Layer, role: EntryRole, sourceType: string, content: string, ordinal?: number): StreamEvent =>
  ev(offset, 'entry/added', { layer, role, sourceType, content, ...(ordinal !== undefined && { ordinal }) });
export const update = (offset: number, ordinal: number, content: string): StreamEvent => ev(offset, 'entry/updated', { ordinal, content });
export const remove = (offset: number, ordinal: number): StreamEvent => ev(offset, 'entry/removed', { ordinal });
export const send = (offset: number, model = 'test/model'): StreamEvent => ev(offset, 'request', { model });

/** Every snapshot (one per event). */
export function snapshotsOf(events: StreamEvent[], options: Partial<LayeredOptions> = {}, at?: number[]): Snapshot[] {
  return layered.snapshots(events, { ...DEFAULT_OPTIONS, ...options }, new Set(at ?? events.map((e) => e.offset)));
}

/** The messages as of the last event. */
export function render(events: StreamEvent[], options: Partial<LayeredOptions> = {}): RenderedMessage[] {
  return snapshotsOf(events, options).at(-1)!.messages;
}

/** `role: content` per message — compact to assert on. */
export const brief = (messages: RenderedMessage[]): string[] => messages.map((m) => `${m.role}: ${m.content}`);
