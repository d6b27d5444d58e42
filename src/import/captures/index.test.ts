/**
 * Every capture format `npm run import` reads — the modules of this folder and each provider's own
 * log (an adapter's `log`) — is on the import page's table with its `--format` value, so a team can
 * find where its file is (the import page lists every format).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CAPTURE_IDS } from './index.ts';

describe('the import page lists every capture format', () => {
  const page = readFileSync('src/pages/reference/writing-scenarios.mdx', 'utf8');
  const listed = [...page.matchAll(/^\|[^|\n]+\| `([a-z0-9][a-z0-9-]*)` \|/gm)].map((m) => m[1]!);

  it('each capture id is a row of the table, and each row’s id is a capture or the OTLP spans', () => {
    expect(CAPTURE_IDS).toContain('bedrock-invocation-log');
    for (const id of CAPTURE_IDS) expect(listed, id).toContain(id);
    expect(listed.filter((id) => !CAPTURE_IDS.includes(id))).toEqual(['otlp']);
  });
});
