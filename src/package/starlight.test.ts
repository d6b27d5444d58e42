/**
 * The Starlight plugin's sidebar group: the explainer's home, a link per scenario labelled with its
 * title as the reader sees it — Starlight prints a label as text, so a title's inline Markdown
 * (an imported capture's `` `sessionId` ``) is given without its marks — then the reference pages.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sidebarGroup } from './starlight.ts';

const dir = mkdtempSync(join(tmpdir(), 'pfe-starlight-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sidebarGroup', () => {
  it('labels each scenario with its title as plain text: inline code without its backticks, emphasis without its stars, a tag as its text', async () => {
    mkdirSync(join(dir, 'scenarios'));
    const title = 'Imported trace — s.jsonl · sessionId `abc-1` *and* <b>bold</b>';
    writeFileSync(
      join(dir, 'scenarios', 'one.yaml'),
      [
        'fold: requests',
        'id: one',
        `title: '${title}'`,
        'events:',
        '  - off: 1',
        '    t: 0ms',
        '    type: request/sent',
        '    payload:',
        '      format: anthropic',
        '      body: {model: claude-sonnet-4-5, max_tokens: 10, messages: [{role: user, content: hi}]}',
        '',
      ].join('\n'),
    );
    const group = (await sidebarGroup(dir, { route: '/explainer/' })) as { label: string; items: { label: string; link: string }[] };
    expect(group.items.slice(0, 2)).toEqual([
      { label: 'Scenarios', link: '/explainer/' },
      { label: 'Imported trace — s.jsonl · sessionId abc-1 and <b>bold</b>', link: '/explainer/scenarios/one/' },
    ]);
    expect(group.items.at(-1)).toEqual({ label: 'Playground', link: '/explainer/playground/' });
  });
});
