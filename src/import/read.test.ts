/**
 * Reading a trace file into records (read.ts), for the shapes other tools write beside JSON Lines:
 * a JSON list of objects (a Phoenix span export), pretty-printed objects one after another (the
 * OpenTelemetry Python SDK's ConsoleSpanExporter), and a YAML document (a cassette) — each record
 * located at its own line, so a later problem names the right place.
 */
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { formatError, type InputError } from '../scenarios/errors.ts';
import { chunkPos, lineChunk, MAX_DEPTH, readChunks } from './read.ts';

function read(text: string) {
  const errors: InputError[] = [];
  const chunks = readChunks(text, 't', errors);
  return { chunks, errors: errors.map(formatError) };
}

describe('readChunks', () => {
  it('a JSON list of objects: one record per element, at its own line, paths located inside it', () => {
    const text = '[\n  {"name": "a", "n": 1},\n  {\n    "name": "b, ]}",\n    "n": 2\n  }\n]\n';
    const { chunks, errors } = read(text);
    expect(errors).toEqual([]);
    expect(chunks.map((c) => [c.line, c.value.name])).toEqual([
      [2, 'a'],
      [3, 'b, ]}'],
    ]);
    expect(chunkPos(chunks[1]!, ['n'], 't')).toEqual({ file: 't', line: 5, col: 10 });
  });

  it('a one-line list (pandas to_json(orient="records")) is read the same way', () => {
    const { chunks } = read('[{"a":1},{"a":2}]');
    expect(chunks.map((c) => [c.line, c.start.col, c.value.a])).toEqual([
      [1, 2, 1],
      [1, 10, 2],
    ]);
  });

  it('a list of values that are not all objects, or an empty list, is an error', () => {
    expect(read('[{"a":1}, 2]').errors[0]).toMatch(/^t:1:1 error: the file is one JSON list of values that are not all objects/);
    expect(read('[]').errors[0]).toMatch(/^t:1:1 error: the file is one JSON empty list/);
  });

  it('pretty-printed objects one after another (ConsoleSpanExporter): one record each', () => {
    const text = '{\n    "name": "chat",\n    "n": 1\n}\n{\n    "name": "tool",\n    "n": 2\n}\n';
    const { chunks, errors } = read(text);
    expect(errors).toEqual([]);
    expect(chunks.map((c) => [c.line, c.value.name])).toEqual([
      [1, 'chat'],
      [5, 'tool'],
    ]);
    expect(chunkPos(chunks[1]!, ['n'], 't')).toEqual({ file: 't', line: 7, col: 10 });
  });

  it('a YAML mapping (a cassette) is one record; its paths are located by the YAML parser', () => {
    const { chunks, errors } = read('interactions:\n- request:\n    method: POST\n    uri: https://x/v1/messages\n');
    expect(errors).toEqual([]);
    expect(chunks).toHaveLength(1);
    expect(chunkPos(chunks[0]!, ['interactions', 0, 'request', 'uri'], 't')).toEqual({ file: 't', line: 4, col: 10 });
  });

  it('text that is neither JSON nor a YAML mapping is still a JSON Lines error at its line', () => {
    expect(read('{"a":1}\nnot json\n').errors[0]).toMatch(/^t:2:1 error: not JSON/);
  });
});

describe('a record nested too deep', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}`;
  const body = (metadata: string) => `{"model":"gpt-5","messages":[{"role":"user","content":"x"}],"metadata":${metadata}}`;

  it('is an error at its line, the others read; one MAX_DEPTH deep is read (JSON.parse reads 20,000 levels, the readers after it did not)', () => {
    const ok = body(nested(MAX_DEPTH)); // the body's own object and MAX_DEPTH - 1 more
    const { chunks, errors } = read(`${ok}\n${body(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)}\n${ok}\n`);
    expect(chunks.map((c) => c.line)).toEqual([1, 3]);
    expect(errors).toEqual([
      `t:2:1 error: this record nests objects and lists more than ${MAX_DEPTH} levels deep\n  fix: no request body nests so deep: check what wrote this record (and import the others without it)`,
    ]);
    expect(read(body(nested(MAX_DEPTH + 1))).errors).toHaveLength(1);
  });

  it('in one JSON document, and in a line of a log (lineChunk), the same', () => {
    expect(read(`[\n${body(nested(300))}\n]`).errors).toEqual([expect.stringMatching(/^t:2:1 error: this record nests objects and lists more than 256 levels deep/)]);
    const errors: InputError[] = [];
    expect(lineChunk(body(nested(300)), 7, 'day.jsonl', errors)).toBeUndefined();
    expect(errors.map(formatError)).toEqual([expect.stringMatching(/^day\.jsonl:7:1 error: this record nests objects and lists more than 256 levels deep/)]);
  });
});

describe('text encodings other tools write (scenarios/source.ts withoutBom, encodingProblem)', () => {
  const body = '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}';
  /** `text` as UTF-16LE with its byte order mark, as Windows PowerShell 5.1's `>` writes it, read back as UTF-8. */
  const utf16 = (text: string): string => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]).toString('utf8');

  it('reads past a UTF-8 byte order mark: the same records, and columns counted without it', () => {
    const plain = read(`${body}\n${body}\n`);
    const bom = read(`\uFEFF${body}\n${body}\n`);
    expect(bom.errors).toEqual([]);
    expect(bom.chunks.map((c) => [c.line, c.start.col, c.value])).toEqual(plain.chunks.map((c) => [c.line, c.start.col, c.value]));
    expect(bom.chunks).toHaveLength(2);
    // `{"a": }`: the value is missing at the 7th character of the line, the mark not counted.
    expect(read('\uFEFF{"a": }\n').errors).toEqual([expect.stringMatching(/^t:1:7 error: not JSON: expected a value, found `\}`/)]);
  });

  it('says once that UTF-16 text is not UTF-8, and how to convert it, instead of a JSON error per line', () => {
    const { chunks, errors } = read(utf16(`${body}\r\n${body}\r\n`));
    expect(chunks).toEqual([]);
    expect(errors).toEqual([
      // The byte order mark FF FE reads as two U+FFFD, then `{` and its NUL: the 4th character.
      expect.stringMatching(
        /^t:1:4 error: the file holds a NUL character here: it is UTF-16 text \(what Windows PowerShell’s `>` and `Out-File` write\) or not text at all\n {2}fix: save it as UTF-8 — in PowerShell, `\(Get-Content t\) \| Set-Content -Encoding utf8 t`$/,
      ),
    ]);
  });

  it('says a compressed file is compressed, and how to decompress it', () => {
    const text = `${body}\n${body}\n`;
    expect(read(gzipSync(text).toString('utf8')).errors).toEqual([
      't:1:1 error: the file is gzip-compressed, not text\n  fix: decompress it first — `gunzip -k t` — and give the decompressed file',
    ]);
    expect(read(zstdCompressSync(text).toString('utf8')).errors).toEqual([
      't:1:1 error: the file is zstd-compressed, not text\n  fix: decompress it first — `zstd -d t` — and give the decompressed file',
    ]);
  });
});
