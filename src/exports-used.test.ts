/**
 * Every export of a module under src/ is read somewhere: by another file of the repository (src/,
 * tools/, tests/, examples/, the site's config), or inside its own module (a type its exported
 * functions are declared with). An export nothing reads is a survivor of a removal — the review
 * found thirteen, and six more turned up later, orphaned when their only reader was removed — so
 * it fails here, with its file. Exempt: the package's entries (their exports are the public API,
 * pinned by package/exports.test.ts) and the routes' exports, which Astro reads (`GET`,
 * `getStaticPaths`). Modules are parsed with TypeScript, so a word in a comment or a string does
 * not count as a use.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|astro|mdx|mjs)$/.test(f))
    .map((f) => join(dir, f));

/**
 * The identifiers a file uses, counted. A module is parsed (comments and strings are not
 * identifiers); an .astro or .mdx file's words are counted as they are, markup included.
 */
function identifiers(text: string, file: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (name: string): void => {
    out.set(name, (out.get(name) ?? 0) + 1);
  };
  if (/\.(astro|mdx)$/.test(file)) {
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) add(m[0]);
    return out;
  }
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return out;
}

/** The names a module exports by declaration (`export const|function|class|interface|type|enum`). */
function declaredExports(text: string, file: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  for (const n of sf.statements) {
    if (!ts.canHaveModifiers(n) || !ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(n)) for (const d of n.declarationList.declarations) names.push(d.name.getText(sf));
    else if ((ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isEnumDeclaration(n)) && n.name)
      names.push(n.name.text);
  }
  return names;
}

/** Exports nothing reads in `texts` (file → text): `file: name` each. */
function unreadExports(texts: ReadonlyMap<string, string>, exempt: (file: string) => boolean): string[] {
  const ids = new Map([...texts].map(([f, t]) => [f, identifiers(t, f)]));
  const out: string[] = [];
  for (const [file, text] of texts) {
    if (!file.startsWith('src/') || !file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.d.ts') || exempt(file)) continue;
    for (const name of declaredExports(text, file)) {
      const inside = (ids.get(file)!.get(name) ?? 0) > 1;
      const elsewhere = [...ids].some(([f, m]) => f !== file && m.has(name));
      if (!inside && !elsewhere) out.push(`${file}: ${name}`);
    }
  }
  return out;
}

const ENTRY = /^src\/package\/(index|kit|assert|starlight|folds)\.ts$/;
const ROUTE = /^src\/routes\//;

describe('exports', () => {
  it('are each read somewhere: no survivor of a removal', () => {
    const all = [...files('src'), ...files('tools'), ...files('tests'), ...files('examples'), 'astro.config.mjs'];
    const texts = new Map(all.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
    expect(
      unreadExports(texts, (f) => ENTRY.test(f) || ROUTE.test(f)),
      'remove the export (or the code, when nothing uses it at all)',
    ).toEqual([]);
  });

  it('finds an export read nowhere, and not one read elsewhere, inside its module, or only named in a comment elsewhere', () => {
    const texts = new Map([
      [
        'src/a.ts',
        'export const used = 1;\nexport interface Shape { n: number }\nexport function make(): Shape { return { n: 1 }; }\nexport const unread = 2;\nexport const inComment = 3;\n',
      ],
      ['src/b.ts', "import { used, make } from './a.ts';\n// inComment is only named here\nconst s = 'unread';\nconsole.log(used, make(), s);\n"],
    ]);
    expect(unreadExports(texts, () => false)).toEqual(['src/a.ts: unread', 'src/a.ts: inComment']);
  });
});
