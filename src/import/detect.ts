/**
 * Which provider format a request body is, from its shape: each registered adapter's `detect`
 * (src/providers/registry.ts) says whether the body fits it, or why not. A body two formats fit
 * (Chat Completions and Anthropic Messages share `messages` of user and assistant turns) stays open
 * until another line decides; if none does, an adapter's `tieBreak` that every body satisfies
 * picks it (Anthropic: `max_tokens` on every body, which it requires), else the first in order.
 */
import { PROVIDERS, type ProviderId as RequestFormat } from '../providers/registry.ts';
import type { ProviderAdapter } from '../providers/types.ts';

/** Display names of the formats, by id (the adapters' titles). */
export const FORMAT_TITLES = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.title])) as Record<RequestFormat, string>;

const adapters: readonly ProviderAdapter[] = PROVIDERS;

/** The formats a body fits, or why it fits none. */
export function candidates(body: Record<string, unknown>): RequestFormat[] | { problem: string } {
  const fits: RequestFormat[] = [];
  const why: string[] = [];
  for (const p of adapters) {
    if (!p.detect) continue;
    const r = p.detect(body);
    if (r === true) fits.push(p.id as RequestFormat);
    else why.push(`not ${p.title}: ${r}`);
  }
  return fits.length ? fits : { problem: why.join('; ') };
}

/** Among formats every body fits, the one the bodies decide (a tie-break they all satisfy), else the first. */
export function tieBreak(allowed: readonly RequestFormat[], bodies: readonly Record<string, unknown>[]): RequestFormat {
  const pick = adapters.find((p) => allowed.includes(p.id as RequestFormat) && p.tieBreak && bodies.every((b) => p.tieBreak!(b)));
  return (pick?.id as RequestFormat | undefined) ?? allowed[0]!;
}
