/**
 * Shapes shared by the wire views: the request a fold renders (model + messages) and the provider
 * formats it can be shown in — every provider's wire face (src/providers/wire-faces.ts), in registry
 * order. Pure data, browser-safe.
 */
import { WIRE_FACES } from '../providers/wire-faces.ts';

export type { Json, JsonObject, WireSource } from '../providers/types.ts';
export { providerModel } from '../providers/shared/model.ts';

/** The provider formats a request can be shown in. */
export const WIRE_FORMATS: readonly string[] = WIRE_FACES.map((p) => p.id);
export type WireFormat = string;
