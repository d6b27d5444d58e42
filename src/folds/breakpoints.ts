/**
 * The check of the cache breakpoints a fold returns with a request (Snapshot.breakpoints): every
 * marker names a message of the request, covers a part of its content that exists, asks for a
 * retention the contract knows, and comes in order of position. A fold is code (possibly a
 * project's own), so a wrong marker is reported — by the render pipeline, as an input error naming
 * the fold and the request — instead of reaching the pane, the wire views or the economics, each of
 * which would otherwise read a position that is not there. Pure; no fold is named here.
 */
import type { RenderedMessage } from './types.ts';

const TTLS: readonly string[] = ['5m', '1h'];

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The problems with `breakpoints` for a request of `messages` (one sentence each); [] when fine. */
export function breakpointProblems(breakpoints: unknown, messages: readonly RenderedMessage[]): string[] {
  if (breakpoints === undefined) return [];
  if (!Array.isArray(breakpoints)) return ['`breakpoints` is not a list'];
  const out: string[] = [];
  let last: [number, number] | null = null;
  breakpoints.forEach((b: unknown, i) => {
    const what = `breakpoint ${i + 1} of ${breakpoints.length}`;
    if (typeof b !== 'object' || b === null) {
      out.push(`${what} is not an object {message, end?, ttl?}`);
      return;
    }
    const { message, end, ttl } = b as Record<string, unknown>;
    if (!isIndex(message) || message >= messages.length) {
      out.push(
        `${what} names message ${JSON.stringify(message)}, but the request has ${messages.length} message${messages.length === 1 ? '' : 's'} (indices 0–${messages.length - 1})`,
      );
      return;
    }
    const length = messages[message]!.content.length;
    if (end !== undefined && (!isIndex(end) || end > length)) {
      out.push(`${what} ends at character ${JSON.stringify(end)} of message ${message}, whose content has ${length} characters`);
      return;
    }
    if (ttl !== undefined && !TTLS.includes(ttl as string)) out.push(`${what} asks for ttl ${JSON.stringify(ttl)}; the contract knows ${TTLS.map((t) => `'${t}'`).join(' and ')}`);
    const at: [number, number] = [message, (end as number | undefined) ?? length];
    if (last && (at[0] < last[0] || (at[0] === last[0] && at[1] < last[1]))) {
      out.push(
        `${what} (message ${at[0]}, character ${at[1]}) comes before the one listed ahead of it (message ${last[0]}, character ${last[1]}): list breakpoints in order of position`,
      );
    }
    last = at;
  });
  return out;
}
