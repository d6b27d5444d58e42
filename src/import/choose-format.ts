/**
 * Which provider format a trace's requests are in: every body's candidates (detect.ts) narrowed
 * line by line to one (a tie broken by the bodies' shape), or an error at the line that breaks it —
 * a body of no known provider, or mixed providers. A capture's requests may name their format
 * (AI SDK DevTools' provider): that one, when every body fits it.
 */
import type { InputError } from '../scenarios/errors.ts';
import { PROVIDERS, providerOf, type ProviderId as RequestFormat } from '../providers/registry.ts';
import { candidates, FORMAT_TITLES, tieBreak } from './detect.ts';
import { chunkPos } from './read.ts';
import type { Req } from './request.ts';

/** The one provider format of all bodies, or an error naming the line that breaks it. */
export function chooseFormat(reqs: Req[], file: string, errors: InputError[]): RequestFormat | undefined {
  let allowed: RequestFormat[] | undefined;
  let decidedBy: Req | undefined;
  for (const r of reqs) {
    const c = candidates(r.body);
    if ('problem' in c) {
      errors.push({
        pos: chunkPos(r.chunk, r.at, file),
        message: `not a request body of a known provider: ${c.problem}`,
        fix: `import request bodies of one of ${PROVIDERS.filter((p) => 'detect' in p)
          .map((p) => p.title)
          .join(', ')}, one per line — or pass --format to say which one it is`,
      });
      continue;
    }
    const next: RequestFormat[] = allowed ? allowed.filter((f) => c.includes(f)) : c;
    if (!next.length) {
      errors.push({
        pos: chunkPos(r.chunk, r.at, file),
        message: `this line is ${c.map((f) => `an ${FORMAT_TITLES[f]}`).join(' or ')} request body, but line ${decidedBy!.chunk.line} is ${allowed!.map((f) => `an ${FORMAT_TITLES[f]}`).join(' or ')} one — mixed providers`,
        fix: "a scenario shows one provider's requests: split the trace per provider and import each file",
      });
      return undefined;
    }
    if (!allowed || next.length < allowed.length) decidedBy = r;
    allowed = next;
  }
  if (!allowed) return undefined;
  if (allowed.length === 1) return allowed[0];
  return tieBreak(
    allowed,
    reqs.map((r) => r.body),
  );
}

/** The one format of a capture's requests: the one they name (AI SDK DevTools' provider), or their shape's. */
export function captureFormat(reqs: Req[], file: string, errors: InputError[]): RequestFormat | undefined {
  const first = reqs.find((r) => r.format);
  const other = first && reqs.find((r) => r.format && r.format !== first.format);
  if (first && other) {
    errors.push({
      pos: chunkPos(other.chunk, other.at, file),
      message: `this request is an ${FORMAT_TITLES[other.format!]} one, but an earlier one is ${FORMAT_TITLES[first.format!]} — mixed providers`,
      fix: "a scenario shows one provider's requests: capture each provider's calls separately",
    });
    return undefined;
  }
  const named = first?.format;
  // A named format whose adapter has no shape to check (OpenTelemetry GenAI bodies a span reader rebuilt) is taken as named.
  if (
    named &&
    (!providerOf(named).detect ||
      reqs.every((r) => {
        const c = candidates(r.body);
        return !('problem' in c) && c.includes(named);
      }))
  )
    return named;
  return chooseFormat(reqs, file, errors);
}
