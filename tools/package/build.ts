/**
 * `npm run build:package` (run by `prepack`, so `npm pack` and `npm publish` always ship a fresh
 * build): the installable package, in lib/ (gitignored), laid out as src/ is. The pattern is
 * Starlight's and @astrojs/*'s (each module compiled on its own to JavaScript, `.astro` and `.mdx`
 * pages shipped as they are for the host's Vite to compile, declarations for the public API only);
 * CONTRIBUTING says why. Concretely:
 * - every `.ts` module of src/ becomes a `.js` module (TypeScript's own transpiler; its
 *   `rewriteRelativeImportExtensions` turns `./x.ts` specifiers into `./x.js`): Node refuses to
 *   strip types under node_modules, and a host's astro.config, its fold packages and the
 *   `prompt-fold` bin load these modules through Node;
 * - every other file (`.astro`, `.mdx`, `.css`, `.json`) is copied byte for byte. Those import
 *   modules without an extension (`'../render/pane-data'`), which Vite resolves to the `.ts`
 *   here and to the `.js` there, so no text is rewritten;
 *   A module of types alone (`folds/types.ts`) compiles to an empty module and is not shipped as one;
 * - declarations (`.d.ts`) for the package's entries (package.json `exports`) and only the files
 *   their types name, so a host's astro.config.ts and a fold package are typed.
 * Tests and this repository's own site (src/pages) are left out. The folder
 * is written next to lib/ and renamed into place, so a failed build never leaves half a package.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const OUT = join(ROOT, 'lib');

/** Not part of the package: tests and type stubs, and this repository's own site (its pages). */
export const LEFT_OUT = /\.test\.ts$|\.d\.ts$|^pages\//;

const COMPILER: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2023,
  rewriteRelativeImportExtensions: true,
  verbatimModuleSyntax: true,
  sourceMap: false,
};

/** Whether compiled JavaScript is empty: no statement but `export {};` (what a module of types alone compiles to). */
function typesOnly(js: string): boolean {
  const { statements } = ts.createSourceFile('x.js', js, ts.ScriptTarget.Latest);
  return statements.every((s) => ts.isExportDeclaration(s) && !s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause) && !s.exportClause.elements.length);
}

interface PackageJson {
  exports: Record<string, string | { types?: string; default: string }>;
  bin: Record<string, string>;
}

/** The package's entry modules under src/ (`./lib/x/y.js` in package.json `exports` → `x/y.ts`), from package.json itself. */
export function entries(pkg: PackageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))): string[] {
  return Object.values(pkg.exports)
    .map((e) => (typeof e === 'string' ? e : e.default))
    .filter((p) => p.startsWith('./lib/'))
    .map((p) => p.slice('./lib/'.length).replace(/\.js$/, '.ts'));
}

/** The relative modules a declaration file names (imports, re-exports, `import("…")` types), as paths of declaration files. */
function declarationImports(file: string, text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return [...info.importedFiles, ...info.referencedFiles]
    .map((r) => r.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => posix.join(posix.dirname(file), s).replace(/\.(js|ts)$/, '.d.ts'));
}

/**
 * Emits the entries' declarations with TypeScript (the program of tsconfig.json), and those of the
 * files they import, transitively — the public API's types — and not the declarations of every
 * module the entries happen to run: each file is emitted on its own, when a kept declaration names
 * it (a third of the time of emitting the whole program and keeping part of it).
 */
function emitDeclarations(out: string): number {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error('tsconfig.json: cannot read it');
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: false, declaration: true, emitDeclarationOnly: true, rootDir: SRC, outDir: out };
  const roots = entries();
  const program = ts.createProgram(
    roots.map((e) => join(SRC, e)),
    options,
  );
  const emitted = new Map<string, string>();
  const keep = new Set<string>();
  const queue = roots.map((e) => e.replace(/\.ts$/, '.d.ts'));
  while (queue.length) {
    const file = queue.pop()!;
    if (keep.has(file)) continue;
    const source = program.getSourceFile(join(SRC, file.replace(/\.d\.ts$/, '.ts')));
    if (!source) throw new Error(`declarations: ${file} is named by the public types but its module is not in the program`);
    const { diagnostics, emitSkipped } = program.emit(source, (f, text) => emitted.set(relative(out, f).split('\\').join('/'), text), undefined, true);
    if (emitSkipped || diagnostics.length)
      throw new Error(`declarations: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n') || `emit of ${file} skipped`}`);
    const text = emitted.get(file);
    if (text === undefined) throw new Error(`declarations: ${file} is named by the public types but was not emitted`);
    keep.add(file);
    queue.push(...declarationImports(file, text));
  }
  for (const file of keep) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    writeFileSync(join(out, file), emitted.get(file)!);
  }
  return keep.size;
}

export function buildPackage(out = OUT): { modules: number; declarations: number } {
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  let modules = 0;
  try {
    for (const rel of readdirSync(SRC, { recursive: true, encoding: 'utf8' }).sort()) {
      const from = join(SRC, rel);
      const name = rel.split('\\').join('/');
      if (LEFT_OUT.test(name) || !statSync(from).isFile()) continue;
      const to = join(tmp, rel);
      mkdirSync(dirname(to), { recursive: true });
      if (name.endsWith('.ts')) {
        const { outputText, diagnostics } = ts.transpileModule(readFileSync(from, 'utf8'), { compilerOptions: COMPILER, fileName: name, reportDiagnostics: true });
        if (diagnostics?.length) throw new Error(`${name}: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, '\n')}`);
        // A module of types alone compiles to nothing: no `.js` (nothing imports it at run time; its types ship as declarations if public).
        if (typesOnly(outputText)) continue;
        writeFileSync(to.replace(/\.ts$/, '.js'), outputText);
      } else copyFileSync(from, to);
      modules++;
    }
    const declarations = emitDeclarations(tmp);
    rmSync(out, { recursive: true, force: true });
    renameSync(tmp, out);
    return { modules, declarations };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

if (import.meta.main) {
  const { modules, declarations } = buildPackage();
  console.log(`${relative(process.cwd(), OUT) || '.'}/: ${modules} files from src/, ${declarations} declaration files for the public API`);
}
