/**
 * "Copy as cURL": the provider endpoint, its headers and the request body as one shell command.
 * The API key is ALWAYS an environment-variable reference ("$OPENAI_API_KEY",
 * "$ANTHROPIC_API_KEY") that the user's shell expands — never a value: the site has no key and a
 * copied command must not carry one. The body goes through a quoted here-document, so no byte of
 * prompt text is interpreted by the shell.
 */
import type { WireFormat } from './types.ts';

export interface Endpoint {
  url: string;
  /** Header lines; the key appears only as an environment-variable reference. */
  headers: string[];
  /** Name of the environment variable holding the API key. */
  keyVar: string;
}

export const ENDPOINTS: Record<WireFormat, Endpoint> = {
  'openai-chat': {
    url: 'https://api.openai.com/v1/chat/completions',
    keyVar: 'OPENAI_API_KEY',
    headers: ['Authorization: Bearer $OPENAI_API_KEY', 'Content-Type: application/json'],
  },
  'openai-responses': {
    url: 'https://api.openai.com/v1/responses',
    keyVar: 'OPENAI_API_KEY',
    headers: ['Authorization: Bearer $OPENAI_API_KEY', 'Content-Type: application/json'],
  },
  anthropic: {
    url: 'https://api.anthropic.com/v1/messages',
    keyVar: 'ANTHROPIC_API_KEY',
    headers: ['x-api-key: $ANTHROPIC_API_KEY', 'anthropic-version: 2023-06-01', 'content-type: application/json'],
  },
};

/** The here-document delimiter: pretty-printed JSON never has a line that is exactly this word. */
const EOF_MARK = 'JSON_BODY';

/** A cURL command that sends `json` (a pretty-printed body of `format`) to the provider. */
export function curlCommand(format: WireFormat, json: string): string {
  const e = ENDPOINTS[format];
  return [`curl ${e.url} \\`, ...e.headers.map((h) => `  -H "${h}" \\`), `  --data-binary @- <<'${EOF_MARK}'`, json, EOF_MARK].join('\n');
}
