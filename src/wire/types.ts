/**
 * Shapes shared by the provider wire mappings: the request a fold renders (model + messages) and
 * the three provider request formats it can be shown in. Pure data, browser-safe.
 */
import type { Breakpoint, RenderedMessage } from '../folds/types.ts';

/** The provider formats a request can be shown in. */
export const WIRE_FORMATS = ['openai-chat', 'openai-responses', 'anthropic'] as const;
export type WireFormat = (typeof WIRE_FORMATS)[number];

/** What a fold rendered for one request: the model, the messages (with provenance) and the cache breakpoints it carries. */
export interface WireSource {
  model: string;
  messages: readonly RenderedMessage[];
  /** The request's own breakpoints (absent or empty: none — Anthropic then gets the default strategy, breakpoints.ts). */
  breakpoints?: readonly Breakpoint[];
}

/** A JSON value as the mappings build it (objects keep insertion order, so output is deterministic). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The model id a provider receives: the scenario's `provider/` prefix (e.g. `openai/`) removed. */
export function providerModel(model: string): string {
  return model.replace(/^[A-Za-z0-9_.-]+\//, '');
}
