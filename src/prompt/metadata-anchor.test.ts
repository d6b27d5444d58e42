/**
 * Annotations anchored on protocol metadata (an `@N …` first line) are a warning — never an error:
 * detection on printed lines (block and quoted content, a typed "@N" that is not the fold's), and
 * the warning as `npm run check` and the build report it, at the `find:` position.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../integration/options.ts';
import { renderTexts } from '../corpus/check.ts';
import { anchorsOnMetadata, metadataRange } from './metadata-anchor.ts';
import type { PrintedLine } from './print.ts';
import { resolveAnchors } from './weave.ts';

const pos = { file: 'scenarios/x.yaml', line: 1, col: 1 };
const lines: PrintedLine[] = [
  { text: 'messages:', from: [], message: -1 },
  { text: '  - role: developer', from: [12], message: 0 },
  { text: '    content: |-', from: [12], message: 0 },
  { text: '      @12 actor=script:"exec-1"', from: [12], message: 0 },
  { text: '      Script result: ok', from: [12], message: 0 },
  { text: '  - role: user', from: [13], message: 1 },
  { text: '    content: "@7 is the offset I meant"', from: [13], message: 1 },
  { text: '  - role: user', from: [14], message: 2 },
  { text: '    content: |-', from: [14], message: 2 },
  { text: '      @3 please look at this', from: [14], message: 2 },
];
const anchor = (find: string) => resolveAnchors(lines, [{ request: 20, find, comment: 'c', pos, findPos: pos }], [])[0]!;

describe('anchors on protocol metadata', () => {
  it('finds the metadata line: the first content line of a message, starting @N where N is its own event', () => {
    expect(metadataRange(lines, 3)).toEqual({ start: 6, end: lines[3]!.text.length });
    expect(metadataRange(lines, 4)).toBeNull(); // second content line
    expect(metadataRange(lines, 6)).toBeNull(); // a person typed "@7": not the message's own offset
    expect(metadataRange(lines, 9)).toBeNull(); // "@3" typed by a person, in a block
    expect(metadataRange(lines, 0)).toBeNull();
  });

  it('a quoted one-line content: the metadata part ends at the first escaped newline', () => {
    const quoted: PrintedLine[] = [{ text: '    content: "@5 actor=user:web\\nhi"', from: [5], message: 0 }];
    expect(metadataRange(quoted, 0)).toEqual({ start: 14, end: 31 });
  });

  it('an anchor overlapping the metadata line is flagged; one on the content is not', () => {
    expect(anchorsOnMetadata(lines, anchor('@12 actor='))).toBe(true);
    expect(anchorsOnMetadata(lines, anchor('exec-1'))).toBe(true);
    expect(anchorsOnMetadata(lines, anchor('Script result'))).toBe(false);
    expect(anchorsOnMetadata(lines, anchor('is the offset I meant'))).toBe(false);
    expect(anchorsOnMetadata(lines, anchor('@3 please'))).toBe(false);
  });

  it('the corpus check reports it as a warning at the find, and the scenario still renders', async () => {
    const config = await resolveOptions(process.cwd());
    const text = `id: meta
title: Meta
events:
  - {off: 1, t: 0ms, type: agents/context-added, payload: {role: system, key: identity, content: "You are helpful."}}
  - {off: 2, t: 1s, type: agents/context-added, payload: {role: developer, content: "Script result: ok", actor: {type: script, executionId: exec-1}}}
  - {off: 3, t: 2s, type: agent/llm-request-requested, payload: {model: m}}
annotations:
  - request: "@3"
    find: '@2 actor=script'
    comment: "on the metadata"
  - request: "@3"
    find: "Script result: ok"
    comment: "on the content"
`;
    const r = await renderTexts([{ file: 'scenarios/30-meta.yaml', text }], config, { everyEvent: false });
    expect(r.errors).toEqual([]);
    expect(r.scenarios[0]!.requests[0]!.anchors).toHaveLength(2);
    expect(r.warnings).toEqual([
      {
        pos: { file: 'scenarios/30-meta.yaml', line: 9, col: 11 },
        message: expect.stringMatching(
          /^find "@2 actor=script" anchors on protocol metadata \(the `@N …` first line of a message\) in request @3: .* anchor on the message's content or its section tag instead$/,
        ),
      },
    ]);
  });
});
