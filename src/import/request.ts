/**
 * One request of a trace, as the import pipeline carries it from reading to the scenario: a body
 * read from a line (JSON Lines, an OTLP span), or one a capture rebuilt from several lines
 * (`assembled`: a path inside its body does not lead into its chunk; `origin` says where it came
 * from). Shared by the readers (bodies.ts, genai-spans.ts, captures/), the choosers and the writer.
 */
import type { InputError } from '../scenarios/errors.ts';
import type { CapturedRequest } from './captures/types.ts';
import { chunkPos } from './read.ts';
import type { Dropped } from './secrets.ts';

export type Req = Omit<CapturedRequest, 'assembled'> & { assembled?: true };

export type Obj = Record<string, unknown>;

/** The trace line a request starts on: its chunk's own line when the chunk is one line (JSON Lines), else located. */
/** The file a request was read from, when a capture joins several (a folder), else undefined: the trace itself. */
export const fileOf = (r: Req): string | undefined => r.chunk.file;
export const lineOf = (r: Req, file: string): number => (r.chunk.text.includes('\n') ? chunkPos(r.chunk, r.at, file).line : r.chunk.line);

export interface DroppedSecret extends Dropped {
  pos: InputError['pos'];
}

/** A dropped secret whose position is found only when read (locating parses the line: costly on a large log). */
export function droppedAt(d: Dropped, where: () => InputError['pos']): DroppedSecret {
  let pos: InputError['pos'] | undefined;
  return Object.defineProperty({ ...d } as DroppedSecret, 'pos', { enumerable: true, get: () => (pos ??= where()) });
}
