/**
 * The `requests` fold's `resolve` hook: a `request/sent` payload written as `extends:` (what the
 * request adds to the previous request of the stream: kept and appended messages, changed fields;
 * src/providers/body-delta.ts) becomes the payload with the whole `body`, rebuilt from the previous
 * request's — so validation, the snapshots, the economics and the wire views read every body as it
 * was sent, while the file holds each message once. A delta that does not apply is an issue at its
 * field, naming both requests and the fix.
 *
 * Validation then reads the rebuilt body; `bodyPath` maps an issue's path in it back to where the
 * delta writes that part (an appended message, a set field), remembered per resolved payload.
 */
import type { AuthoredEvent, Issue, Resolution } from '../../folds/types.ts';
import { schemaIssues } from '../../folds/validate.ts';
import { applyDelta, type BodyDelta, DELTA, messageListOf } from '../../providers/body-delta.ts';

type Body = Record<string, unknown>;

interface Written {
  list: string;
  keep: number;
  set: ReadonlySet<string>;
}

/** Resolved payloads that were written as a delta: how their body's parts map to the delta. */
const written = new WeakMap<object, Written>();

export function resolve(events: readonly AuthoredEvent[]): Resolution[] {
  let prev: { offset: number; format: string; body: Body } | undefined;
  // After an event that did not resolve, a later delta is not checked against it: the first problem is the one to fix.
  let broken = false;
  return events.map((e): Resolution => {
    const p = e.payload;
    if (e.type !== 'request/sent' || !p || typeof p !== 'object') return { payload: p };
    if (!('extends' in p)) {
      const body = p.body;
      prev = body && typeof body === 'object' && !Array.isArray(body) && typeof p.format === 'string' ? { offset: e.offset, format: p.format, body: body as Body } : undefined;
      broken = prev === undefined;
      return { payload: p };
    }
    const { extends: delta, ...rest } = p;
    if ('body' in p) {
      broken = true;
      return {
        issues: [
          {
            path: ['extends'],
            message: 'has both `body` and `extends`',
            fix: 'write the whole request as `body:`, or what it adds to the previous request as `extends:` — one of the two',
          },
        ],
      };
    }
    const shape = schemaIssues(DELTA, delta);
    if (shape.length || broken) {
      broken = true;
      return { issues: shape.map((i) => ({ ...i, path: ['extends', ...i.path] })) };
    }
    const format = String(p.format);
    const d = delta as BodyDelta;
    const r = applyDelta(format, prev, d, { prev: prev && `@${prev.offset}` });
    if ('issue' in r) {
      broken = true;
      return { issues: [{ ...r.issue, path: ['extends', ...r.issue.path] }] };
    }
    const payload = { ...rest, body: r.body };
    const list = messageListOf(format)!;
    written.set(payload, { list, keep: d.keep ?? (prev!.body[list] as unknown[]).length, set: new Set(Object.keys(d.set ?? {})) });
    prev = { offset: e.offset, format, body: r.body };
    return { payload };
  });
}

/**
 * An issue of a resolved payload's body, located where the delta writes that part: an appended
 * message under `extends.append`, a set field under `extends.set`; a kept message at `extends.keep`
 * (it was written by an earlier request) and anything else at `extends`. Other payloads: unchanged.
 */
export function locateInDelta(payload: object, issue: Issue): Issue {
  const w = written.get(payload);
  if (!w || issue.path[0] !== 'body') return issue;
  const [, field, index, ...rest] = issue.path;
  if (field === w.list && typeof index === 'number') return { ...issue, path: index >= w.keep ? ['extends', 'append', index - w.keep, ...rest] : ['extends', 'keep'] };
  if (typeof field === 'string' && w.set.has(field)) return { ...issue, path: ['extends', 'set', ...issue.path.slice(1)] };
  return { ...issue, path: ['extends'] };
}
