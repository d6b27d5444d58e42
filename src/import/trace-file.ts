/**
 * Trace and capture files as their tools leave them: a rotated log (`day.jsonl.gz`, what logrotate
 * writes) or an archived export is often compressed. Such a file is decompressed as it is read —
 * known by its first bytes (gzip's 1F 8B, RFC 1952; zstd's 28 B5 2F FD, RFC 8878), not by its
 * name — so every reader of a trace (`prompt-fold import`, the log's line reader, `assert`) gets
 * its text, and its line numbers are the decompressed text's. A Node without zstd (before 22.15)
 * reads a zstd file as it is, and the import says how to decompress it (scenarios/source.ts).
 *
 * A file read whole is one JavaScript string, and a string holds at most MAX_STRING_LENGTH
 * characters (536,870,888 in Node 24): a larger file (or one that decompresses larger) is refused
 * with what to do instead, before Node's own "Cannot create a string longer than …" would end the
 * command with a stack trace. A log read line by line (traceStream) has no bound on its size, but
 * one on a line's (MAX_LINE_CHARS): a file with no line end for hundreds of megabytes (a binary
 * file, or the zero bytes a crash can leave at a log's end) would grow readline's line until it
 * threw where nothing catches it.
 */
import { closeSync, createReadStream, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { pipeline, Transform, type Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import type { InputError } from '../scenarios/errors.ts';
import { MAX_WHOLE_BYTES, megabytes, tooLargeToRead } from '../scenarios/files.ts';
import { runCommandWithArgs } from '../project.ts';

/** A compression format and the command that tests a file of it. */
const GZIP = { name: 'gzip', testCommand: (f: string) => `gunzip -t ${f}` } as const;
const ZSTD = { name: 'zstd', testCommand: (f: string) => `zstd -t ${f}` } as const;
type Packing = typeof GZIP | typeof ZSTD;

/**
 * How the file at `path` is compressed, by its first bytes; undefined when it is not, when Node
 * cannot decompress it, or when it cannot be read (the read that follows says why).
 */
function packingOf(path: string): Packing | undefined {
  const head = Buffer.alloc(4);
  let n: number;
  try {
    const fd = openSync(path, 'r');
    try {
      n = readSync(fd, head, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return GZIP;
  if (n === 4 && head.readUInt32BE(0) === 0x28b52ffd && typeof zlib.zstdDecompressSync === 'function') return ZSTD;
  return undefined;
}

const nameOf = (file: string): string => file.replace(/^.*[\\/]/, '');

/** A compressed file that does not decompress: cut short, or not what its first bytes say. */
function brokenPacking(packing: Packing, file: string, line: number, err: unknown): InputError {
  const why = err instanceof Error ? err.message : String(err);
  return {
    pos: { file, line, col: 1 },
    message: `the file is ${packing.name}-compressed but does not decompress${line > 1 ? ` after line ${line - 1}` : ''}: ${why}`,
    fix: `check that the file is whole (a download cut short? a log still being written?) — \`${packing.testCommand(nameOf(file))}\` tests it`,
  };
}

/**
 * A capture too large to read as one text. `bytes`: its size, when known (a decompressed one stops
 * at the bound). The fix: give it in parts — or, when the caller does not read logs line by line
 * already (`import --out`), import a log of request bodies with --out-dir, which does.
 */
function tooLarge(file: string, bytes: number | null, packing: Packing | undefined, logsReadByLine: boolean): InputError {
  const size = `${bytes === null ? `more than ${megabytes(MAX_WHOLE_BYTES)}` : megabytes(bytes)}${packing ? ` once ${packing.name}-decompressed` : ''}`;
  const outDir = logsReadByLine
    ? ''
    : ` — a log of request bodies can also be imported whole with \`${runCommandWithArgs('import')} <log> --out-dir <folder>\`, which reads it line by line`;
  return tooLargeToRead(file, size, `split the capture into files under ${megabytes(MAX_WHOLE_BYTES)} (by session or by day) and give each${outDir}`);
}

/**
 * The text of the trace file at `path` (`file`: how messages name it), decompressed when it is
 * compressed. `logsReadByLine`: the caller reads a log line by line itself (`import --out-dir`,
 * `assert`), so a file too large for it is not one, and only splitting it helps.
 */
export function readTraceFile(path: string, file: string, { logsReadByLine = false } = {}): { text: string } | { error: InputError; tooLarge?: true } {
  const packing = packingOf(path);
  let bytes: Buffer;
  try {
    // Refused by its size before it is read: reading 600 MB only to refuse it would take seconds.
    const size = statSync(path).size;
    if (!packing && size > MAX_WHOLE_BYTES) return { error: tooLarge(file, size, undefined, logsReadByLine), tooLarge: true };
    bytes = readFileSync(path);
  } catch (err) {
    return { error: unreadable(file, 1, err) };
  }
  if (!packing) return { text: bytes.toString('utf8') };
  const options = { maxOutputLength: MAX_WHOLE_BYTES };
  try {
    return { text: (packing.name === 'gzip' ? zlib.gunzipSync(bytes, options) : zlib.zstdDecompressSync(bytes, options)).toString('utf8') };
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return { error: tooLarge(file, null, packing, logsReadByLine), tooLarge: true };
    return { error: brokenPacking(packing, file, 1, err) };
  }
}

/** A file the system would not read (a folder, no permission, a disk error). */
function unreadable(file: string, line: number, err: unknown): InputError {
  return {
    pos: { file, line, col: 1 },
    message: `the file could not be read: ${err instanceof Error ? err.message : String(err)}`,
    fix: 'give the path of a capture file you can read, then try again',
  };
}

/** Characters a line of a log read line by line may hold: half of what one string can (a JSON Lines request is megabytes at most). */
export const MAX_LINE_CHARS = Math.floor(MAX_WHOLE_BYTES / 2);

/** A line that runs past MAX_LINE_CHARS: the stream fails with it, at that line. */
class LineTooLong extends Error {
  readonly line: number;
  constructor(line: number) {
    super(`line ${line} runs past ${MAX_LINE_CHARS} characters without a line end`);
    this.line = line;
  }
}

/** Passes text on unchanged, and fails at a line longer than MAX_LINE_CHARS (counting lines as it goes). */
function lineBound(): Transform {
  let line = 1;
  let run = 0;
  return new Transform({
    decodeStrings: false,
    encoding: 'utf8',
    transform(chunk: string, _encoding, done) {
      let after = 0;
      for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) {
        line++;
        run = 0;
        after = i + 1;
      }
      run += chunk.length - after;
      done(run > MAX_LINE_CHARS ? new LineTooLong(line) : null, chunk);
    },
  });
}

/**
 * The trace file at `path` as a stream of text, for reading line by line (a log too large to hold),
 * decompressed when it is compressed, failing at a line too long to hold (MAX_LINE_CHARS). A read
 * or decompression error is emitted by the stream; turn it into a problem with `streamProblem`.
 */
export function traceStream(path: string): Readable {
  const packing = packingOf(path);
  const file = createReadStream(path, packing ? {} : { encoding: 'utf8' });
  // pipeline passes each stream's errors on and destroys them all with it.
  if (!packing) return pipeline(file, lineBound(), () => {});
  const out = packing.name === 'gzip' ? zlib.createGunzip() : zlib.createZstdDecompress();
  out.setEncoding('utf8');
  return pipeline(file, out, lineBound(), () => {});
}

/** A stream's error (traceStream) as a problem at `line`, the first line not read (a line too long: that line). */
export function streamProblem(path: string, file: string, line: number, err: unknown): InputError {
  if (err instanceof LineTooLong)
    return {
      pos: { file, line: err.line, col: 1 },
      message: `this line runs past ${(MAX_LINE_CHARS / 1e6).toFixed(1)} million characters without a line end: the file is not JSON Lines from here (a binary file, or the zero bytes a crash can leave at a log's end?)`,
      fix: `give a JSON Lines log, one request per line — if the lines before this one are the log, keep only them (\`head -n ${err.line - 1} ${nameOf(file)} > ${nameOf(file).replace(/(\.[^.]+)?$/, '-head$1')}\`)`,
    };
  const packing = packingOf(path);
  return packing ? brokenPacking(packing, file, line, err) : unreadable(file, line, err);
}

/** The first `size` bytes of the file open as `fd`. */
function head(fd: number, size: number): Buffer {
  const buf = Buffer.alloc(size);
  return buf.subarray(0, readSync(fd, buf, 0, size, 0));
}

/** The first line of `text` that is complete (ends in a newline, or `whole`) and not blank. */
function firstLine(text: string, whole: boolean): string | undefined {
  const lines = text.split('\n');
  return (whole ? lines : lines.slice(0, -1)).find((l) => l.trim() !== '');
}

/**
 * The first non-blank line of the trace file at `path`, decompressed when it is compressed
 * (undefined when there is none, or the file cannot be read or decompressed): what tells a log of
 * request bodies, read line by line, from a capture read whole. Reads only as far as that line: a
 * gzip file's beginning is decompressed on its own (zlib's sync flush), a longer one each time.
 */
export function firstTraceLine(path: string): string | undefined {
  const packing = packingOf(path);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined; // the read that follows says why
  }
  try {
    const total = fstatSync(fd).size;
    for (let size = 1 << 16; ; size *= 4) {
      const whole = size >= total;
      let text: string;
      try {
        const bytes = head(fd, Math.min(size, total));
        text = !packing
          ? bytes.toString('utf8')
          : packing.name === 'gzip'
            ? zlib.gunzipSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('utf8')
            : whole
              ? zlib.zstdDecompressSync(bytes).toString('utf8')
              : '';
      } catch {
        return undefined;
      }
      const line = firstLine(text, whole);
      if (line !== undefined || whole) return line;
    }
  } finally {
    closeSync(fd);
  }
}
