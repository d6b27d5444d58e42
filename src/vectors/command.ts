/**
 * `prompt-fold vectors [--out <file>]`: the provider-rule test vectors of the project's corpus
 * (vectors.ts) as JSON, to stdout or written whole to `--out` (beside its target, then renamed).
 * Exit 0 written, 2 bad usage (an --out that cannot be written too); a corpus with errors is reported
 * as `check` reports it (exit 1).
 */
import { resolve } from 'node:path';
import { renderCorpus } from '../corpus/check.ts';
import type { ExplainerConfig } from '../integration/options.ts';
import { UserError } from '../errors.ts';
import { outputFileProblem, writeOutputFile } from '../output-file.ts';
import { formatError } from '../scenarios/errors.ts';
import { buildVectors } from './vectors.ts';

export const VECTORS_USAGE = 'usage: prompt-fold vectors [--out <file>]';

export interface VectorsIo {
  out(text: string): void;
  err(text: string): void;
  version: string;
}

export async function vectorsCommand(argv: readonly string[], config: ExplainerConfig, io: VectorsIo): Promise<number> {
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--out' && argv[i + 1] !== undefined) out = argv[++i];
    else {
      io.err(`${a === '--out' ? '--out needs a file' : `unknown argument ${a}`}\n  fix: ${VECTORS_USAGE}\n`);
      return 2;
    }
  }
  const naming = out === undefined ? undefined : { shown: out, option: '--out', example: 'vectors.json' };
  // A path that cannot be written is said before the corpus is rendered.
  const problem = out === undefined ? undefined : outputFileProblem(resolve(config.root, out), naming!);
  if (problem) {
    io.err(`${problem.message}\n`);
    return 2;
  }
  const corpus = await renderCorpus(config, { everyEvent: false });
  if (corpus.errors.length) {
    io.err(`${corpus.errors.map(formatError).join('\n')}\n`);
    return 1;
  }
  const doc = buildVectors(corpus, { name: 'prompt-fold-explainer', version: io.version }, config.economics);
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (out === undefined) io.out(text);
  else {
    try {
      writeOutputFile(resolve(config.root, out), text, naming!);
    } catch (err) {
      if (!UserError.is(err)) throw err;
      io.err(`${err.message}\n`);
      return 2;
    }
    io.err(
      `wrote ${out}: ${doc.vectors.length} vectors, ${doc.vectors.reduce((n, v) => n + v.requests.length, 0)} requests, ${doc.vectors[0]?.profiles.length ?? 0} profiles each (schema: schemas/vectors.v1.schema.json)\n`,
    );
  }
  return 0;
}
