/**
 * Request features a model may reject (docs/cache-economics.md, "What the provider would cache"): the profile's provider adapter
 * says which features a request uses (Anthropic: a mid-conversation system message), and the
 * profile's catalog entry which of them the model accepts (`features`). A request using one the
 * model does not accept is one the API rejects: no figure, a located error with its fix
 * (expect.ts checkApiErrors). Nothing here names a provider.
 */
import { adapterOfStrategy } from '../providers/registry.ts';
import type { Rejection } from '../providers/types.ts';
import type { Profile } from './shipped-profiles.ts';

/** The first feature of the request the profile's model rejects: the message that uses it, and why. */
export function rejectedFeature(p: Profile, messages: readonly { role: string }[]): { message: number; feature: string; rejection: Rejection } | undefined {
  return adapterOfStrategy(p.cache)
    ?.features?.(messages)
    .find((f) => !p.features?.[f.feature]?.value);
}
