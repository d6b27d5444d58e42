/**
 * The runtime check that a value is a fold — what the integration runs on a fold module's export
 * (a file or an npm package) before any scenario uses it. It agrees with the `Fold` type
 * (types.ts): the required members must be there with the right kind of value, the optional hooks
 * may be absent but, when present, must be functions (or, for `rules`, a list of strings). Pure and
 * browser-safe like every fold module.
 */
import type { AnyFold } from './types.ts';

type Kind = 'string' | 'object' | 'array' | 'function' | 'strings';

/**
 * Every member of the Fold interface, what kind of value it is, and whether it is required. The
 * `satisfies` makes the compiler hold this table to the interface (a member added to Fold and not
 * here, or named here and not there, fails the type check), so the runtime check below, the type
 * and `defineFold`'s input (define.ts: the members it derives) cannot drift apart.
 */
export const FOLD_MEMBERS = {
  id: { kind: 'string', required: true },
  title: { kind: 'string', required: true },
  description: { kind: 'string', required: true },
  defaults: { kind: 'object', required: true },
  eventTypes: { kind: 'array', required: true, derived: true },
  requestTypes: { kind: 'array', required: true },
  validateOptions: { kind: 'function', required: true, derived: true },
  validateEvent: { kind: 'function', required: true, derived: true },
  snapshots: { kind: 'function', required: true },
  abridgements: { kind: 'function', required: false },
  expand: { kind: 'function', required: false },
  derive: { kind: 'function', required: false },
  resolve: { kind: 'function', required: false },
  describe: { kind: 'function', required: false },
  payloadSchemas: { kind: 'function', required: false, derived: true },
  optionsSchema: { kind: 'function', required: false, derived: true },
  rules: { kind: 'strings', required: false },
} as const satisfies { [K in keyof Required<AnyFold>]: { kind: Kind; required: boolean; derived?: true } };

/** The members `defineFold` derives from a fold's zod schemas (a definition does not write them). */
export type DerivedMember = { [K in keyof typeof FOLD_MEMBERS]: (typeof FOLD_MEMBERS)[K] extends { derived: true } ? K : never }[keyof typeof FOLD_MEMBERS];

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

/** What is wrong with `value` as a fold, one phrase per problem; [] when it is one. */
export function checkFold(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [`the module's default export (or \`fold\` export) is ${kindOf(value)}, not a fold object`];
  const f = value as Record<string, unknown>;
  const problems: string[] = [];
  const members = Object.entries(FOLD_MEMBERS) as [string, { kind: Kind; required: boolean }][];
  const missing = members.filter(([k, m]) => m.required && f[k] === undefined).map(([k]) => k);
  if (missing.length) problems.push(`missing ${missing.join(', ')}`);
  for (const [k, { kind }] of members) {
    const v = f[k];
    if (v === undefined) continue;
    if (kind === 'strings') {
      if (!(Array.isArray(v) && v.every((r) => typeof r === 'string'))) problems.push(`\`${k}\` is not a list of strings`);
    } else if (kindOf(v) !== kind) problems.push(`\`${k}\` is ${kindOf(v)}, not ${kind === 'array' ? 'a list' : `a ${kind}`}`);
  }
  if (typeof f.id === 'string' && !/^[a-z0-9-]+$/.test(f.id)) problems.push(`\`id\` "${f.id}" is not [a-z0-9-]+`);
  return problems;
}
