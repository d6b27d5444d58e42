/**
 * Test support: the dev round trip both dev tests check, at the domain root (tests/dev.test.ts) and
 * under a sub-path (tests/dev-subpath.test.ts) — edit a scenario and its page re-renders; break an
 * annotation anchor and the overlay shows the project's error (file:line:column, closest lines,
 * fix); restore the file and the page is back. The page's data file is served as well.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { closeContexts, sharedBrowser } from './browser.ts';
import type { DevProject } from './dev-server.ts';

export async function editBreakFix(project: DevProject, base = '/'): Promise<void> {
  const { dir, dev } = project;
  const until = (check: (p: { status: number; text: string }) => boolean): Promise<{ status: number; text: string }> => dev.until(`${base}scenarios/birth-window/`, check);
  const file = join(dir, 'scenarios/01-birth-window.yaml');
  const original = readFileSync(file, 'utf8');
  const first = await until((p) => p.status === 200);
  expect(first.text, first.text.slice(0, 2000)).toContain('quick tour of the harbor repo');
  // The page's data file (the other events' panes, the wire messages, the events' YAML) is served by the dev server too.
  expect(first.text).toContain(`data-src="${base}scenarios/birth-window/data.json"`);
  const data = await dev.fetchPage(`${base}scenarios/birth-window/data.json`);
  expect(data.status).toBe(200);
  expect(Object.keys(JSON.parse(data.text))).toEqual(['panes', 'wire', 'events']);
  expect(data.text).toContain('quick tour of the harbor repo');

  writeFileSync(file, original.replace('quick tour of the harbor repo', 'quick tour of the EDITED repo'));
  expect((await until((p) => p.text.includes('EDITED repo'))).text).toContain('quick tour of the EDITED repo');

  const m = /^(\s+find: )(['"])(.+)\2$/m.exec(original)!;
  writeFileSync(file, original.replace(m[0], `${m[1]}"gone from the prompt"`));
  const broken = await until((p) => p.status >= 500);
  expect(broken.status).toBe(500);
  expect(broken.text).toContain('/@vite/client'); // the overlay client, which shows the error:
  const browser = await sharedBrowser();
  try {
    const tab = await browser.newPage();
    await tab.goto(`${dev.url}${base}scenarios/birth-window/`);
    const overlay = tab.locator('vite-error-overlay #message');
    await overlay.waitFor({ timeout: 20_000 });
    const shown = await tab.locator('vite-error-overlay #layout').textContent();
    expect(shown).toMatch(/scenarios\/01-birth-window\.yaml:\d+:\d+ stale anchor: find "gone from the prompt" matches no line of request @21/);
    expect(shown).toContain('closest rendered lines:');
    expect(shown).toMatch(/fix: change `?find:`? to text the rendered request contains/); // the overlay renders the hint's Markdown
  } finally {
    await closeContexts(browser);
  }

  writeFileSync(file, original);
  const fixed = await until((p) => p.status === 200);
  expect(fixed.status).toBe(200);
  expect(fixed.text).toContain('quick tour of the harbor repo');
}
