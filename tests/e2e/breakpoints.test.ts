/**
 * Browser tests of the cache breakpoint rows and the layered tool turns, on the run's shared build:
 * a layered request pane shows a *cache breakpoint* row under the system prompt and under the last
 * transcript entry (not the ✂ line, not a prompt line), readable and axe-clean in light and
 * dark; a state pane built in the browser carries none, a base scenario's request built there
 * (from the page data) carries its rows; the playground's pane shows the same rows; and the wire
 * views send the tool result as a tool result with the breakpoint on it.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { axeViolations } from '../support/axe.ts';
import type { BuiltSite } from '../support/browser.ts';
import { sharedSite } from '../support/shared-site.ts';

/** The machine may be busy: give the page time (no timing is asserted). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });
const SLOW = { timeout: 180_000 };

let built: BuiltSite;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;

beforeAll(async () => {
  // The run's shared build: the bundled corpus plus tests/fixtures/shared/91-on-top-of-recommended.yaml.
  built = await sharedSite();
  ({ site, browser } = built);
}, 600_000);

afterAll(() => built?.close());

async function open(path: string, colorScheme: 'light' | 'dark' = 'light', bypassCSP = false): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ colorScheme, viewport: { width: 1400, height: 900 }, bypassCSP });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${site.url}${path}`);
  return { page, errors };
}

/**
 * Each breakpoint row's text; the prompt line right above it; and the message that line ends — its
 * role and its first line (the line after `content: |-`, or the value of a one-line `content:`).
 */
const rowsOf = (page: Page, pane: string) =>
  page.locator(`${pane} .reviewable .code .bp`).evaluateAll((rows) =>
    rows.map((r) => {
      const lines: string[] = [];
      let role = '';
      for (let e = r.previousElementSibling; e; e = e.previousElementSibling) {
        if (e.matches('.bp, details, [role]')) continue;
        const t = (e.textContent ?? '').replace(/^@\d+/, '').trim();
        const m = /^- role: (\S+)$/.exec(t);
        if (m) {
          role = m[1]!;
          break;
        }
        lines.push(t);
      }
      const head = lines.at(-1) ?? '';
      const first = head === 'content: |-' ? (lines.at(-2) ?? '') : head.replace(/^content: /, '');
      return { text: r.textContent, above: lines[0] ?? '', entry: { role, first } };
    }),
  );

/** The system prompt's first line and the tool result's text, as the scenario file writes them. */
const scenario = parse(readFileSync('scenarios/21-layered-recommended.yaml', 'utf8')) as { events: { off: number; payload: { content?: string } }[] };
const TOOL_RESULT = scenario.events.find((e) => e.off === 15)!.payload.content!;
const SYSTEM_FIRST = 'You are the implement stage of the orchestrator. Act only through tool calls; the stage is done when the remaining delta is empty.';
/** Under the system prompt's last line, and under the tool result (the last transcript entry): its text, then the id of the call it answers. */
const LAYERED_ROWS = [
  { text: 'cache breakpoint', above: 'Locked by the operator: stay inside pkg/tasks; never edit a released migration.', entry: { role: 'system', first: SYSTEM_FIRST } },
  { text: 'cache breakpoint', above: 'toolCallId: "call_15"', entry: { role: 'tool', first: TOOL_RESULT.split('\n')[0] } },
];

describe('cache breakpoint rows', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`a layered request: under the system prompt and the last transcript entry (${scheme}), axe-clean`, SLOW, async () => {
      const { page, errors } = await open('/scenarios/layered-recommended/#@17', scheme, true);
      const pane = page.locator('.pane[data-offset="17"]');
      await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
      expect(await rowsOf(page, '.pane[data-offset="17"]')).toEqual(LAYERED_ROWS);
      const row = pane.locator('.reviewable .bp').first();
      expect(await row.isVisible()).toBe(true);
      // Not the ✂ line, and not a prompt line (the page's line selectors skip it).
      expect(await row.evaluate((r) => r.matches('.cut, .code.review-view > div:not([role])'))).toBe(false);
      const look = await row.evaluate((r) => {
        const s = getComputedStyle(r);
        return { color: s.color, flag: getComputedStyle(r, '::before').content, border: s.borderTopStyle };
      });
      expect(look.border).toBe('dashed');
      expect(look.flag).toContain('⚑');
      expect(await axeViolations(page, { include: '.pane[data-offset="17"] .reviewable', tags: ['wcag2a', 'wcag2aa'] })).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('a state pane built in the browser carries none; the requests around it keep theirs', SLOW, async () => {
    const { page, errors } = await open('/scenarios/layered-recommended/#@15');
    const pane = page.locator('.pane[data-offset="15"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    expect(await pane.getAttribute('data-kind')).toBe('state');
    expect(await pane.locator('.bp').count()).toBe(0);
    expect(await page.locator('.pane[data-offset="11"] .reviewable .bp').count()).toBe(2);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a base scenario’s request, built in the browser from the page data, carries its rows', SLOW, async () => {
    const { page, errors } = await open('/scenarios/on-top-of-recommended/#@17');
    const pane = page.locator('.pane[data-offset="17"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    expect(await pane.getAttribute('data-kind')).toBe('request');
    expect(await rowsOf(page, '.pane[data-offset="17"]')).toEqual(LAYERED_ROWS);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('the playground’s pane shows the same rows', SLOW, async () => {
    const { page, errors } = await open('/playground/#open=layered-recommended');
    await page.waitForSelector('#pg-pane .pane', { timeout: 60_000 });
    await poll(() => page.locator('#pg-pane .bp').count()).toBe(2);
    expect(await page.locator('#pg-pane .bp').allTextContents()).toEqual(['cache breakpoint', 'cache breakpoint']);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('layered tool turns in the wire views', () => {
  it('Anthropic: tool_use after the call, tool_result (with the breakpoint) first in the next user message; OpenAI: a tool message', SLOW, async () => {
    const { page, errors } = await open('/scenarios/layered-recommended/#@17');
    const pane = page.locator('.pane[data-offset="17"]');
    await poll(() => pane.evaluate((p) => p.classList.contains('selected'))).toBe(true);
    await pane.locator('details.wire > summary').click();
    const chatPre = pane.locator('.wire-format[data-format="openai-chat"] pre');
    await poll(async () => ((await chatPre.textContent()) ?? '').length > 0).toBe(true);
    const chat = JSON.parse((await chatPre.textContent())!);
    const result = chat.messages.find((m: { role: string }) => m.role === 'tool');
    expect(result.tool_call_id).toBe('call_15');
    const call = chat.messages.find((m: { tool_calls?: { id: string }[] }) => m.tool_calls?.[0]?.id === 'call_15');
    expect(call.tool_calls[0].function.name).toBe('patch');
    await pane.locator('.wire-format[data-format="anthropic"] > summary').click();
    const anthropic = JSON.parse((await pane.locator('.wire-format[data-format="anthropic"] pre').textContent())!);
    const turn = anthropic.messages.find((m: { content: { type: string }[] }) => m.content[0]?.type === 'tool_result');
    expect(turn.role).toBe('user');
    expect(turn.content[0]).toEqual({ type: 'tool_result', tool_use_id: 'call_15', content: TOOL_RESULT, cache_control: { type: 'ephemeral' } });
    expect(turn.content.slice(1).map((b: { text: string }) => b.text.split('\n')[0])).toEqual(['## Reminder', '## remainingDelta']);
    expect(anthropic.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
