/**
 * Trace files as tools leave them: plain, gzip- or zstd-compressed (known by their first bytes, not
 * their names), cut short; read whole, as a stream of lines, and as far as their first line.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { formatError } from '../scenarios/errors.ts';
import { MAX_WHOLE_BYTES } from '../scenarios/files.ts';
import { firstTraceLine, MAX_LINE_CHARS, readTraceFile, streamProblem, traceStream } from './trace-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'trace-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEXT = '{"model":"gpt-5","messages":[{"role":"user","content":"héllo ✂"}]}\n{"model":"gpt-5"}\n';
let n = 0;
function file(bytes: Uint8Array | string): string {
  const path = join(dir, `t-${++n}`); // no extension: the first bytes decide
  writeFileSync(path, bytes);
  return path;
}

async function linesOf(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const l of createInterface({ input: traceStream(path), crlfDelay: Number.POSITIVE_INFINITY })) out.push(l);
  return out;
}

describe('readTraceFile', () => {
  it('reads plain, gzip and zstd files to the same text', () => {
    for (const bytes of [Buffer.from(TEXT), gzipSync(TEXT), zstdCompressSync(TEXT)]) expect(readTraceFile(file(bytes), 'x.jsonl')).toEqual({ text: TEXT });
  });

  it('says where a gzip or zstd file does not decompress, and how to test it', () => {
    const gz = gzipSync(TEXT);
    const cut = readTraceFile(file(gz.subarray(0, gz.length - 8)), 'logs/day.jsonl.gz');
    expect('error' in cut && formatError(cut.error)).toBe(
      'logs/day.jsonl.gz:1:1 error: the file is gzip-compressed but does not decompress: unexpected end of file\n  fix: check that the file is whole (a download cut short? a log still being written?) — `gunzip -t day.jsonl.gz` tests it',
    );
    const zst = zstdCompressSync(TEXT);
    const bad = readTraceFile(file(Buffer.concat([zst.subarray(0, 6), Buffer.alloc(20, 0xff)])), 'a.zst');
    expect('error' in bad && formatError(bad.error)).toMatch(/^a\.zst:1:1 error: the file is zstd-compressed but does not decompress: .+\n {2}fix: .*`zstd -t a\.zst` tests it$/);
  });

  it('says a file that cannot be read (a folder) could not be read, located, never a thrown error', () => {
    const r = readTraceFile(dir, 'captures/');
    expect('error' in r && formatError(r.error)).toMatch(/^captures\/:1:1 error: the file could not be read: EISDIR: illegal operation on a directory, read\n {2}fix: /);
  });

  it('refuses a file larger than one string can hold, plain or once decompressed, with what to do — never Node’s "Cannot create a string longer than …"', () => {
    // A sparse file one byte past the bound: its size is real, its disk blocks are not written.
    const big = file('');
    truncateSync(big, MAX_WHOLE_BYTES + 1);
    const plain = readTraceFile(big, 'day.jsonl');
    expect('error' in plain && formatError(plain.error)).toBe(
      'day.jsonl:1:1 error: the file is 536.9 MB: more than one text can hold here (536.9 MB)\n  fix: split the capture into files under 536.9 MB (by session or by day) and give each — a log of request bodies can also be imported whole with `npm run import -- <log> --out-dir <folder>`, which reads it line by line',
    );
    // gzip members one after another decompress as one text (RFC 1952): 600 of 1 MB of spaces, 0.6 MB packed.
    const member = gzipSync(Buffer.alloc(1_000_000, 0x20));
    const packed = readTraceFile(file(Buffer.concat(Array.from({ length: 600 }, () => member))), 'day.jsonl.gz');
    expect('error' in packed && formatError(packed.error)).toMatch(
      /^day\.jsonl\.gz:1:1 error: the file is more than 536\.9 MB once gzip-decompressed: more than one text can hold here \(536\.9 MB\)\n {2}fix: split/,
    );
  });
});

describe('traceStream', () => {
  it('fails at a line too long to hold (zero bytes a crash left), located, instead of readline throwing where nothing catches it', async () => {
    const path = file('{"model":"gpt-5","messages":[]}\n');
    truncateSync(path, MAX_LINE_CHARS + 100); // a sparse hole of zero bytes after the first line
    const read: string[] = [];
    const failure = await (async () => {
      try {
        for await (const l of createInterface({ input: traceStream(path), crlfDelay: Number.POSITIVE_INFINITY })) read.push(l);
      } catch (err) {
        return err;
      }
    })();
    expect(read).toEqual(['{"model":"gpt-5","messages":[]}']);
    expect(formatError(streamProblem(path, 'logs/day.jsonl', read.length + 1, failure))).toBe(
      "logs/day.jsonl:2:1 error: this line runs past 268.4 million characters without a line end: the file is not JSON Lines from here (a binary file, or the zero bytes a crash can leave at a log's end?)\n  fix: give a JSON Lines log, one request per line — if the lines before this one are the log, keep only them (`head -n 1 day.jsonl > day-head.jsonl`)",
    );
  });

  it('gives the same lines for a plain, a gzip and a zstd file', async () => {
    const want = TEXT.trimEnd().split('\n');
    for (const bytes of [Buffer.from(TEXT), gzipSync(TEXT), zstdCompressSync(TEXT)]) expect(await linesOf(file(bytes))).toEqual(want);
  });

  it('fails the reading where a gzip file is cut short, and streamProblem says after which line', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => `{"n":${i}}`).join('\n');
    const gz = gzipSync(many, { level: 0 });
    const path = file(gz.subarray(0, gz.length >> 1));
    const read: string[] = [];
    const failure = await (async () => {
      for await (const l of createInterface({ input: traceStream(path), crlfDelay: Number.POSITIVE_INFINITY })) read.push(l);
    })().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure, 'the reading fails').toBeInstanceOf(Error);
    expect(read.length).toBeGreaterThan(500);
    expect(read.at(-1)).toBe(`{"n":${read.length - 1}}`);
    expect(formatError(streamProblem(path, 'day.jsonl.gz', read.length + 1, failure))).toBe(
      `day.jsonl.gz:${read.length + 1}:1 error: the file is gzip-compressed but does not decompress after line ${read.length}: unexpected end of file\n  fix: check that the file is whole (a download cut short? a log still being written?) — \`gunzip -t day.jsonl.gz\` tests it`,
    );
  });
});

describe('firstTraceLine', () => {
  it('is the first non-blank line, decompressed, however long', () => {
    expect(firstTraceLine(file(`\n  \n${TEXT}`))).toBe(TEXT.split('\n')[0]);
    expect(firstTraceLine(file(gzipSync(`\n${TEXT}`)))).toBe(TEXT.split('\n')[0]);
    expect(firstTraceLine(file(zstdCompressSync(TEXT)))).toBe(TEXT.split('\n')[0]);
    // A first line longer than the first read (64 KiB), in a stored gzip (each byte as written): read on until it ends.
    const long = `{"content":"${'x'.repeat(300_000)}"}`;
    expect(firstTraceLine(file(gzipSync(`${long}\n{"b":1}\n`, { level: 0 })))).toBe(long);
    expect(firstTraceLine(file(long))).toBe(long); // a file of one line without a newline
  });

  it('is undefined for an empty file, a blank one, a folder, and a compressed one that does not decompress', () => {
    expect(firstTraceLine(dir)).toBeUndefined();
    expect(firstTraceLine(file(''))).toBeUndefined();
    expect(firstTraceLine(file('\n \n'))).toBeUndefined();
    expect(firstTraceLine(file(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xff, 0xff, 0xff])))).toBeUndefined();
  });
});
