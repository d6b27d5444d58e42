/**
 * `prompt-fold assert` as a function (command.ts): a capture whose prefix holds passes, one where a
 * timestamp in the system prompt breaks it fails with the located explanation (the request, the
 * first differing text, the cause, the tokens and dollars lost, the provider's rule, where the
 * promise was made), and bad input exits 2 located in the file that is wrong. The capture is the
 * bundled example trace (examples/traces/agent-session.anthropic.jsonl: its harness writes today's
 * date into the system prompt and the session crosses midnight at the fourth request).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { assertCommand, EXIT } from './command.ts';
import { parseExpectations } from './expectations.ts';
import type { InputError } from '../scenarios/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'assert-test-'));
const TRACE = readFileSync('examples/traces/agent-session.anthropic.jsonl', 'utf8');
writeFileSync(join(dir, 'broken.jsonl'), TRACE);
// The first three requests: the same day, every request extends the one before.
writeFileSync(join(dir, 'holds.jsonl'), `${TRACE.split('\n').slice(0, 3).join('\n')}\n`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await assertCommand(argv, { cwd: dir, out: (t) => (out += t), err: (t) => (err += t), version: '0.0.0-test' });
  return { code, out, err };
}

const expectations = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return name;
};

describe('prompt-fold assert', () => {
  it('on a Claude Code transcript (no cache markers recorded, the bill shows caching) names what the capture lacks, never “asks for no caching”', async () => {
    writeFileSync(join(dir, 'cc.jsonl'), readFileSync('examples/traces/claude-code-session.jsonl', 'utf8'));
    // Billed: @2 read 16,104 of 16,521 input tokens (97.5 %), below the promise.
    const e = expectations('cc.yaml', 'minCached: {from: "@2", percent: "99.9%"}\n');
    const r = await run('cc.jsonl', '--expect', e);
    expect(r.code).toBe(EXIT.broken);
    expect(r.err).toMatch(/^cc\.jsonl:7:1 error: request @2 reads 16,104 of 16,521 input tokens \(97\.5 %\) from the cache \(billed\)/);
    expect(r.err).toContain('cause: markers-unrecorded');
    expect(r.err).toContain("fix: the capture does not record @2's cache markers, so the model cannot tell why it read what it did");
    expect(r.err).not.toMatch(/no cache breakpoint|asks for no caching/);
  });

  it('passes a capture whose prefix holds (exit 0), and says what it read', async () => {
    const e = expectations('none.yaml', 'busts: []\nminCached: {from: "@2", percent: "50%"}\n');
    const r = await run('holds.jsonl', '--expect', e);
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT.kept);
    expect(r.out).toMatch(/^ok: every promise kept — 1 conversation, 3 requests, /);
  });

  it('fails where the date in the system prompt breaks the prefix (exit 1), located and explained', async () => {
    const e = expectations('none2.yaml', '# the team promises a stable prefix\nbusts: []\n');
    const r = await run('broken.jsonl', '--expect', e);
    expect(r.code).toBe(EXIT.broken);
    const lines = r.err.split('\n');
    expect(lines[0]).toMatch(/^broken\.jsonl:4:1 error: request @4 busts the cached prefix of request @3: /);
    // The first differing text inside the cached prefix: the date, yesterday and today.
    expect(r.err).toMatch(/was: ".*Today's date: 2026-11-30\. /);
    expect(r.err).toMatch(/now: ".*Today's date: 2026-12-01\. /);
    expect(r.err).toContain('cause: system-changed, at @4');
    // Tokens lost ≈1,487 (the entry @3 wrote up to its system breakpoint); at Sonnet 4.5's prices
    // ($3.75 per million written, $0.30 read) each lost token costs $3.45 per million more:
    // 1,487 × 3.45 / 1e6 = $0.00513.
    expect(r.err).toContain(`lost: ≈1,487 cached tokens, $${(Math.round(((1487 * 3.45) / 1e6) * 1e5) / 1e5).toFixed(5)}`);
    expect(r.err).toMatch(/rule: Anthropic Claude Sonnet 4\.5: .* \(https:\/\/platform\.claude\.com\/docs\/en\/build-with-claude\/prompt-caching, read \d{4}-\d{2}-\d{2}\)/);
    expect(r.err).toContain('promised: busts at none2.yaml:2:8 (broken.jsonl)');
    expect(r.err).toMatch(/FAILED: 1 broken promise in 1 of 1 conversation/);
  });

  it('keeps a promise that names the break, and holds the bill as the truth for cached tokens', async () => {
    const e = expectations('named.yaml', 'busts: ["@4"]\ncached: ["@2", "@3", "@5"]\n');
    const r = await run('broken.jsonl', '--expect', e);
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT.kept);
  });

  it('a minimum cached share from a request on: the request that reads less is named with the billed figure', async () => {
    const e = expectations('min.yaml', 'busts: ["@4"]\nminCached:\n  from: "@2"\n  percent: "50%"\n');
    const r = await run('broken.jsonl', '--expect', e);
    expect(r.code).toBe(EXIT.broken);
    // @4 reads nothing: its system prompt changed. The bill says 0 of 1,749.
    expect(r.err).toMatch(/^broken\.jsonl:4:1 error: request @4 reads 0 of 1,749 input tokens \(0\.0 %\) from the cache \(billed\): less than 50 % of its input/m);
    expect(r.err).toContain('promised: minCached at min.yaml:3:3');
  });

  it('a cost per conversation above the promise fails with the cost (billed)', async () => {
    const e = expectations('cost.yaml', 'maxCostPerConversation: "$0.001"\n');
    const r = await run('broken.jsonl', '--expect', e);
    expect(r.code).toBe(EXIT.broken);
    const printed = /^broken\.jsonl:1:1 error: the conversation costs \$([\d.]+) \(as billed, 5 requests\), more than \$0\.001/m.exec(r.err);
    expect(printed, r.err).not.toBeNull();
    // The bill, priced by hand at Sonnet 4.5's list prices per million tokens (input $3, cache
    // write 5 min $3.75, cache read $0.30, output $15), from each response's usage in the trace.
    const usd = TRACE.trim()
      .split('\n')
      .map((l) => JSON.parse(l).response.usage)
      .reduce((n, u) => n + (u.input_tokens * 3 + u.cache_creation_input_tokens * 3.75 + u.cache_read_input_tokens * 0.3 + u.output_tokens * 15) / 1e6, 0);
    expect(Math.abs(Number(printed![1]) - usd)).toBeLessThan(0.00005);
  });

  it("the bill is priced at the prices of its requests' dates (Claude Sonnet 5.5 reads: $0.20 until 2026-10-07, $0.10 from then on)", async () => {
    // The first three requests, sent to Sonnet 5.5 on 2026-10-06 (before the cut) and on 2026-11-30 (after it).
    const onDay = (day: string) =>
      TRACE.trim()
        .split('\n')
        .slice(0, 3)
        .map((l) => {
          const v = JSON.parse(l);
          v.body.model = 'claude-sonnet-5-5';
          v.timestamp = v.timestamp.replace('2026-11-30', day);
          return JSON.stringify(v);
        });
    const e = expectations('cost55.yaml', 'maxCostPerConversation: "$0.000001"\n');
    const cost = async (day: string) => {
      writeFileSync(join(dir, `s55-${day}.jsonl`), `${onDay(day).join('\n')}\n`);
      const r = await run(`s55-${day}.jsonl`, '--expect', e);
      const printed = /the conversation costs \$([\d.]+) \(as billed, 3 requests\)/.exec(r.err);
      expect(printed, r.err).not.toBeNull();
      return Number(printed![1]);
    };
    // By hand, per million tokens: input $2, 5-minute writes $2.50, output $10, reads $0.20 or $0.10.
    const usage = onDay('2026-10-06').map((l) => JSON.parse(l).response.usage);
    const byHand = (read: number) =>
      usage.reduce((n, u) => n + (u.input_tokens * 2 + u.cache_creation_input_tokens * 2.5 + u.cache_read_input_tokens * read + u.output_tokens * 10) / 1e6, 0);
    expect(usage.some((u) => u.cache_read_input_tokens > 0)).toBe(true);
    expect(Math.abs((await cost('2026-10-06')) - byHand(0.2))).toBeLessThan(0.00005 / 10);
    expect(Math.abs((await cost('2026-11-30')) - byHand(0.1))).toBeLessThan(0.00005 / 10);
  });

  it('a capture of two conversations is judged per conversation (the importer groups them by their key)', async () => {
    const lines = TRACE.trim().split('\n').slice(0, 3);
    const as = (user: string, l: string) => {
      const v = JSON.parse(l);
      v.body.metadata = { user_id: user };
      return JSON.stringify(v);
    };
    writeFileSync(join(dir, 'two.jsonl'), `${[...lines.map((l) => as('alice', l)), ...lines.slice(0, 2).map((l) => as('bob', l))].join('\n')}\n`);
    const e = expectations('two.yaml', 'busts: []\ncached: ["@2", "@3"]\n');
    const r = await run('two.jsonl', '--expect', e);
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT.kept);
    expect(r.out).toMatch(/^ok: every promise kept — 2 conversations, 5 requests, /);
    // bob's conversation has no @3: `cached` names it for alice's only — and a request no conversation has is bad input.
    const none = expectations('two-bad.yaml', 'busts: ["@6"]\n');
    expect((await run('two.jsonl', '--expect', none)).code).toBe(EXIT.input);
  });

  it('reads a gzipped capture as its text, one conversation or a log of several; one cut short is bad input', async () => {
    const e = expectations('packed.yaml', 'busts: []\nminCached: {from: "@2", percent: "50%"}\n');
    writeFileSync(join(dir, 'holds.jsonl.gz'), gzipSync(readFileSync(join(dir, 'holds.jsonl'))));
    const one = await run('holds.jsonl.gz', '--expect', e);
    expect([one.code, one.err]).toEqual([EXIT.kept, '']);
    expect(one.out).toMatch(/^ok: every promise kept — 1 conversation, 3 requests, /);
    // A log of two conversations (the importer groups them), gzipped: judged per conversation, as the text is.
    const lines = TRACE.trim().split('\n').slice(0, 3);
    const as = (user: string, l: string) => JSON.stringify({ ...JSON.parse(l), body: { ...JSON.parse(l).body, metadata: { user_id: user } } });
    writeFileSync(join(dir, 'two.jsonl.gz'), gzipSync(`${[...lines.map((l) => as('alice', l)), ...lines.slice(0, 2).map((l) => as('bob', l))].join('\n')}\n`));
    const two = await run('two.jsonl.gz', '--expect', expectations('two-packed.yaml', 'busts: []\ncached: ["@2", "@3"]\n'));
    expect([two.code, two.err]).toEqual([EXIT.kept, '']);
    expect(two.out).toMatch(/^ok: every promise kept — 2 conversations, 5 requests, /);
    const gz = gzipSync(readFileSync(join(dir, 'holds.jsonl')));
    writeFileSync(join(dir, 'cut.jsonl.gz'), gz.subarray(0, gz.length >> 1));
    const cut = await run('cut.jsonl.gz', '--expect', e);
    expect(cut.code).toBe(EXIT.input);
    expect(cut.err).toMatch(/^cut\.jsonl\.gz:1:1 error: the file is gzip-compressed but does not decompress: unexpected end of file\n/);
  });

  it('a capture too large to read whole: a log is read line by line (its problems at their lines), anything else is refused with how to split it', async () => {
    const { MAX_WHOLE_BYTES } = await import('../scenarios/files.ts');
    const e = expectations('huge.yaml', 'busts: []\n');
    // Sparse files: the size is real, no disk blocks are written. A log whose end a crash filled with zero bytes …
    writeFileSync(join(dir, 'huge-log.jsonl'), readFileSync(join(dir, 'holds.jsonl')));
    truncateSync(join(dir, 'huge-log.jsonl'), MAX_WHOLE_BYTES + 1);
    const log = await run('huge-log.jsonl', '--expect', e);
    expect(log.code).toBe(EXIT.input);
    expect(log.err).toMatch(/^huge-log\.jsonl:4:1 error: this line runs past 268\.4 million characters without a line end/);
    // … and a Claude Code transcript that large: only splitting it helps (a log would have been read line by line).
    writeFileSync(join(dir, 'huge-cc.jsonl'), '{"type":"summary","summary":"x"}\n');
    truncateSync(join(dir, 'huge-cc.jsonl'), MAX_WHOLE_BYTES + 1);
    const cc = await run('huge-cc.jsonl', '--expect', e);
    expect(cc.code).toBe(EXIT.input);
    expect(cc.err).toContain(
      'huge-cc.jsonl:1:1 error: the file is 536.9 MB: more than one text can hold here (536.9 MB)\n  fix: split the capture into files under 536.9 MB (by session or by day) and give each\n',
    );
  });

  it('reads a folder as the import does (a Claude Code session folder: every conversation of its files); an empty one is bad input', async () => {
    mkdirSync(join(dir, 'session-folder'));
    writeFileSync(join(dir, 'session-folder', 'cc.jsonl'), readFileSync('examples/traces/claude-code-session.jsonl', 'utf8'));
    const r = await run('session-folder', '--expect', expectations('folder.yaml', 'minCached: {from: "@2", percent: "90%"}\n'));
    expect([r.code, r.err]).toEqual([EXIT.kept, '']);
    expect(r.out).toMatch(/^ok: every promise kept — 1 conversation, 3 requests, 46,830 of 49,466 input tokens read from the cache \(95 %\)/);
    mkdirSync(join(dir, 'empty-folder'));
    const empty = await run('empty-folder', '--expect', 'folder.yaml');
    expect(empty.code).toBe(EXIT.input);
    expect(empty.err).toMatch(/^empty-folder:1:1 error: the folder holds no \.jsonl \(or \.jsonl\.zst\) file\n/);
  });

  it('bad input exits 2, located in the file that is wrong, and judges nothing', async () => {
    const bad = expectations('bad.yaml', 'busts: "@4"\nminCached: {from: 2}\nmaxCost: 1\n');
    const r = await run('broken.jsonl', '--expect', bad);
    expect(r.code).toBe(EXIT.input);
    expect(r.err).toContain('bad.yaml:1:8 error: `busts` must be a list of requests');
    expect(r.err).toContain('bad.yaml:2:12 error: minCached names neither `tokens` nor `percent`');
    expect(r.err).toContain('bad.yaml:3:1 error: unknown expectation `maxCost`');
    expect(r.err).toContain('nothing was checked');
    const unknown = expectations('unknown.yaml', 'busts: ["@9"]\n');
    const u = await run('holds.jsonl', '--expect', unknown);
    expect(u.code).toBe(EXIT.input);
    expect(u.err).toContain('unknown.yaml:1:9 error: busts names "@9", but no conversation has a request @9 (its requests: @1, @2, @3)');
    writeFileSync(join(dir, 'junk.jsonl'), '{"model": "gpt-5", "messages": [}\n');
    const j = await run('junk.jsonl', '--expect', unknown);
    expect(j.code).toBe(EXIT.input);
    expect(j.err).toMatch(/^junk\.jsonl:1:\d+ error: /);
    expect((await run('missing.jsonl', '--expect', unknown)).err).toContain('missing.jsonl:1:1 error: no such file');
  });

  it('usage errors exit 2 with the usage line', async () => {
    expect(await run('holds.jsonl')).toMatchObject({ code: EXIT.input, err: expect.stringContaining('no expectations file given') });
    expect(await run('--expect', 'x.yaml')).toMatchObject({ code: EXIT.input, err: expect.stringContaining('no capture given') });
    expect(await run('holds.jsonl', '--expect', 'x.yaml', '--reporter', 'tap')).toMatchObject({ code: EXIT.input, err: expect.stringContaining('unknown --reporter "tap"') });
  });

  it('--output writes the machine report whole and still prints the text report', async () => {
    const e = expectations('none3.yaml', 'busts: []\n');
    const r = await run('broken.jsonl', '--expect', e, '--reporter', 'junit', '--output', 'report.xml');
    expect(r.code).toBe(EXIT.broken);
    expect(r.err).toContain('error: request @4 busts');
    expect(readFileSync(join(dir, 'report.xml'), 'utf8')).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="prompt-fold assert" tests="1" failures="1"/);
    // Into a folder not made yet: made.
    expect((await run('broken.jsonl', '--expect', e, '--reporter', 'sarif', '--output', 'reports/new/cache.sarif')).code).toBe(EXIT.broken);
    expect(JSON.parse(readFileSync(join(dir, 'reports/new/cache.sarif'), 'utf8')).version).toBe('2.1.0');
  });

  it('a folder where a file belongs (--output, --expect) is bad input with the fix, before anything is judged; never a stack trace', async () => {
    const e = expectations('none4.yaml', 'busts: []\n');
    mkdirSync(join(dir, 'out-folder'));
    const out = await run('holds.jsonl', '--expect', e, '--reporter', 'junit', '--output', 'out-folder');
    expect(out).toEqual({ code: EXIT.input, out: '', err: '--output out-folder is a folder\n  fix: give --output the path of a file, e.g. out-folder/cache.xml\n' });
    const exp = await run('holds.jsonl', '--expect', 'out-folder');
    expect(exp.code).toBe(EXIT.input);
    expect(exp.err).toMatch(/^out-folder:1:1 error: this is a folder, not an expectations file\n {2}fix: give --expect the YAML file of the promises/);
    writeFileSync(join(dir, 'a-file'), 'x');
    const under = await run('holds.jsonl', '--expect', e, '--reporter', 'junit', '--output', 'a-file/cache.xml');
    expect(under.code).toBe(EXIT.input);
    expect(under.err).toMatch(/^cannot write a-file\/cache\.xml: E(EXIST|NOTDIR): .+\n {2}fix: give --output a path in a folder you can write to\n/);
    expect(under.err).not.toMatch(/\n\s+at /);
  });
});

describe('the expectations file', () => {
  const parse = (text: string) => {
    const problems: InputError[] = [];
    const exp = parseExpectations(text, 'e.yaml', problems);
    return { exp, problems };
  };
  it('reads the scenario vocabulary, an `expect:` block copied from a scenario included', () => {
    const { exp, problems } = parse('expect:\n  busts: ["@3", 5]\n  maxMeasuredDiff: {cachedTokens: "2%", cacheWriteTokens: 50}\n');
    expect(problems).toEqual([]);
    expect(exp.busts).toEqual({
      offsets: [3, 5],
      at: { file: 'e.yaml', line: 2, col: 10 },
      each: [
        { file: 'e.yaml', line: 2, col: 11 },
        { file: 'e.yaml', line: 2, col: 17 },
      ],
    });
    expect(exp.maxMeasuredDiff?.map((m) => [m.field, m.percent, m.tokens])).toEqual([
      ['cachedTokens', 2, undefined],
      ['cacheWriteTokens', undefined, 50],
    ]);
  });
  it('reads a file saved with a byte order mark as the same file, its errors at the same columns', () => {
    const text = 'maxCostPerConversation: cheap\n';
    const at = (t: string) => parse(t).problems.map((p) => [p.pos.line, p.pos.col, p.message]);
    expect(at(`\uFEFF${text}`)).toEqual(at(text));
    expect(at(text)[0]!.slice(0, 2)).toEqual([1, 25]);
  });
  it('locates YAML errors and wrong values', () => {
    expect(parse('busts: [\n').problems[0]!.message).toMatch(/^not valid YAML/);
    expect(parse('maxCostPerConversation: cheap\n').problems.map((p) => [p.pos.line, p.pos.col, p.message])).toEqual([
      [1, 25, 'maxCostPerConversation must be an amount in US dollars, got "cheap"'],
    ]);
    expect(parse('minCached: {percent: "150%"}\n').problems[0]!.message).toContain('minCached.percent must be a percentage from 0 to 100');
  });
});
