/**
 * What the package ships, read from npm itself: the run's packed package (sharedPackage(): the
 * package build of `prepack`, tools/package/build.ts, then `npm pack --json`, whose report lists
 * the files in the tarball — the tarball tests/package.test.ts installs), unpacked into a temp
 * folder. Then, over those files' imports (TypeScript's parser, on the `.js` and `.d.ts` modules and on the frontmatter,
 * scripts and ESM lines of the `.astro` and `.mdx` pages):
 * - every relative import names a shipped file, and every package import a `dependencies` or
 *   `peerDependencies` entry (or a Node built-in, or an Astro/Vite virtual module) — never a
 *   devDependency, which a host does not install;
 * - every shipped file is reached from an entry: package.json `exports` and `bin`, the injected
 *   pages (the integration's own routesOf() over the shipped routes folder), the files the modules
 *   name with `new URL('…', import.meta.url)` or `import.meta.glob`. The README, the package.json
 *   and the examples (documentation a host copies from) are the only files exempt.
 * The build project (the shared package is made by its global setup).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devDataRoute, devPartRoute, routesOf } from '../src/integration/routes.ts';
import { ROOT } from './support/project.ts';
import { sharedPackage } from './support/shared-package.ts';

interface PackageJson {
  name: string;
  exports: Record<string, string | { types?: string; default: string; [condition: string]: string | undefined }>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
}
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The unpacked tarball (npm packs every file under `package/`). */
let dir: string;
let unpacked: string;
let shipped: Set<string>;
let packed: { entryCount: number; size: number; unpackedSize: number };

beforeAll(async () => {
  const { tarball, report } = await sharedPackage();
  unpacked = mkdtempSync(join(tmpdir(), 'pfe-contents-'));
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
  dir = join(unpacked, 'package');
  packed = report;
  shipped = new Set(report.files.map((f) => f.path));
}, 300_000);

afterAll(() => {
  if (unpacked) rmSync(unpacked, { recursive: true, force: true });
});

/** A module specifier a file names, with the line it is on (for the failure message). */
interface Ref {
  spec: string;
  line: number;
}

/**
 * The specifiers a piece of JavaScript/TypeScript names: imports, re-exports, `import()`, `import("…")` types, `new URL('…', import.meta.url)`, `import.meta.glob('…')`.
 * `typesErased`: code whose types are stripped before it runs (an `.astro` page's frontmatter, compiled by the host's Vite):
 * there an `import type` / `export type … from` names nothing the host loads, so it is no reference. In a declaration file it is one.
 */
function refsOf(code: string, fileName: string, lineOffset = 0, typesErased = false): Ref[] {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const refs: Ref[] = [];
  const add = (node: ts.Node, spec: string): void => {
    refs.push({ spec, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 + lineOffset });
  };
  const isImportMeta = (n: ts.Node): boolean => ts.isMetaProperty(n) && n.keywordToken === ts.SyntaxKind.ImportKeyword;
  const visit = (node: ts.Node): void => {
    const typeOnly = (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly) || (ts.isExportDeclaration(node) && node.isTypeOnly);
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!(typeOnly && typesErased)) add(node, node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      add(node, node.arguments[0].text);
    } else if (
      ts.isNewExpression(node) &&
      node.expression.getText() === 'URL' &&
      node.arguments?.length === 2 &&
      ts.isStringLiteralLike(node.arguments[0]!) &&
      ts.isPropertyAccessExpression(node.arguments[1]!) &&
      isImportMeta(node.arguments[1].expression)
    ) {
      add(node, node.arguments[0].text);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'glob' &&
      isImportMeta(node.expression.expression) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node, `glob:${node.arguments[0].text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

/** The code blocks of a page: an .astro file's frontmatter and `<script>` bodies, an .mdx file's top-level ESM lines (outside fenced code). */
function codeOf(path: string, text: string): { code: string; line: number }[] {
  const lines = text.split('\n');
  if (path.endsWith('.astro')) {
    const blocks: { code: string; line: number }[] = [];
    const end = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
    if (end > 0) blocks.push({ code: lines.slice(1, end).join('\n'), line: 1 });
    for (const m of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
      blocks.push({ code: m[1]!, line: text.slice(0, m.index).split('\n').length - 1 });
    }
    return blocks;
  }
  // The frontmatter's `layout:` is an import too (MDX wraps the page in it).
  const end = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
  const layout = lines.slice(1, Math.max(end, 1)).flatMap((l, i) => {
    const m = /^layout:\s*['"]?([^'"\s]+)/.exec(l);
    return m ? [{ code: `import ${JSON.stringify(m[1])};`, line: i + 1 }] : [];
  });
  let fenced = false;
  return layout.concat(
    lines.flatMap((l, i) => {
      if (/^\s*(```|~~~)/.test(l)) fenced = !fenced;
      return !fenced && i > end && /^(import|export)\s/.test(l) ? [{ code: l, line: i }] : [];
    }),
  );
}

/** The package a bare specifier names (`@scope/name` or `name`). */
const packageOf = (spec: string): string =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** The shipped file a relative specifier from `file` resolves to, as Node (`.js`), TypeScript (`.ts` → `.d.ts`) and Vite (no extension → `.js`) resolve it; or undefined. */
function resolveRelative(file: string, spec: string): string | undefined {
  const path = posix.normalize(posix.join(posix.dirname(file), spec.replace(/\?.*$/, '')));
  const candidates = [path, `${path}.js`, `${path}/index.js`, path.replace(/\.ts$/, '.d.ts'), path.replace(/\.js$/, '.d.ts')];
  return candidates.find((c) => shipped.has(c));
}

/** The shipped files a glob pattern (`./*.mdx`, relative to `file`) matches. */
function globMatches(file: string, pattern: string): string[] {
  const full = posix.normalize(posix.join(posix.dirname(file), pattern));
  const re = new RegExp(`^${full.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return [...shipped].filter((f) => re.test(f));
}

interface Edges {
  to: Map<string, string[]>;
  problems: string[];
}

let edgesOnce: Edges | undefined;
/** Every shipped module's references, resolved: the files each reaches, and what is wrong with the rest (computed once: two tests read it). */
const edges = (): Edges => (edgesOnce ??= findEdges());

function findEdges(): Edges {
  const allowed = new Set([...Object.keys(PKG.dependencies), ...Object.keys(PKG.peerDependencies), PKG.name]);
  const to = new Map<string, string[]>();
  const problems: string[] = [];
  for (const file of shipped) {
    const kind = /\.(d\.ts|js|astro|mdx)$/.exec(file)?.[1];
    if (!kind || file.startsWith('examples/')) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    const blocks = kind === 'astro' || kind === 'mdx' ? codeOf(file, text) : [{ code: text, line: 0 }];
    const targets: string[] = [];
    for (const block of blocks) {
      for (const { spec, line } of refsOf(block.code, `${file}.ts`, block.line, kind === 'astro' || kind === 'mdx')) {
        const at = `${file}:${line}`;
        if (spec.startsWith('glob:')) targets.push(...globMatches(file, spec.slice(5)));
        else if (spec.startsWith('.')) {
          const target = resolveRelative(file, spec);
          if (target) targets.push(target);
          else if (!(spec.endsWith('/') && existsSync(join(dir, posix.dirname(file), spec)) && statSync(join(dir, posix.dirname(file), spec)).isDirectory()))
            problems.push(`${at}: imports ${spec}, which is not shipped`);
        } else if (isBuiltin(spec) || /^(astro|virtual):/.test(spec)) {
          // Node's built-ins; Astro's and the explainer's own virtual modules.
        } else if (!allowed.has(packageOf(spec))) {
          const dev = packageOf(spec) in PKG.devDependencies ? 'a devDependency, which a host does not install' : 'not a dependency';
          problems.push(`${at}: imports ${spec}: ${dev}`);
        }
      }
    }
    to.set(file, targets);
  }
  return { to, problems };
}

/** The files the package is entered by: exports and bin, the injected pages (routesOf, as the integration injects them) and the dev server's data and data-part routes. */
function roots(): string[] {
  const entries = Object.values(PKG.exports).flatMap((e) => (typeof e === 'string' ? [e] : [e.default, ...(e.types ? [e.types] : [])]));
  const routesDir = join(dir, 'lib/routes');
  const pages = [...routesOf(routesDir, '/'), devDataRoute(routesDir, '/', '.js'), devPartRoute(routesDir, '/', '.js')].map((r) =>
    posix.relative(dir.split('\\').join('/'), fileURLToPath(r.entrypoint).split('\\').join('/')),
  );
  return [...entries, ...Object.values(PKG.bin)].map((p) => p.replace(/^\.\//, '')).concat(pages);
}

describe('the packed package', () => {
  it('is built by `npm pack` itself: prepack runs the package build', () => {
    // The shared package runs that build, then packs with --ignore-scripts (tests/support/pack-package.ts).
    expect(PKG.scripts.prepack).toBe('npm run build:package');
    expect(PKG.scripts['build:package']).toBe('node tools/package/build.ts');
  });

  it('records its size (npm pack --json)', () => {
    console.log(`tarball: ${packed.entryCount} files, ${packed.size} bytes packed, ${packed.unpackedSize} bytes unpacked`);
    expect(packed.entryCount).toBe(shipped.size);
    // The report lists what the tarball holds.
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
    expect(files.sort()).toEqual([...shipped].sort());
  });

  it('ships no test, no TypeScript source, no repository tooling, and declarations only for the public API', () => {
    const files = [...shipped];
    expect(files.filter((f) => /\.test\.|(^|\/)(tools|tests)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('examples/'))).toEqual([]);
    for (const e of ['lib/package/index.d.ts', 'lib/package/starlight.d.ts', 'lib/package/kit.d.ts', 'lib/package/assert.d.ts']) expect(files).toContain(e);
    // The page components' modules run; their types are nobody's API.
    expect(files.filter((f) => /^lib\/(components|routes|playground|wire|prompt)\/.*\.d\.ts$/.test(f))).toEqual([]);
  });

  it('imports only shipped files, dependencies and peer dependencies', () => {
    expect(edges().problems).toEqual([]);
  });

  it('has every shipped file reachable from an export, the bin or an injected page', () => {
    const { to } = edges();
    const reached = new Set<string>();
    const queue = roots();
    for (const r of queue) expect(shipped, `entry ${r}`).toContain(r);
    while (queue.length) {
      const f = queue.pop()!;
      if (reached.has(f)) continue;
      reached.add(f);
      queue.push(...(to.get(f) ?? []));
    }
    const exempt = (f: string): boolean => f === 'package.json' || f === 'README.md' || f.startsWith('examples/');
    expect([...shipped].filter((f) => !reached.has(f) && !exempt(f)).sort()).toEqual([]);
  });

  it('points a host at lib/ only: the one other condition is this repository’s own, naming the source of its default', () => {
    // .npmrc, tsconfig.json and the Vite configs turn on `prompt-fold-explainer-source` here; a host
    // never does, so its conditions (types, import/default) must each reach a shipped file.
    for (const [key, target] of Object.entries(PKG.exports)) {
      if (typeof target === 'string') continue;
      const { types, default: main, ...rest } = target;
      expect(
        Object.keys(rest).every((c) => c === 'prompt-fold-explainer-source'),
        key,
      ).toBe(true);
      expect(shipped.has(main.replace(/^\.\//, '')), `${key} → ${main}`).toBe(true);
      if (types) expect(shipped.has(types.replace(/^\.\//, '')), `${key} → ${types}`).toBe(true);
      const source = rest['prompt-fold-explainer-source'];
      if (source) expect(source).toBe(main.replace(/^\.\/lib\//, './src/').replace(/\.js$/, '.ts'));
    }
  });

  it('finds what it must find: a devDependency import and an unreachable file are reported', () => {
    // The checker's own check, on code it has not seen: a shipped module importing vitest and a missing file.
    const refs = refsOf("import { it } from 'vitest';\nexport * from './gone.js';\nconst w = new URL('./w.js', import.meta.url);\n", 'x.ts');
    expect(refs).toEqual([
      { spec: 'vitest', line: 1 },
      { spec: './gone.js', line: 2 },
      { spec: './w.js', line: 3 },
    ]);
    // A type-only import is a reference in a declaration file, not in a page's frontmatter (its types are stripped).
    const typed = "import type { A } from './a';\nexport type { B } from './b';\nimport { type C, d } from './c';\n";
    expect(refsOf(typed, 'x.d.ts').map((r) => r.spec)).toEqual(['./a', './b', './c']);
    expect(refsOf(typed, 'x.astro.ts', 0, true).map((r) => r.spec)).toEqual(['./c']);
    expect(packageOf('@astrojs/mdx/server')).toBe('@astrojs/mdx');
    expect(resolveRelative('lib/cli/check.js', './gone.js')).toBeUndefined();
    expect(codeOf('x.mdx', "---\nlayout: ../L.astro\n---\nimport a from './a';\n\n```ts\nimport b from './b';\n```\n").map((b) => b.code)).toEqual([
      'import "../L.astro";',
      "import a from './a';",
    ]);
  });
});
