/**
 * "Copy as cURL": the provider endpoint (its wire face's `endpoint`), its headers and the request body
 * as one shell command. The API key is ALWAYS an environment-variable reference
 * ("$OPENAI_API_KEY", "$ANTHROPIC_API_KEY") that the user's shell expands — never a value: the site
 * has no key and a copied command must not carry one. The body goes through a quoted here-document,
 * so no byte of prompt text is interpreted by the shell.
 */
import { WIRE_FACES } from '../providers/wire-faces.ts';
import type { Endpoint } from '../providers/types.ts';
import type { WireFormat } from './types.ts';

export type { Endpoint };

/** Endpoints by wire format. */
export const ENDPOINTS: Readonly<Record<WireFormat, Endpoint>> = Object.fromEntries(WIRE_FACES.map((p) => [p.id, p.endpoint]));

/** The here-document delimiter: pretty-printed JSON never has a line that is exactly this word. */
const EOF_MARK = 'JSON_BODY';

/** A cURL command that sends `json` (a pretty-printed body of `format`) to the provider. */
export function curlCommand(format: WireFormat, json: string): string {
  const e = ENDPOINTS[format]!;
  return [`curl ${e.url} \\`, ...e.headers.map((h) => `  -H "${h}" \\`), `  --data-binary @- <<'${EOF_MARK}'`, json, EOF_MARK].join('\n');
}
