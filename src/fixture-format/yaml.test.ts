/**
 * Every committed fixture's request blocks are YAML that any YAML reader (and any highlighter)
 * reads as the request: each block parses without error, and once the woven comments (the ✂ line,
 * the cache breakpoint markers and the annotations) are taken out, it is exactly the request the fold rendered. A comment
 * written at column 0 on an empty line inside a `|-` block would end the block and fail this.
 * A block written as what its request adds (continuation.ts) is checked rebuilt, and as written:
 * the messages it adds are a YAML list of messages too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { loadConfig } from '../cli/config.ts';
import { assertClean, renderCorpus } from '../corpus/check.ts';
import type { RenderedRequest } from '../prompt/render.ts';
import { BREAKPOINT_COMMENT_PREFIX, printedBreakpoints } from '../prompt/breakpoints.ts';
import { CUT_COMMENT } from '../prompt/weave.ts';
import { readMarkdown } from '../scenarios/source.ts';
import { fixtureName, parseFixture } from './format.ts';

interface ParsedRequest {
  model?: string;
  messages: { role: string; content: string }[];
}

/** Parses one request block; a YAML error or a wrong shape is a test failure naming the block. */
function parseRequest(body: string, where: string): ParsedRequest {
  const doc = parseDocument(body);
  expect(doc.errors.map((e) => `${where}: ${e.message}`)).toEqual([]);
  expect(doc.warnings.map((e) => `${where}: ${e.message}`)).toEqual([]);
  const js = doc.toJS() as ParsedRequest;
  expect(Array.isArray(js.messages), `${where}: messages is a list`).toBe(true);
  for (const m of js.messages) {
    expect(typeof m.role, `${where}: every message has a role`).toBe('string');
    expect(typeof m.content, `${where}: every message has string content`).toBe('string');
  }
  return js;
}

/** The comment lines the weaver put into this request's text (what a block scalar reads as content). */
function wovenComments(r: RenderedRequest): Set<string> {
  const out = new Set<string>();
  if (r.cut !== null) out.add(`# ${CUT_COMMENT}`);
  for (const b of printedBreakpoints(r.lines, r.messages, r.breakpoints)) out.add(`# ${BREAKPOINT_COMMENT_PREFIX}${b.label}`);
  for (const a of r.anchors) for (const l of a.annotation.comment.split('\n')) out.add(`# ${l}`);
  return out;
}

const withoutComments = (content: string, comments: Set<string>): string =>
  content
    .split('\n')
    .filter((l) => !comments.has(l.trimStart()))
    .join('\n');

describe('fixture request blocks are YAML', async () => {
  const config = await loadConfig();
  const corpus = assertClean(await renderCorpus(config, { everyEvent: false }));
  const dir = join(config.root, config.fixturesDir);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();

  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const f of files) {
    it(`${f}: every request block parses, and is the rendered request once the woven comments are out`, () => {
      const rendered = corpus.scenarios.find((s) => fixtureName(basename(s.scenario.file).replace(/\.(ya?ml|md)$/, '')) === f);
      expect(rendered, `${f} belongs to a scenario`).toBeDefined();
      const text = readFileSync(join(dir, f), 'utf8');
      const written = readMarkdown(text).fences.filter((x) => /^request@\d+\.yaml$/.test(x.path));
      for (const b of written.filter((x) => x.body.startsWith('# ⋯ '))) {
        const added = parseDocument(b.body);
        expect(added.errors.map((e) => `${f} ${b.path} as written: ${e.message}`)).toEqual([]);
        const list = added.toJS() as unknown;
        expect(list === null || (Array.isArray(list) && list.every((m: { role?: unknown }) => typeof m.role === 'string')), `${f} ${b.path} as written: a list of messages`).toBe(
          true,
        );
      }
      const blocks = parseFixture(text).requests.map((q) => ({ path: `request@${q.offset}.yaml`, body: q.text }));
      expect(blocks.map((b) => b.path)).toEqual(rendered!.requests.map((r) => `request@${r.offset}.yaml`));
      for (const b of blocks) {
        const where = `${f} ${b.path}`;
        const r = rendered!.requests.find((x) => `request@${x.offset}.yaml` === b.path)!;
        const woven = parseRequest(b.body, where);
        const plain = parseRequest(r.lines.map((l) => l.text).join('\n'), `${where} (unwoven)`);
        expect(woven.model, where).toBe(plain.model);
        const comments = wovenComments(r);
        expect(
          woven.messages.map((m) => ({ ...m, content: withoutComments(m.content, comments) })),
          where,
        ).toEqual(plain.messages);
      }
    });
  }
});
