/**
 * The machine reports of `prompt-fold assert`, on a report whose every text is hostile (markup,
 * quotes, control characters, a lone surrogate, a workflow command, newlines): the JUnit XML parses
 * in a strict XML parser and gives the text back; the SARIF validates against the SARIF 2.1.0 JSON
 * Schema (the OASIS schema as shipped by @microsoft/jest-sarif, MIT, lib/schemas/
 * sarif-2.1.0-rtm.5.json; draft-04, validated with ajv-draft-04; one of its patterns is not valid in
 * Unicode mode, so patterns are compiled without the `u` flag) and round-trips the text; the
 * GitHub annotations stay one line each, with nothing a runner would read as a second command.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { AssertReport } from '../run.ts';
import type { Failure } from '../evaluate.ts';
import { junitReport, xmlEscape } from './junit.ts';
import { sarifReport } from './sarif.ts';
import { escapeData, githubReport } from './github.ts';

const require = createRequire(import.meta.url);

const HOSTILE = `</failure><script>alert("x")</script> & 'q' \u0000\u0007\u001b[31m \uD800 ]]> %0A ::error::pwned\nsecond line\r\n,:%`;

const failure = (over: Partial<Failure> = {}): Failure => ({
  expectation: 'busts',
  conversation: `trace ${HOSTILE}.jsonl`,
  request: 4,
  at: { file: `traces/we ird,name:${HOSTILE}.jsonl`, line: 4, col: 1 },
  expectedAt: { file: 'expect.yaml', line: 2, col: 8 },
  message: `request @4 busts the cached prefix: ${HOSTILE}`,
  details: [`was: ${JSON.stringify(HOSTILE)}`, `now: ${HOSTILE}`],
  rule: { text: 'Provider: exact prefix', url: 'https://example.com/caching?a=1&b=<2>', read: '2026-12-01' },
  fix: `fix ${HOSTILE}`,
  ...over,
});

const report = (failures: Failure[]): AssertReport => ({
  conversations: [{ conversation: `trace ${HOSTILE}.jsonl`, capture: 'traces/x.jsonl', requests: 5, inputTokens: 100, cachedTokens: 50, costUsd: 0.01, billed: false }],
  failures,
  problems: [],
  expectations: 'expect.yaml',
  made: ['busts', 'minCached'],
});

/** Parses XML strictly (sax, strict mode): the elements with their attributes and text, or a throw. */
function parseXml(xml: string): { name: string; attributes: Record<string, string>; text: string }[] {
  const sax = require('sax') as { parser(strict: boolean): Record<string, unknown> & { write(s: string): { close(): void } } };
  const p = sax.parser(true);
  const out: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const stack: (typeof out)[number][] = [];
  p.onopentag = (n: { name: string; attributes: Record<string, string> }) => {
    const el = { name: n.name, attributes: n.attributes, text: '' };
    out.push(el);
    stack.push(el);
  };
  p.onclosetag = () => stack.pop();
  p.ontext = (t: string) => {
    if (stack.length) stack[stack.length - 1]!.text += t;
  };
  p.onerror = (e: Error) => {
    throw e;
  };
  p.write(xml).close();
  return out;
}

describe('JUnit XML', () => {
  it('is well-formed with hostile text and gives it back (characters XML cannot hold as visible escapes)', () => {
    const xml = junitReport(report([failure()]));
    const els = parseXml(xml);
    expect(els.filter((e) => e.name === 'script')).toEqual([]);
    const suites = els.filter((e) => e.name === 'testsuite');
    expect(suites.map((s) => s.attributes.name)).toEqual([`trace ${xmlVisible(HOSTILE)}.jsonl`]);
    const cases = els.filter((e) => e.name === 'testcase').map((c) => c.attributes.name);
    expect(cases).toEqual(['busts', 'minCached']);
    const f = els.find((e) => e.name === 'failure')!;
    expect(f.attributes.message).toBe(`request @4 busts the cached prefix: ${xmlVisible(HOSTILE)}`);
    expect(f.text).toContain(`now: ${xmlVisible(HOSTILE)}`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });
  it('a kept report has a passing case per promise and no failure', () => {
    const els = parseXml(junitReport(report([])));
    expect(els.filter((e) => e.name === 'failure')).toEqual([]);
    expect(els[0]!.attributes).toMatchObject({ tests: '2', failures: '0' });
  });
  it('escapes each of the five markup characters', () => {
    expect(xmlEscape(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});

/** What XML text can carry of a string: the characters XML 1.0 forbids as `\u{…}`, CR as itself. */
const xmlVisible = (s: string): string =>
  s.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u{${c.charCodeAt(0).toString(16)}}`,
  );

describe('SARIF 2.1.0', () => {
  const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as object;
  // The schema's `uri` and `date-time` formats are checked too (ajv-formats), not skipped with a warning.
  const validate = addFormats(new Ajv({ strict: false, allErrors: true, unicodeRegExp: false })).compile(schema);

  it('validates against the SARIF 2.1.0 schema, with hostile text, kept and broken, and bad input', () => {
    for (const r of [
      report([failure(), failure({ expectation: 'minCached', expectedAt: null, rule: null, request: null })]),
      report([]),
      { ...report([]), problems: [{ pos: { file: `bad ${HOSTILE}.yaml`, line: 3, col: 2 }, message: HOSTILE, fix: 'fix it' }] },
    ]) {
      const log = JSON.parse(sarifReport(r, '1.2.3'));
      const ok = validate(log);
      expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 1)).toEqual([]);
      expect(ok).toBe(true);
    }
  });
  it('puts each broken promise at the capture line, the promise as a related location, and gives the text back', () => {
    const log = JSON.parse(sarifReport(report([failure()]), '1.2.3'));
    const [res] = log.runs[0].results;
    expect(res.ruleId).toBe('busts');
    expect(log.runs[0].tool.driver.rules[res.ruleIndex].id).toBe('busts');
    expect(res.locations[0].physicalLocation.region).toEqual({ startLine: 4, startColumn: 1 });
    expect(decodeURIComponent(res.locations[0].physicalLocation.artifactLocation.uri)).toBe(`traces/we ird,name:${HOSTILE.replace('\uD800', '\uFFFD')}.jsonl`);
    expect(res.relatedLocations[0].physicalLocation.artifactLocation.uri).toBe('expect.yaml');
    expect(res.message.text.split('\n')[0]).toBe(`request @4 busts the cached prefix: ${HOSTILE.split('\n')[0]}`);
    expect(res.properties.providerRuleUrl).toBe('https://example.com/caching?a=1&b=<2>');
  });
  it('a document the schema rejects is rejected (the validator is not vacuous)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
  });
});

describe('GitHub annotations', () => {
  it('one command per line; a capture cannot end one early or start another', () => {
    const text = githubReport(report([failure()]));
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^::error file=traces\/we ird%2Cname%3A<\/failure>.*,line=4,col=1,title=cache promise broken%3A busts::request @4 busts/);
    // A workflow command is read only at the start of a line: the hostile `::error::` stays inside the message.
    expect(lines.every((l) => l.startsWith('::'))).toBe(true);
    expect(lines[0]).toContain('%0Asecond line%0D%0A');
    expect(lines[1]).toMatch(/^::error::FAILED: 1 broken promise/);
    expect(escapeData('100%\n')).toBe('100%25%0A');
  });
  it('a kept report is a notice', () => {
    expect(githubReport(report([]))).toMatch(/^::notice::ok: every promise kept/);
  });
});
