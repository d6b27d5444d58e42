/**
 * Which of the configured folds can run in the browser (the playground re-folds as you type), and
 * the source of the virtual module that bundles them. Built-in folds are browser-safe by the
 * layering rule (folds import nothing of the site, no node:). A custom fold module is browser-safe
 * when neither it nor any module it imports by relative path imports a Node built-in (`node:fs`,
 * `fs`, …); package imports are left to the bundler. An unsafe fold is left out of the playground
 * with its reason (the build logs it), never half-bundled.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, resolve } from 'node:path';
import { BUILTIN_FOLDS } from '../builtin-folds/index.ts';
import { foldFile } from './options.ts';
import type { ProjectFacts } from '../project.ts';

export interface BrowserFold {
  /** The spec as written in `folds` (a built-in id, a module path or a package name). */
  spec: string;
  /** Absolute module path of a custom fold; undefined for a built-in. */
  file?: string;
  /** Why the fold cannot run in the browser; undefined when it can. */
  unsafe?: string;
}

/** Static and dynamic import specifiers of a module's source (type-only imports skipped). */
function importsOf(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(
    /\bimport\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bexport\s+(type\s+)?[^'";]*?\sfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    if (m[1] || m[3]) continue;
    out.push((m[2] ?? m[4] ?? m[5])!);
  }
  return out;
}

/** The first Node built-in reachable from `file` through relative imports, with the chain to it. */
function nodeImport(file: string, seen = new Set<string>()): string | undefined {
  if (seen.has(file) || !existsSync(file)) return undefined;
  seen.add(file);
  for (const spec of importsOf(readFileSync(file, 'utf8'))) {
    if (spec.startsWith('node:') || isBuiltin(spec)) return `imports ${spec}`;
    if (spec.startsWith('.')) {
      const next = resolve(dirname(file), spec);
      const found = nodeImport(next, seen);
      if (found) return `${spec} ${found}`;
    }
  }
  return undefined;
}

export function browserFolds(root: string, specs: readonly string[] = [...BUILTIN_FOLDS.keys()]): BrowserFold[] {
  return specs.map((spec) => {
    if (BUILTIN_FOLDS.has(spec)) return { spec };
    const file = foldFile(root, spec); // a module path, or an npm package's entry file
    const why = nodeImport(file);
    return { spec, file, ...(why && { unsafe: `${spec} ${why}` }) };
  });
}

/**
 * The playground's fold module: `export const folds` — every browser-safe fold, keyed by id — and
 * `project`, the project facts its messages name commands with (src/project.ts).
 * Built-ins come from src/folds; custom folds are imported from their files (default or `fold`
 * export, as the integration's loader reads them). The namespace is handed to a function rather
 * than read as `custom0.fold`: a bundler checks a namespace's member reads against the module's
 * exports, and warns that `fold` "will always be undefined" for every fold with a default export.
 */
export function browserFoldsModule(folds: readonly BrowserFold[], builtinIndex: string, project: ProjectFacts = { host: false, configFile: 'astro.config.mjs' }): string {
  const lines = [
    `import { BUILTIN_FOLDS } from ${JSON.stringify(builtinIndex)};`,
    'export const folds = new Map();',
    'const foldOf = (m) => m.default ?? m.fold;',
    // The project's commands, for the playground's messages (src/project.ts).
    `export const project = ${JSON.stringify(project)};`,
  ];
  folds.forEach((f, i) => {
    if (f.unsafe) return;
    if (!f.file) lines.push(`folds.set(${JSON.stringify(f.spec)}, BUILTIN_FOLDS.get(${JSON.stringify(f.spec)}));`);
    else {
      lines.push(`import * as custom${i} from ${JSON.stringify(f.file)};`);
      lines.push(`{ const fold = foldOf(custom${i}); folds.set(fold.id, fold); }`);
    }
  });
  return `${lines.filter((l) => l.startsWith('import')).join('\n')}\n${lines.filter((l) => !l.startsWith('import')).join('\n')}\n`;
}
