/**
 * The one HTML escaper of every writer (highlighting, pane markup, YAML and word-diff HTML): text
 * from a prompt, a scenario or a trace is untrusted, so each of its characters that could open a
 * tag, an entity or close an attribute is written as an entity — the same in text and in
 * attributes. No imports: the browser chunks that write markup carry nothing else with it.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
