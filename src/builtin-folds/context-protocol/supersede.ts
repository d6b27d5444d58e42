/**
 * The context-protocol fold's `supersedingSections` option: where a keyed re-add goes once the
 * key's previous occurrence was sent (src/pages/reference/context-protocol.mdx). A fold option, because the choice is a
 * trade-off a team makes per provider:
 *
 * - `timeline` (default; the reference platform's rule, byte-exact with its golden files): the new
 *   occurrence is appended at the tail as `<section key supersedes="@P">`, in its payload's model
 *   role. Nothing sent changes, so the previous request stays a cached prefix. A system-role
 *   section there is a system message after the conversation started: on Anthropic a
 *   mid-conversation system message, which only the models its documentation lists accept — on any
 *   other the API rejects the request (the Anthropic adapter's `features` and the catalog say which;
 *   the economics report it as a located error with its fix, as for any fold).
 * - `standing-document`: the new text replaces the key's first occurrence where it stands — in the
 *   standing document (the leading system message) for a key that joined it — and later
 *   occurrences render nothing. Every model accepts it; the leading system message changes, so
 *   every cached entry after the protocol prompt is lost.
 */
export const SUPERSEDING_SECTIONS = ['timeline', 'standing-document'] as const;
export type SupersedingSections = (typeof SUPERSEDING_SECTIONS)[number];
