/**
 * A request body stored as what it adds to the previous request of its conversation — the
 * append-only idea this project explains, applied to its own storage. A captured conversation
 * re-sends every earlier turn, so storing each body whole grows with the square of the
 * conversation; stored as deltas it grows with the conversation itself.
 *
 * A delta (`extends:` in the `requests` fold's payload) reads, against the previous request's body:
 *
 *   keep:   the first `keep` entries of its message list (the adapter's `messageList`: `messages`,
 *           `input`, …) are re-sent unchanged (absent: all of them);
 *   append: the entries after them;
 *   set:    top-level fields whose value is new or changed (system prompt, tools, model, a parameter),
 *           each written whole;
 *   unset:  top-level fields the previous body had and this one does not.
 *
 * The rebuilt body keeps the previous body's key order (a set field in its place, a new one at the
 * end), so `diffBody` only returns a delta that `applyDelta` turns back into the same bytes: it
 * checks the rebuild against the body, key order included, and returns undefined (store the body
 * whole) when anything would differ. Kept entries are the previous body's own objects: a long
 * conversation's bodies share their messages in memory too. Provider-neutral: the list's field is
 * the adapter's; nothing here names a provider.
 */
import * as z from 'zod';
import type { Issue } from '../folds/types.ts';
import { providerOf } from './registry.ts';

type Body = Record<string, unknown>;

export interface BodyDelta {
  keep?: number;
  append?: unknown[];
  set?: Body;
  unset?: string[];
}

/** The delta as written (an `extends:` value), for the payload schema and its validation. */
export const DELTA = z.strictObject({
  keep: z.int().nonnegative().optional().meta({ description: "How many of the previous request's messages this one re-sends unchanged, from the first (absent: all of them)." }),
  append: z.array(z.unknown()).optional().meta({ description: 'The messages after the kept ones, as sent (entries of the body’s message list).' }),
  set: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'Top-level body fields that are new or changed since the previous request (system prompt, tools, model, a parameter), each whole.' }),
  unset: z.array(z.string()).optional().meta({ description: 'Top-level body fields the previous request sent and this one does not.' }),
});

/** The field of `format`'s bodies that holds the conversation's list, when the adapter names one. */
export function messageListOf(format: string): string | undefined {
  return providerOf(format)?.messageList;
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * `body` as a delta against `prev` (both of `format`), or undefined when it is better stored whole:
 * the format has no message list, either list is not a list, the two share no leading message
 * (a compaction or a new conversation), or the rebuild would not give back the same bytes.
 */
export function diffBody(format: string, prev: Body, body: Body): BodyDelta | undefined {
  const list = messageListOf(format);
  if (!list) return undefined;
  const before = prev[list];
  const now = body[list];
  if (!Array.isArray(before) || !Array.isArray(now)) return undefined;
  let keep = 0;
  while (keep < before.length && keep < now.length && same(before[keep], now[keep])) keep++;
  if (keep === 0) return undefined;
  const set: Body = {};
  for (const [k, v] of Object.entries(body)) if (k !== list && (!(k in prev) || !same(prev[k], v))) set[k] = v;
  const unset = Object.keys(prev).filter((k) => !(k in body));
  const delta: BodyDelta = {
    keep,
    ...(now.length > keep && { append: now.slice(keep) }),
    ...(Object.keys(set).length > 0 && { set }),
    ...(unset.length > 0 && { unset }),
  };
  const rebuilt = rebuild(list, prev, delta);
  const order = Object.keys(body);
  const got = Object.keys(rebuilt);
  return got.length === order.length && got.every((k, i) => k === order[i]) ? delta : undefined;
}

function rebuild(list: string, prev: Body, d: BodyDelta): Body {
  const out: Body = {};
  const before = prev[list] as unknown[];
  const unset = new Set(d.unset ?? []);
  for (const [k, v] of Object.entries(prev)) {
    if (unset.has(k)) continue;
    if (k === list) out[k] = [...before.slice(0, d.keep ?? before.length), ...(d.append ?? [])];
    else out[k] = d.set && k in d.set ? d.set[k] : v;
  }
  for (const [k, v] of Object.entries(d.set ?? {})) if (!(k in prev)) out[k] = v;
  return out;
}

/** How the previous request is named in a problem (`@11`); absent: there is none. */
export interface DeltaNames {
  prev?: string | undefined;
}

/**
 * The body a delta stands for, rebuilt from the previous request's body, or the problem that keeps
 * it from applying (paths inside the delta). `prev` is undefined when there is no earlier request.
 */
export function applyDelta(format: string, prev: { format: string; body: Body } | undefined, d: BodyDelta, names: DeltaNames): { body: Body } | { issue: Issue } {
  const whole = 'write the request’s whole `body:` instead of `extends:` (or re-import the trace)';
  if (!prev || names.prev === undefined)
    return { issue: { path: [], message: '`extends:` follows the previous request, but this is the first request of its stream', fix: whole } };
  const list = messageListOf(format);
  if (!list) return { issue: { path: [], message: `extends ${names.prev}, but a \`${format}\` body has no message list to extend`, fix: whole } };
  if (prev.format !== format)
    return {
      issue: { path: [], message: `extends ${names.prev}, but the format of ${names.prev} is \`${prev.format}\` and this one's \`${format}\``, fix: whole },
    };
  const before = prev.body[list];
  if (!Array.isArray(before)) return { issue: { path: [], message: `extends ${names.prev}, but ${names.prev}'s \`${list}\` is not a list`, fix: whole } };
  if (d.keep !== undefined && d.keep > before.length)
    return {
      issue: {
        path: ['keep'],
        message: `extends ${names.prev} but keeps ${d.keep} message${d.keep === 1 ? '' : 's'} where ${names.prev} sends ${before.length}`,
        fix: `keep at most ${before.length} (the messages of ${names.prev} this request re-sends), and append the rest; or ${whole}`,
      },
    };
  if (d.set && list in d.set)
    return {
      issue: {
        path: ['set', list],
        message: `sets \`${list}\`, the message list that \`keep\` and \`append\` extend`,
        fix: `write the messages it re-sends as \`keep\` and the new ones under \`append\`; or ${whole}`,
      },
    };
  for (const [i, k] of (d.unset ?? []).entries()) {
    if (k === list || !(k in prev.body))
      return {
        issue: {
          path: ['unset', i],
          message: k === list ? `unsets \`${list}\`, the message list` : `unsets \`${k}\`, which ${names.prev} does not send`,
          fix: k === list ? `a request sends its messages: use \`keep: 0\` and \`append\`, or ${whole}` : `remove \`${k}\` from \`unset\``,
        },
      };
    if (d.set && k in d.set)
      return { issue: { path: ['unset', i], message: `both sets and unsets \`${k}\``, fix: `keep \`${k}\` under \`set\` (its new value) or under \`unset\` (dropped), not both` } };
  }
  return { body: rebuild(list, prev.body, d) };
}
