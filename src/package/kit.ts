/**
 * `prompt-fold-explainer/kit` — what a fold published as its own npm package imports: `defineFold`
 * (a fold from its logic and zod schemas, src/folds/define.ts), the Fold interface's types, the
 * optional hooks' generic helpers and the check the integration runs on a fold module. A fold
 * package lists prompt-fold-explainer (and zod) as peer dependencies and exports its fold as the
 * default export; a host site names it in `explainer({ folds: ['@acme/agent-fold'] })`.
 */
export { defineFold, type FoldDefinition } from '../folds/define.ts';
export { checkFold } from '../folds/check.ts';
export { oneLine, defaultPreview } from '../folds/hooks.ts';
export type { PayloadNotes } from '../folds/json-schema.ts';
export type * from '../folds/types.ts';
