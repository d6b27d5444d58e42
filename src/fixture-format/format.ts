/**
 * The committed fixture format (src/pages/reference/writing-scenarios.mdx), both ways: `fixtureText` writes one
 * scenario's fixture — title, where it came from and how to refresh it, then one collapsible
 * ```yaml (request@N.yaml) block per own request, the same block shape as the reference platform's
 * files, so golden blocks and ours compare directly — and `parseFixture` reads one back (the review
 * reads fixtures committed at a base ref; the conformance test reads the reference platform's).
 * `unweave` strips the comments the writer wove into a block (the ✂ line, the cache breakpoint
 * markers, annotations) and says where the ✂ line and the breakpoints stood.
 *
 * A request that starts as the one before it ends is written as what it adds (a long
 * conversation's fixture printed every request whole, growing with the square of its length): its
 * block opens with a `# ⋯` line naming the earlier request and how many of its messages carry over
 * unchanged, then prints only the rest — from the first message that differs, or that holds one of
 * this request's own comments (the ✂ line, an annotation, a breakpoint the earlier one did not
 * have), so every comment is still printed at the line it belongs to. `parseFixture` rebuilds every
 * block's whole text, so whoever reads a fixture back (the review, src/review/) sees each request
 * exactly as a whole block would print it. The writer uses the short form only when rebuilding it
 * gives the whole text byte for byte (continuation.ts), so a prompt that looks like a comment can
 * cost bytes, never correctness.
 */
import type { RenderedScenario } from '../prompt/render.ts';
import { BREAKPOINT_COMMENT, type PrintedBreakpoint } from '../prompt/breakpoints.ts';
import { CUT_COMMENT } from '../prompt/weave.ts';
import { readMarkdown } from '../scenarios/source.ts';
import { runCommand } from '../project.ts';
import { continuation, isContinuation, rebuild } from './continuation.ts';

/** The command that rewrites the fixtures, as this project runs it (src/project.ts). */
export const updateCommand = (): string => runCommand('fixtures');

/** A request block's fence path: `request@<offset>.yaml`. */
export const REQUEST_FENCE = /^request@(\d+)\.yaml$/;
const requestFence = (offset: number): string => `request@${offset}.yaml`;

export function fixtureText(r: RenderedScenario): string {
  const head = [`# ${r.scenario.title}`, '', `Generated from \`${r.scenario.file}\` by \`${updateCommand()}\` — do not edit by hand.`];
  const blocks = r.requests.map((q, i) => {
    const prev = r.requests[i - 1];
    const text = (prev && continuation(prev.offset, prev.text, q.text)) ?? q.text;
    return ['<details>', `<summary>request @${q.offset}</summary>`, '', `\`\`\`yaml (${requestFence(q.offset)})`, text, '```', '', '</details>'].join('\n');
  });
  if (!blocks.length) blocks.push('_This scenario has no requests of its own._');
  return `${[head.join('\n'), ...blocks].join('\n\n')}\n`;
}

/** Fixture file name for a scenario file stem. */
export const fixtureName = (stem: string): string => `${stem}.md`;

export interface FixtureBlock {
  offset: number;
  /** The block's text as written (woven comments included). */
  text: string;
}

/**
 * A fixture (or a reference platform file) read back: its title and request blocks in file order,
 * each block's whole text (a block written as what it adds to an earlier one is rebuilt). A block
 * that continues a request no earlier block holds, or more messages than it has, is an error
 * naming `file` (when given) and the line of the block's first line.
 */
export function parseFixture(text: string, file?: string): { title: string; requests: FixtureBlock[] } {
  const md = readMarkdown(text);
  const whole = new Map<number, string>();
  const requests: FixtureBlock[] = [];
  for (const f of md.fences) {
    const m = REQUEST_FENCE.exec(f.path);
    if (!m) continue;
    const offset = Number(m[1]);
    const body = isContinuation(f.body) ? rebuild(f.body, whole, `${file ? `${file}:${f.line + 2}: ` : ''}request@${offset}.yaml`) : f.body;
    whole.set(offset, body);
    requests.push({ offset, text: body });
  }
  return { title: md.title, requests };
}

/**
 * A request block without the comments the writer wove in — the ✂ line, the `# ⚑ cache
 * breakpoint` markers and the given annotation comments (matched exactly, so a `#` line of the
 * prompt itself is kept) — where the ✂ stood, and where each breakpoint stood (under plain line
 * `after`, with its label: what printedBreakpoints gave the writer).
 */
export function unweave(block: string, comments: readonly string[]): { lines: string[]; cut: number | null; breakpoints: PrintedBreakpoint[] } {
  const woven = new Set(comments.flatMap((c) => c.split('\n')));
  const lines: string[] = [];
  const breakpoints: PrintedBreakpoint[] = [];
  let cut: number | null = null;
  for (const l of block.split('\n')) {
    const m = /^ *# (.*)$/.exec(l);
    if (m?.[1] === CUT_COMMENT) cut = lines.length;
    else if (m && BREAKPOINT_COMMENT.test(m[1]!)) breakpoints.push({ after: lines.length - 1, label: m[1]!.slice(2) });
    else if (!(m && woven.has(m[1]!))) lines.push(l);
  }
  return { lines, cut, breakpoints };
}
