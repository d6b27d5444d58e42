/**
 * The public API, pinned: every export of every entry in package.json's `exports` — its name and
 * kind (function, class, const, interface, type) — as one snapshot, the way shiki pins its export
 * manifest (shikijs/shiki, packages/core/test/exports.test.ts). An export that appears or disappears fails here,
 * so a change to what hosts and fold packages import is made on purpose and shows in review. The
 * declared exports are read with the TypeScript compiler from the sources the entries are built
 * from (lib/x.js ← src/x.ts); the entries' runtime exports are imported and must be exactly the
 * declared values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Entry {
  name: string;
  source: string;
}

/** Every `exports` entry with a module (not the entry of package.json itself), mapped from its built file to the source it is compiled from. */
function entries(): Entry[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object')
    .map(([name, target]) => {
      const built = (target as Record<string, string>).default!;
      const m = /^\.\/lib\/(.+)\.js$/.exec(built);
      if (!m) throw new Error(`exports["${name}"].default is ${built}, not a file under ./lib/`);
      return { name, source: join(ROOT, 'src', `${m[1]}.ts`) };
    });
}

type Kind = 'function' | 'class' | 'const' | 'interface' | 'type' | 'enum';

function kindOf(checker: ts.TypeChecker, symbol: ts.Symbol): Kind {
  const s = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  if (s.flags & ts.SymbolFlags.Class) return 'class';
  if (s.flags & ts.SymbolFlags.Function) return 'function';
  if (s.flags & ts.SymbolFlags.Enum) return 'enum';
  if (s.flags & ts.SymbolFlags.Variable) return 'const';
  if (s.flags & ts.SymbolFlags.Interface) return 'interface';
  if (s.flags & ts.SymbolFlags.TypeAlias) return 'type';
  throw new Error(`export ${symbol.name}: a kind this test does not know (flags ${s.flags})`);
}

/** Each entry's exports, sorted by name: `{ entry: { name: kind } }`. */
function declaredManifest(list: Entry[]): Record<string, Record<string, Kind>> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram(
    list.map((e) => e.source),
    { ...config.options, noEmit: true, skipLibCheck: true },
  );
  const checker = program.getTypeChecker();
  const manifest: Record<string, Record<string, Kind>> = {};
  for (const e of list) {
    const file = program.getSourceFile(e.source);
    if (!file) throw new Error(`${e.source}: not found`);
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!);
    manifest[e.name] = Object.fromEntries(exports.map((s) => [s.name, kindOf(checker, s)] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return manifest;
}

const VALUE_KINDS: readonly Kind[] = ['function', 'class', 'const', 'enum'];

describe('the public API', () => {
  const list = entries();
  const manifest = declaredManifest(list);

  it('is the pinned manifest: every export of every entry, by name and kind', () => {
    expect(stringify(manifest)).toMatchInlineSnapshot(`
      ".:
        ExplainerIntegration: type
        ExplainerOptions: type
        default: function
        explainer: function
      ./starlight:
        StarlightPlugin: interface
        default: function
        explainerStarlight: function
        sidebarGroup: function
      ./kit:
        Abridgement: interface
        AnyFold: type
        AuthoredEvent: interface
        Breakpoint: interface
        EventDescription: interface
        ExpandedEvent: interface
        Expansion: interface
        Fold: interface
        FoldDefinition: type
        FunctionTool: interface
        Issue: interface
        JsonSchema: type
        MaybePromise: type
        Outcome: type
        Part: interface
        PayloadNotes: interface
        Rejection: interface
        RenderedMessage: interface
        Snapshot: interface
        StreamEvent: interface
        TOOLS_ROLE: const
        ToolCall: interface
        asFunctionTool: function
        checkFold: function
        collectSnapshots: function
        defaultPreview: function
        defineFold: function
        oneLine: function
        parseToolsContent: function
        schemaIssues: function
        toolEntryEnds: function
        toolsContent: function
      ./assert:
        CacheAssertionError: class
        CacheCheck: interface
        CacheExpectations: interface
        CacheInputError: class
        CacheMatchers: interface
        ConversationSummary: interface
        Failure: interface
        FoldRun: interface
        KeepCacheOptions: type
        MatcherResult: interface
        RecordedRequest: type
        Rule: interface
        assertCache: function
        cacheMatchers: const
        checkCache: function
      ./folds:
        BUILTIN_FOLDS: const
      "
    `);
  });

  it.each(list)('$name exports at run time exactly the values it declares', async ({ name, source }) => {
    const runtime = Object.keys(await import(source)).sort();
    const declared = Object.entries(manifest[name]!)
      .filter(([, kind]) => VALUE_KINDS.includes(kind))
      .map(([n]) => n)
      .sort();
    expect(runtime).toEqual(declared);
  });
});
