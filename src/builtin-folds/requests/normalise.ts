/**
 * A provider request body → the messages the model reads, provider-neutral: `{role, text}` in
 * order, the tool list first (as a `tools` message, see tools.ts), each message's cache markers as
 * `marks`. Each format's own rules are its adapter's `normalise` (src/providers/<id>.ts); this is
 * the fold's one entry to them.
 */
import { providerOf } from '../../providers/registry.ts';
import type { Mark, NormalMessage } from '../../providers/types.ts';
import type { RequestFormat } from './schema.ts';

export type { Mark, NormalMessage };

export function normalise(format: RequestFormat, body: Record<string, unknown>): NormalMessage[] {
  return providerOf(format).normalise(body);
}
