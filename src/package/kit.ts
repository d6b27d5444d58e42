/**
 * `prompt-fold-explainer/kit` — what a fold published as its own npm package imports: `defineFold`
 * (a fold from its logic and zod schemas, src/folds/define.ts), the Fold interface's types, the
 * incremental snapshot loop (`collectSnapshots`), zod issues as located fold issues
 * (`schemaIssues`), the tool convention (tool list, tool calls, tool results: src/folds/tools.ts),
 * the optional hooks' generic helpers and the check the integration runs on a fold module. The
 * types are named one by one (the fold contract: every type a hook takes or returns), so a new
 * type is exported on purpose; exports.test.ts pins the list. The
 * built-in folds are written with exactly these. A fold package lists prompt-fold-explainer (and
 * zod) as peer dependencies and exports its fold as the default export; a host site names it in
 * `explainer({ folds: ['@acme/agent-fold'] })`.
 */
export { defineFold, type FoldDefinition } from '../folds/define.ts';
export { checkFold } from '../folds/check.ts';
export { collectSnapshots, type Outcome } from '../folds/snapshots.ts';
export { schemaIssues } from '../folds/validate.ts';
export { asFunctionTool, type FunctionTool, parseToolsContent, toolEntryEnds, toolsContent, TOOLS_ROLE } from '../folds/tools.ts';
export { oneLine, defaultPreview } from '../folds/hooks.ts';
export type { PayloadNotes } from '../folds/json-schema.ts';
export type {
  Abridgement,
  AnyFold,
  AuthoredEvent,
  Breakpoint,
  EventDescription,
  ExpandedEvent,
  Expansion,
  Fold,
  Issue,
  JsonSchema,
  MaybePromise,
  Part,
  Rejection,
  RenderedMessage,
  Snapshot,
  StreamEvent,
  ToolCall,
} from '../folds/types.ts';
