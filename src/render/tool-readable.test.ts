import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderTexts } from '../corpus/check.ts';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { scenarioView } from '../prompt/view.ts';
import { escapeHtml } from './escape.ts';
import { fromPane } from './pane-markup.ts';
import { encodePanes } from './pane-data.ts';
import { paneDecoder } from './pane-codec.ts';
import { toolPartOf, toolReadable } from './tool-readable.ts';

// Hand-written tool call, in the shape the Anthropic adapter normalises one to (normalise.ts `tagged`):
// nested input, a multi-line string, and hostile text (markup, backticks, quotes).
const input = {
  file_path: 'src/a.ts',
  old_string: 'one\n  two',
  opts: { replace_all: false, tags: ['<script>alert(1)</script>', '`x` "q" \'s\' </details>'] },
};
const call = `[tool_use] ${JSON.stringify({ id: 'toolu_01', name: 'Edit', input })}`;
const result = '[tool_result] {"tool_use_id":"toolu_01"}';

describe('toolReadable', () => {
  it('shows a call by name with its input as YAML, and pairs a result with its call', () => {
    // A pane: the call in a block scalar, the result as a one-line quoted content.
    const lines = ['messages:', '    content: |-', `      ${call}`, '  - role: user', `    content: ${JSON.stringify(result)}`];
    const out = toolReadable(lines);
    expect([...out.keys()]).toEqual([2, 4]);
    expect(out.get(2)).toBe(
      '<details class="tool-readable"><summary>Tool call <b>Edit (toolu_01)</b> — its input, readable</summary><pre>' +
        '  file_path: src/a.ts\n' +
        '  old_string: |-\n' +
        '    one\n' +
        '      two\n' +
        '  opts:\n' +
        '    replace_all: false\n' +
        '    tags:\n' +
        '      - &lt;script&gt;alert(1)&lt;/script&gt;\n' +
        '      - &quot;`x` \\&quot;q\\&quot; &#39;s&#39; &lt;/details&gt;&quot;' +
        '</pre></details>',
    );
    expect(out.get(4)).toBe('<p class="tool-answer" role="note">Tool result ← Edit (toolu_01)</p>');
  });

  it('escapes a hostile tool name and id', () => {
    const out = toolReadable([`[tool_use] ${JSON.stringify({ id: '"><i>', name: '</details><script>', input: {} })}`]);
    expect(out.get(0)).toBe(
      '<details class="tool-readable"><summary>Tool call <b>&lt;/details&gt;&lt;script&gt; (&quot;&gt;&lt;i&gt;)</b> — its input, readable</summary><pre>  {}</pre></details>',
    );
  });

  it('names only the id of a result whose call is not in the pane', () => {
    expect(toolReadable([result]).get(0)).toBe('<p class="tool-answer" role="note">Tool result ← toolu_01</p>');
  });

  it('reads the other adapters’ shapes: arguments as a JSON string, function.name, call_id', () => {
    expect(toolPartOf('[tool_call] {"id":"c1","function":{"name":"read","arguments":"{\\"p\\":1}"}}')).toEqual({ kind: 'call', name: 'read', id: 'c1', input: { p: 1 } });
    expect(toolPartOf('[function_call] {"id":"fc_1","call_id":"call_1","name":"run","arguments":"not json"}')).toEqual({
      kind: 'call',
      name: 'run',
      id: 'call_1',
      input: 'not json',
    });
    expect(toolPartOf('[function_call_output] {"call_id":"call_1"}')).toEqual({ kind: 'result', id: 'call_1' });
  });

  it('leaves every other line alone', () => {
    for (const l of [
      '  - role: user',
      '      [tool_use] {not json',
      '      [image] {"source":"x"}',
      '      say [tool_use] {"name":"x"}',
      '    content: "plain"',
      '      [tool_use]',
    ])
      expect(toolPartOf(l)).toBeUndefined();
  });
});

describe('the bundled imported trace (scenario 30)', () => {
  it('its request panes carry each call’s and result’s companion, printed and in the page data, the lines unchanged', async () => {
    const file = 'scenarios/30-imported-trace.yaml';
    const corpus = await renderTexts(
      [{ file, text: readFileSync(join(import.meta.dirname, '../..', file), 'utf8') }],
      { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'requests' },
      { everyEvent: true },
    );
    expect(corpus.errors).toEqual([]);
    const view = scenarioView(corpus.scenarios[0]!);
    const pane = view.panes.find((p) => p.kind === 'request' && p.lines.some((l) => l.text.includes('[tool_result]')))!;
    const markup = fromPane(
      pane,
      view.cards,
      pane.lines.map((l) => escapeHtml(l.text)),
      { idPrefix: 'pane', tools: toolReadable(pane.lines.map((l) => l.text)) },
    );
    const at = pane.lines.findIndex((l) => l.text === '      [tool_use] {"id":"toolu_01","name":"read_file","input":{"path":"src/exports/run.ts"}}');
    expect(markup.lines[at]!.tool).toBe(
      '<details class="tool-readable"><summary>Tool call <b>read_file (toolu_01)</b> — its input, readable</summary><pre>  path: src/exports/run.ts</pre></details>',
    );
    const answer = pane.lines.findIndex((l) => l.text === '      [tool_result] {"tool_use_id":"toolu_01"}');
    expect(markup.lines[answer]!.tool).toBe('<p class="tool-answer" role="note">Tool result ← read_file (toolu_01)</p>');
    // The line itself is the text as sent.
    expect(markup.lines[at]!.html).toBe(escapeHtml(pane.lines[at]!.text));
    // Panes built in the browser get the same companions from the data.
    const data = await encodePanes([pane]);
    const tools = paneDecoder(data)(pane.offset)!.tools;
    const byLine = new Map<number, unknown>();
    for (let k = 0; k < tools.length; k += 2) byLine.set(tools[k]!, data.html[tools[k + 1]!]);
    expect(byLine.get(at)).toBe(markup.lines[at]!.tool);
    expect(byLine.get(answer)).toBe(markup.lines[answer]!.tool);
    expect([...byLine.keys()]).toEqual(markup.lines.flatMap((l, i) => (l.tool !== undefined ? [i] : [])));
    // Every pane of the page, each list written against the pane before: decoded, each pane's own companions.
    const every = await encodePanes(view.panes);
    const decode = paneDecoder(every);
    for (const p of view.panes) {
      const want = [...toolReadable(p.lines.map((l) => l.text))].map(([i, h]) => [i, h]);
      const got = decode(p.offset)!.tools;
      expect(
        Array.from({ length: got.length / 2 }, (_, k) => [got[2 * k], every.html[got[2 * k + 1]!]]),
        `@${p.offset}`,
      ).toEqual(want);
    }
    // A later pane that keeps the earlier calls where they were lists only its new ones.
    const withTools = view.panes.filter((p) => toolReadable(p.lines.map((l) => l.text)).size > 0);
    const last = every.panes[withTools.at(-1)!.offset]!.tools!;
    expect(last[0]).toBeGreaterThan(0);
    expect(last.length).toBeLessThan(2 + 2 * toolReadable(withTools.at(-1)!.lines.map((l) => l.text)).size);
  });
});
