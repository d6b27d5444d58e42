/**
 * Which own modules the prerendered pages import from Node (shared-modules.ts), and the rule that
 * makes it safe: every module that uses what only Vite provides is listed in VITE_ONLY, and no
 * module Node loads imports one of them at run time (an `import type` is erased, any other import
 * is loaded).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { EXT, OWN_DIR } from './own-files.ts';
import { sharedModule, sharedModuleId, VITE_ONLY } from './shared-modules.ts';

/** The modules of the explainer (not tests, not type stubs), as absolute paths. */
const modules = readdirSync(OWN_DIR, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
  .map((f) => join(OWN_DIR, f));

/** The module specifiers `file` imports at run time (static imports and re-exports that are not `type`-only, and dynamic imports), and whether it reads `import.meta.env` or `.glob`. */
function scan(file: string): { specifiers: string[]; meta: boolean } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  let meta = false;
  const add = (spec: ts.Expression | undefined): void => {
    if (spec && ts.isStringLiteral(spec)) specifiers.push(spec.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) add(node.moduleSpecifier);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly) add(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && (node.name.text === 'env' || node.name.text === 'glob')) meta = true;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, meta };
}

/** Whether `file` uses what only Vite provides: a virtual module, an import with a `?query` (`?url`, `?raw`), `import.meta.env` or `.glob`. */
function usesVite(file: string): boolean {
  const { specifiers, meta } = scan(file);
  return meta || specifiers.some((s) => s.startsWith('virtual:') || s.includes('?'));
}

/** The relative modules `file` imports at run time, as absolute paths. */
const runtimeImports = (file: string): string[] =>
  scan(file)
    .specifiers.filter((s) => s.startsWith('.'))
    .map((s) => resolve(dirname(file), s));

const own = (m: string): string => relative(OWN_DIR, m).split(sep).join('/');

describe('the modules the prerendered pages share with the integration', () => {
  it('are the own modules, not the routes, the Vite-only ones or anything but a module', () => {
    expect(sharedModule(join(OWN_DIR, 'economics', `compute${EXT}`))).toBe(true);
    expect(sharedModule(join(OWN_DIR, 'render', `highlight${EXT}`))).toBe(true);
    expect(sharedModule(join(OWN_DIR, 'routes', 'playground', `corpus.json${EXT}`))).toBe(false);
    for (const m of VITE_ONLY) expect(sharedModule(join(OWN_DIR, `${m}${EXT}`)), m).toBe(false);
    expect(sharedModule(join(OWN_DIR, 'components', 'Pane.astro'))).toBe(false);
    expect(sharedModule(join(OWN_DIR, 'styles', 'site.css'))).toBe(false);
    expect(sharedModule(`${join(OWN_DIR, 'render', `highlight${EXT}`)}?raw`)).toBe(false);
    // Another copy of the explainer (a nested package, a sibling folder named like it) is not this one.
    expect(sharedModule(join(dirname(OWN_DIR.slice(0, -1)), 'elsewhere', 'economics', `compute${EXT}`))).toBe(false);
    expect(sharedModule(`${OWN_DIR.slice(0, -1)}-other${sep}economics${sep}compute${EXT}`)).toBe(false);
  });

  it('are imported by their file URL, left out of the bundle', () => {
    const path = join(OWN_DIR, 'economics', `compute${EXT}`);
    const id = sharedModuleId(path);
    expect(id.external).toBe(true);
    expect(new URL(id.id).protocol).toBe('file:');
    expect(fileURLToPath(id.id)).toBe(path);
  });

  it('leave out every module that uses what only Vite provides (VITE_ONLY lists exactly those)', () => {
    const using = modules.filter((m) => !m.startsWith(join(OWN_DIR, 'routes') + sep) && usesVite(m));
    expect(using.map(own).sort()).toEqual(VITE_ONLY.map((m) => `${m}${EXT}`).sort());
  });

  it('never import a Vite-only module at run time (Node would load it)', () => {
    const viteOnly = new Set(VITE_ONLY.map((m) => join(OWN_DIR, `${m}${EXT}`)));
    const offending = modules
      .filter((m) => sharedModule(m))
      .flatMap((m) =>
        runtimeImports(m)
          .filter((i) => viteOnly.has(i))
          .map((i) => `${own(m)} imports ${own(i)}`),
      );
    expect(offending).toEqual([]);
  });

  it('the checks see a run-time import and a use of Vite, and not a type-only import or a mention', () => {
    expect(usesVite(join(OWN_DIR, 'integration', `site${EXT}`))).toBe(true); // import … from 'virtual:…'
    expect(usesVite(join(OWN_DIR, 'integration', `route-base${EXT}`))).toBe(true); // import.meta.env
    expect(usesVite(join(OWN_DIR, 'playground', `economics${EXT}`))).toBe(true); // …?url
    // The plugin names the virtual modules in strings, and this module names import.meta.env in a comment: neither uses them.
    expect(usesVite(join(OWN_DIR, 'integration', `vite-plugin${EXT}`))).toBe(false);
    expect(usesVite(join(OWN_DIR, 'integration', `shared-modules${EXT}`))).toBe(false);
    const site = join(OWN_DIR, 'integration', `site${EXT}`);
    const scenarioData = join(OWN_DIR, 'render', 'scenario-data.ts');
    // scenario-data.ts names SiteCorpus with `import type` (erased): not a run-time import.
    expect(readFileSync(scenarioData, 'utf8')).toMatch(/import type \{ SiteCorpus \} from '\.\.\/integration\/site\.ts'/);
    expect(runtimeImports(scenarioData)).not.toContain(site);
    // A page route imports siteCorpus itself: a run-time import, which the check reports.
    expect(runtimeImports(join(OWN_DIR, 'routes', 'playground', 'corpus.json.ts'))).toContain(site);
  });
});
