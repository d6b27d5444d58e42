/**
 * Markdown for untrusted prose (scenario intros): micromark with its safe defaults — raw HTML is
 * shown as text, and only http(s), mailto and relative link targets survive (no `javascript:`).
 */
import { micromark } from 'micromark';

export function safeMarkdown(source: string): string {
  return micromark(source, { allowDangerousHtml: false, allowDangerousProtocol: false });
}
