/**
 * Request parameters as a cache dimension (docs/cache-economics.md, "What the provider would cache"): the parameters a captured
 * request sent (its provider adapter's `params`, e.g. Anthropic `tool_choice`, thinking, images),
 * and what a change between two requests invalidates (the profile's cache strategy's `invalidates`:
 * the entries beyond the tools and system stay readable on Anthropic). Only a request event that
 * carries a provider body (`{format, body}`, the `requests` fold's payload) has parameters; a fold's
 * own requests send none. Nothing here names a provider.
 */
import { providerOf } from '../providers/registry.ts';
import type { Invalidation, RequestParams } from '../providers/types.ts';
import type { RenderedScenario } from '../prompt/render.ts';
import type { Shape } from './shape.ts';

const NONE: RequestParams = {};

/** Parameters by request offset, for the request events whose payload is a provider body. */
export function requestParams(r: RenderedScenario): Map<number, RequestParams> {
  const out = new Map<number, RequestParams>();
  for (const e of r.scenario.chain) {
    const p = e.payload as { format?: unknown; body?: unknown } | null;
    if (!p || typeof p.format !== 'string' || typeof p.body !== 'object' || p.body === null) continue;
    const params = providerOf(p.format)?.params?.(p.body as Record<string, unknown>);
    if (params) out.set(e.offset, params);
  }
  return out;
}

/** Tokens of the leading messages whose roles are all in `roles` (the tools and system levels). */
export function leadingTokens(shape: Shape, roles: readonly string[]): number {
  let k = 0;
  while (k < shape.messages.length && roles.includes(shape.messages[k]!.role)) k++;
  return shape.cum[k]!;
}

/** What a parameter change between two requests invalidates under `invalidates`, or undefined. */
export function paramChange(
  invalidates: (before: RequestParams, after: RequestParams, tokensBefore: (roles: readonly string[]) => number) => Invalidation | undefined,
  before: RequestParams | undefined,
  after: RequestParams | undefined,
  shape: Shape,
): Invalidation | undefined {
  return invalidates(before ?? NONE, after ?? NONE, (roles) => leadingTokens(shape, roles));
}
