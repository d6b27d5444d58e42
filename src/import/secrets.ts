/**
 * Secrets never reach a scenario file. Headers are never imported (the scenario holds request
 * bodies only); credential headers among them are reported. Inside a body, a field named like a
 * credential is dropped, and any string that looks like a key or token — OpenAI / Anthropic keys,
 * bearer tokens, AWS access key ids, GitHub, Slack and Google API tokens, PEM private keys — is
 * replaced by REDACTED. Every drop is reported with where it was, never with the value.
 */
import { PROVIDERS } from '../providers/registry.ts';
import type { ProviderAdapter } from '../providers/types.ts';

export const REDACTED = '[redacted secret]';

const SECRET_FIELD =
  /^(api[-_]?key|x[-_]api[-_]key|authorization|proxy[-_]authorization|access[-_]?token|refresh[-_]?token|auth[-_]?token|client[-_]?secret|secret[-_]?key|password|passwd)$/i;
/** Headers that carry a credential anywhere, and each provider's own (its adapter's `endpoint.credentialHeaders`), lower-cased. */
const CREDENTIAL_HEADERS = new Set([
  ...['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'cookie', 'set-cookie'],
  ...(PROVIDERS as readonly ProviderAdapter[]).flatMap((p) => p.endpoint?.credentialHeaders ?? []).map((h) => h.toLowerCase()),
]);

const PATTERNS: { what: string; re: RegExp }[] = [
  { what: 'a PEM private key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { what: 'an API key (sk-…)', re: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { what: 'a bearer token', re: /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/g },
  { what: 'an AWS access key id', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { what: 'a GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { what: 'a Slack token', re: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { what: 'a Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
];

export interface Dropped {
  /** Where in the record: a header name or a path inside the body. */
  where: string;
  what: string;
}

export function credentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}

/** Secret-looking substrings of `s` replaced; each kind found is reported once per string. */
function scrubString(s: string, where: string, out: Dropped[]): string {
  let r = s;
  for (const { what, re } of PATTERNS) {
    if (re.test(r)) {
      out.push({ where, what });
      r = r.replace(re, REDACTED);
    }
    re.lastIndex = 0;
  }
  return r;
}

/**
 * What scrubbing an object gave, kept by the object: a capture's rebuilt requests share their
 * items (each request carries every earlier one), so each is scrubbed once, and the copy shared too.
 */
export type ScrubMemo = WeakMap<object, { copy: unknown; found: { rel: string[]; what: string }[] }>;

/**
 * A copy of `value` with credential fields dropped and secret-looking strings replaced. With a
 * memo, an object met again gives the same copy and reports the same drops at its new path.
 */
export function scrub(value: unknown, out: Dropped[], path: string[] = [], memo?: ScrubMemo): unknown {
  if (memo && value && typeof value === 'object') {
    const hit = memo.get(value);
    if (hit) {
      for (const f of hit.found) out.push({ where: [...path, ...f.rel].join('.') || 'the body', what: f.what });
      return hit.copy;
    }
    const own: Dropped[] = [];
    const copy = scrubValue(value, own, [], memo);
    memo.set(value, { copy, found: own.map((d) => ({ rel: d.where === 'the body' ? [] : d.where.split('.'), what: d.what })) });
    for (const d of own) out.push({ where: [...path, ...(d.where === 'the body' ? [] : d.where.split('.'))].join('.') || 'the body', what: d.what });
    return copy;
  }
  return scrubValue(value, out, path, memo);
}

function scrubValue(value: unknown, out: Dropped[], path: string[], memo: ScrubMemo | undefined): unknown {
  const where = path.length ? path.join('.') : 'the body';
  if (typeof value === 'string') return scrubString(value, where, out);
  if (Array.isArray(value)) return value.map((v, i) => scrub(v, out, [...path, String(i)], memo));
  if (value && typeof value === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_FIELD.test(k) && typeof v === 'string' && v !== '') {
        out.push({ where: [...path, k].join('.'), what: `a credential field (\`${k}\`)` });
        continue;
      }
      o[k] = scrub(v, out, [...path, k], memo);
    }
    return o;
  }
  return value;
}
