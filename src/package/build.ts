/**
 * `npm run build:package` (run by `prepack`, so `npm pack` and `npm publish` always ship a fresh
 * build): the installable package's JavaScript, in lib/ (gitignored). Node refuses to strip types
 * from `.ts` files inside node_modules, and a host's astro.config imports the integration through
 * Node, so every `.ts` module of src/ is transpiled to `.js` beside the same folder layout
 * (TypeScript's own transpiler, relative `.ts` imports rewritten to `.js`), and every other file the
 * pages need (`.astro`, `.mdx`, `.css`, …) is copied, its relative `.ts` imports rewritten the same
 * way — Vite compiles those in the host's build, as in this repository's. Tests are left out. The
 * package's entries also get type declarations (`.d.ts`, from the TypeScript program of
 * tsconfig.json), so a host's astro.config.ts and a fold package are typed. The folder is written
 * next to lib/ and renamed into place, so a failed build never leaves half a package.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const OUT = join(ROOT, 'lib');

/** Not part of the package: tests and their helpers and type stubs, and this repository's own site (its pages and content config). */
const LEFT_OUT = /\.test\.ts$|\.d\.ts$|(^|\/)test-support\.ts$|^pages\/|^content\.config\.ts$/;

/** `'./x.ts'` / `"../y.ts"` module specifiers (import, export, dynamic import, `new URL('./w.ts', …)`), not `?raw` ones. */
const RELATIVE_TS = /(['"])(\.{1,2}\/[^'"?]*?)\.ts\1/g;
const rewrite = (source: string): string => source.replace(RELATIVE_TS, '$1$2.js$1');

const COMPILER: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2023,
  rewriteRelativeImportExtensions: true,
  verbatimModuleSyntax: true,
  sourceMap: false,
};

/** The package's entries (package.json `exports`), whose declarations (and their imports') are emitted. */
export const ENTRIES = ['package/index.ts', 'package/starlight.ts', 'package/kit.ts', 'folds/index.ts', 'integration/loader.ts'];

/** Writes the entries' `.d.ts` files (and their imports') under `out`, relative imports pointing at `.js`. */
function emitDeclarations(out: string): void {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error('tsconfig.json: cannot read it');
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: false, declaration: true, emitDeclarationOnly: true, rootDir: SRC, outDir: out };
  const program = ts.createProgram(
    ENTRIES.map((e) => join(SRC, e)),
    options,
  );
  const { diagnostics, emitSkipped } = program.emit(undefined, (file, text) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, rewrite(text));
  });
  if (emitSkipped || diagnostics.length)
    throw new Error(`declarations: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n') || 'emit skipped'}`);
}

export function buildPackage(out = OUT): number {
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  let count = 0;
  for (const rel of readdirSync(SRC, { recursive: true, encoding: 'utf8' }).sort()) {
    const from = join(SRC, rel);
    const name = rel.split('\\').join('/');
    if (LEFT_OUT.test(name) || !statSync(from).isFile()) continue;
    const to = join(tmp, rel);
    mkdirSync(dirname(to), { recursive: true });
    if (name.endsWith('.ts')) {
      const source = readFileSync(from, 'utf8');
      const { outputText, diagnostics } = ts.transpileModule(source, { compilerOptions: COMPILER, fileName: name, reportDiagnostics: true });
      if (diagnostics?.length) throw new Error(`${name}: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, '\n')}`);
      writeFileSync(to.replace(/\.ts$/, '.js'), rewrite(outputText));
    } else if (/\.(astro|mdx|md)$/.test(name)) {
      writeFileSync(to, rewrite(readFileSync(from, 'utf8')));
    } else copyFileSync(from, to);
    count++;
  }
  emitDeclarations(tmp);
  rmSync(out, { recursive: true, force: true });
  renameSync(tmp, out);
  return count;
}

if (import.meta.main) {
  const n = buildPackage();
  console.log(`lib/: ${n} files from src/ (${relative(process.cwd(), OUT) || '.'})`);
}
