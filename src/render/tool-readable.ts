/**
 * Tool calls and results of an imported request, shown readably beside the text the model reads.
 *
 * A provider adapter normalises a tool call to one line `[<type>] {<its fields as compact JSON>}`
 * (src/providers/shared/normalise.ts) — the text the model tokenizes and the fixtures pin, so it is
 * never rewritten. In a pane that JSON sits inside YAML (and, for a one-line message, inside a
 * quoted YAML string), so a call's input reads escaped twice over. This module reads such lines back
 * and writes a display-only companion per line: for a call, its name and its input as indented
 * YAML (the `yaml` package: strings unescaped, multi-line strings as blocks), collapsed under a
 * summary; for a result, the call it answers (`← Edit (toolu_01)`), found by its id among the
 * pane's calls. The field names read are the ones the adapters write (`name`/`function.name`;
 * `input`/`arguments`/`args`; `call_id`/`toolUseId`/`id`; `tool_use_id`/`tool_call_id`/…). All of
 * it is untrusted text: everything is escaped here, and the result is safe markup.
 */
import { stringify } from 'yaml';
import { escapeHtml } from './escape.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The tagged segment a printed line holds — a block-scalar line or a one-line `content: "…"` — or undefined. */
function segmentOf(line: string): Obj | undefined {
  // Both shapes hold `] {` as written (JSON escapes none of the three characters): most lines of a
  // pane — every line of every event's pane is read — are no tool part, and are told so here.
  if (!line.includes('] {')) return undefined;
  let s = line.trimStart();
  const quoted = /^content: (".*")$/.exec(s);
  if (quoted) {
    try {
      s = JSON.parse(quoted[1]!) as string;
    } catch {
      return undefined;
    }
  }
  const tagged = /^\[\w+\] (\{.*\})$/.exec(s);
  if (!tagged) return undefined;
  try {
    const fields: unknown = JSON.parse(tagged[1]!);
    return isObject(fields) ? fields : undefined;
  } catch {
    return undefined;
  }
}

export interface ToolCall {
  kind: 'call';
  name: string;
  id?: string;
  input: unknown;
}
export interface ToolResult {
  kind: 'result';
  id: string;
}

/** The tool call or tool result a printed line holds, or undefined. */
export function toolPartOf(line: string): ToolCall | ToolResult | undefined {
  const f = segmentOf(line);
  if (!f) return undefined;
  const fn = isObject(f.function) ? f.function : undefined;
  const name = str(f.name) ?? str(fn?.name);
  if (name === undefined) {
    const id = str(f.tool_use_id) ?? str(f.tool_call_id) ?? str(f.toolUseId) ?? str(f.call_id);
    return id === undefined ? undefined : { kind: 'result', id };
  }
  let input = f.input ?? f.args ?? f.arguments ?? fn?.arguments;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      // arguments that are not JSON are shown as the string they are
    }
  }
  const id = str(f.call_id) ?? str(f.toolUseId) ?? str(f.id);
  return { kind: 'call', name, ...(id !== undefined && { id }), input: input ?? {} };
}

/** A call's input as indented YAML-like lines (plain text). */
export function readableInput(input: unknown): string {
  return stringify(input, { lineWidth: 0 })
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

const label = (name: string, id: string | undefined): string => (id === undefined ? name : `${name} (${id})`);

/**
 * The readable companion of each line of a pane that holds a tool call or result (safe markup), by
 * line index. A result whose call is not in the pane names its id only.
 */
export function toolReadable(lines: readonly string[]): Map<number, string> {
  const parts = lines.map(toolPartOf);
  const names = new Map<string, string>();
  for (const p of parts) if (p?.kind === 'call' && p.id !== undefined) names.set(p.id, p.name);
  const out = new Map<number, string>();
  parts.forEach((p, i) => {
    if (!p) return;
    if (p.kind === 'call') {
      out.set(
        i,
        `<details class="tool-readable"><summary>Tool call <b>${escapeHtml(label(p.name, p.id))}</b> — its input, readable</summary><pre>${escapeHtml(readableInput(p.input))}</pre></details>`,
      );
    } else {
      const name = names.get(p.id);
      out.set(i, `<p class="tool-answer" role="note">Tool result ← ${escapeHtml(name === undefined ? p.id : label(name, p.id))}</p>`);
    }
  });
  return out;
}
