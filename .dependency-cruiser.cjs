/**
 * The project's layering, checked by dependency-cruiser in `npm test` (npm run lint:deps).
 * Read it as the architecture: data flows scenarios → folds → prompt → fixtures | pages, so
 * imports point the other way — a module imports only from layers BELOW its own in this list:
 *
 *   errors          the one user-facing error type (src/errors.ts)
 *   folds           pure, browser-safe folds and the Fold interface: nothing of the site, no node:
 *   scenarios       load and validate scenario files (through a fold's interface)
 *   prompt          print a request, weave the cut and annotations, page models
 *   wire, economics provider wire formats; tokens, cached tokens, cost, cache breaks, expect: (they
 *                   read rendered requests, and the economics place entries where the wire sends them)
 *   corpus          the corpus check: load, render and cost every scenario in one pass
 *   fixture-format  write and parse the committed fixtures
 *   review          base-ref review, compare, PR summary
 *   integration     the Astro integration, its options, the site's corpus
 *   site            components, layouts, routes (the package's injected pages), pages (this site's own), the playground
 *   package         the installable package's entries (the integration with the site's settings, Starlight, the fold kit)
 *   tools           command-line entry points, benchmarks, trace import, fuzzing, previews
 * and `sync` (publishing dist/) stands apart: it imports only `errors`.
 * Tests (*.test.ts, tests/) may import anything.
 */
const layers = [
  ['errors', '^src/errors[.]ts$'],
  ['folds', '^src/folds/'],
  ['scenarios', '^src/scenarios/'],
  ['prompt', '^src/prompt/'],
  ['wire-economics', '^src/(economics|wire)/'],
  ['corpus', '^src/corpus/'],
  ['fixture-format', '^src/fixture-format/'],
  ['review', '^src/review/'],
  ['integration', '^src/integration/'],
  ['site', '^src/(components|layouts|pages|routes|playground)/'],
  ['package', '^src/package/'],
  ['tools', '^src/(cli|bench|import|fuzz|preview|github|workflows)/'],
];

const upward = layers.flatMap(([name, path], i) => {
  const above = layers.slice(i + 1).map(([, p]) => p);
  if (!above.length) return [];
  return [{
    name: `${name}-imports-only-below`,
    comment: `${name} may import only from the layers listed before it in .dependency-cruiser.cjs`,
    severity: 'error',
    from: { path, pathNot: '[.]test[.]ts$' },
    to: { path: above.join('|') },
  }];
});

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'folds-are-pure',
      comment: 'folds run in the browser too: no node: built-ins, and nothing of the project outside src/folds',
      severity: 'error',
      from: { path: '^src/folds/', pathNot: '[.]test[.]ts$' },
      to: { pathNot: '^src/folds/|^node_modules/', dependencyTypesNot: ['npm', 'npm-dev'] },
    },
    {
      name: 'no-fold-internals',
      comment: "a generic module never imports a fold's own folder: it goes through the Fold interface and the kit (src/folds/*.ts); only the registry (src/folds/index.ts) names the built-in folds",
      severity: 'error',
      // src/import still reads the requests fold's body schemas: until the provider adapters own them (issue #37).
      from: { path: '^src/', pathNot: '[.]test[.]ts$|^src/folds/(index[.]ts|context-protocol/|layered/|requests/)|^src/import/' },
      to: { path: '^src/folds/(context-protocol|layered|requests)/' },
    },
    {
      name: 'sync-stands-apart',
      comment: 'publishing dist/ needs nothing of the site or the corpus',
      severity: 'error',
      from: { path: '^src/sync/', pathNot: '[.]test[.]ts$' },
      to: { path: '^src/', pathNot: '^src/sync/|^src/errors[.]ts$' },
    },
    { name: 'no-circular', comment: 'a type-only import back (an interface a module implements) is not a cycle', severity: 'error', from: { pathNot: '[.]test[.]ts$' }, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
    { name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true, pathNot: '^virtual:|^astro:' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/env[.]d[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
