/**
 * A `prompt-fold` command imports the host's astro config just to read explainer({…})'s options,
 * and the config imports the package entry — so the entry, the Starlight plugin and the command
 * line's config reader import only what describing the integration needs: every hook's modules (the
 * options schema, the corpus, the Vite plugin, mdx, shiki) are imported when the hook runs
 * (integration/index.ts). Likewise a command loads its work's modules only after its arguments
 * parse, and `sync` needs no options schema at all. This walks the static imports (not `import type`,
 * not `import()`) from each entry through src/ and names what must not be reached — no timing, no
 * child process: it fails when a static import brings a heavy module back.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** What a config read or a usage line must not load: the options schema and fold registry, the corpus, the hooks' jobs, mdx and shiki. */
const HEAVY = [
  'zod',
  'yaml',
  'shiki',
  '@astrojs/mdx',
  'src/integration/options.ts',
  'src/builtin-folds/index.ts',
  'src/corpus/check.ts',
  'src/integration/corpus-gate.ts',
  'src/integration/vite-plugin.ts',
  'src/integration/csp.ts',
  'src/integration/search-index.ts',
  'src/integration/dev-watch.ts',
  'src/integration/shared-render.ts',
  'src/render/highlight.ts',
];

const parsed = new Map<string, string[]>();

/** The module specifiers a file imports statically for their values (each file parsed once). */
function staticImports(file: string): string[] {
  const known = parsed.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specs: string[] = [];
  for (const s of source.statements) {
    if (ts.isImportDeclaration(s) && !s.importClause?.isTypeOnly && ts.isStringLiteral(s.moduleSpecifier)) {
      const named = s.importClause?.namedBindings;
      const onlyTypes = !s.importClause?.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) specs.push(s.moduleSpecifier.text);
    }
    if (ts.isExportDeclaration(s) && !s.isTypeOnly && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) specs.push(s.moduleSpecifier.text);
  }
  parsed.set(file, specs);
  return specs;
}

/** Every module reached from `entry` by static imports — files of this repository by path, packages by name — not looking past a HEAVY one. */
function reached(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [join(ROOT, entry)];
  while (todo.length) {
    const file = todo.pop()!;
    const key = relative(ROOT, file);
    if (seen.has(key)) continue;
    seen.add(key);
    if (HEAVY.includes(key) && key !== entry) continue;
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) todo.push(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:')) seen.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return seen;
}

const heavyIn = (entry: string): string[] => {
  const all = reached(entry);
  return HEAVY.filter((m) => all.has(m));
};

describe('what loading a config and starting a command import', () => {
  it('the package entry and the Starlight plugin import none of the hooks’ modules', () => {
    expect(heavyIn('src/package/index.ts')).toEqual([]);
    expect(heavyIn('src/package/starlight.ts')).toEqual([]);
  });

  it('the command line, its config reader and the argument parsing of each command import none of them', () => {
    for (const entry of [
      'src/cli/commands.ts',
      'src/cli/config.ts',
      'src/cli/report.ts',
      'src/cli/pr-summary.ts',
      'src/cli/pr-comment.ts',
      'src/cli/preview.ts',
      'src/cli/sync.ts',
    ]) {
      expect({ entry, heavy: heavyIn(entry) }).toEqual({ entry, heavy: [] });
    }
  });

  it('finds a heavy module where one is imported: the build’s corpus check, the hook that reads the options', () => {
    expect(heavyIn('src/integration/corpus-gate.ts')).toEqual(expect.arrayContaining(['src/integration/shared-render.ts']));
    expect(heavyIn('src/integration/read-options.ts')).toEqual(['src/integration/options.ts']);
  });
});
