/**
 * Inline code in the Markdown an import writes (a scenario's intro, a left-out reason) for text a
 * capture holds — a conversation key, a sub-agent's id: untrusted, so fenced by a run of backticks
 * longer than any inside it (CommonMark), its white space flattened to one line.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${flat} ${fence}` : `${fence}${flat}${fence}`;
}
