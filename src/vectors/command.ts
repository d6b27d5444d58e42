/**
 * `prompt-fold vectors [--out <file>]`: the provider-rule test vectors of the project's corpus
 * (vectors.ts) as JSON, to stdout or written whole to `--out` (beside its target, then renamed).
 * Exit 0 written, 2 bad usage; a corpus with errors is reported as `check` reports it (exit 1).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { renderCorpus } from '../corpus/check.ts';
import type { ExplainerConfig } from '../integration/options.ts';
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
  const corpus = await renderCorpus(config, { everyEvent: false });
  if (corpus.errors.length) {
    io.err(`${corpus.errors.map(formatError).join('\n')}\n`);
    return 1;
  }
  const doc = buildVectors(corpus, { name: 'prompt-fold-explainer', version: io.version }, config.economics);
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (out === undefined) io.out(text);
  else {
    const target = resolve(config.root, out);
    const tmp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}`);
    writeFileSync(tmp, text);
    renameSync(tmp, target);
    io.err(
      `wrote ${out}: ${doc.vectors.length} vectors, ${doc.vectors.reduce((n, v) => n + v.requests.length, 0)} requests, ${doc.vectors[0]?.profiles.length ?? 0} profiles each (schema: schemas/vectors.v1.schema.json)\n`,
    );
  }
  return 0;
}
