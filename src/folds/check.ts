/**
 * The runtime check that a value is a fold — what the integration runs on a fold module's export
 * (a file or an npm package) before any scenario uses it. It agrees with the `Fold` type
 * (types.ts): the required members must be there with the right kind of value, the optional hooks
 * may be absent but, when present, must be functions (or, for `rules`, a list of strings). Pure and
 * browser-safe like every fold module.
 */

const REQUIRED: Record<string, 'string' | 'object' | 'array' | 'function'> = {
  id: 'string',
  title: 'string',
  description: 'string',
  defaults: 'object',
  eventTypes: 'array',
  requestTypes: 'array',
  validateOptions: 'function',
  validateEvent: 'function',
  snapshots: 'function',
};

const OPTIONAL_HOOKS = ['abridgements', 'expand', 'derive', 'describe', 'payloadSchemas', 'optionsSchema'] as const;

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

/** What is wrong with `value` as a fold, one phrase per problem; [] when it is one. */
export function checkFold(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [`the module's default export (or \`fold\` export) is ${kindOf(value)}, not a fold object`];
  const f = value as Record<string, unknown>;
  const problems: string[] = [];
  const missing = Object.keys(REQUIRED).filter((k) => f[k] === undefined);
  if (missing.length) problems.push(`missing ${missing.join(', ')}`);
  for (const [k, want] of Object.entries(REQUIRED)) {
    if (f[k] !== undefined && kindOf(f[k]) !== want) problems.push(`\`${k}\` is ${kindOf(f[k])}, not ${want === 'array' ? 'a list' : `a ${want}`}`);
  }
  for (const k of OPTIONAL_HOOKS) if (f[k] !== undefined && typeof f[k] !== 'function') problems.push(`\`${k}\` is ${kindOf(f[k])}, not a function`);
  if (f.rules !== undefined && !(Array.isArray(f.rules) && f.rules.every((r) => typeof r === 'string'))) problems.push('`rules` is not a list of strings');
  if (typeof f.id === 'string' && !/^[a-z0-9-]+$/.test(f.id)) problems.push(`\`id\` "${f.id}" is not [a-z0-9-]+`);
  return problems;
}
