/**
 * The project's layering, checked by dependency-cruiser in `npm test` (npm run lint:deps).
 * Read it as the architecture: data flows scenarios → folds → prompt → fixtures | pages, so
 * imports point the other way — a module imports only from layers BELOW its own in this list:
 *
 *   errors          the one user-facing error type (src/errors.ts)
 *   output-file     a command's output file, written whole or not at all (src/output-file.ts)
 *   folds           the Fold contract and the kit (defineFold, collectSnapshots, the tool-list
 *                   convention): pure, browser-safe, nothing of the site, no node:
 *   providers       one adapter per provider wire format (detect, schema, normalise, usage, wire
 *                   writer, cache strategy, catalog): it reads the fold contract's types and the
 *                   tool-list convention; pure
 *   builtin-folds   the built-in folds and their registry (src/builtin-folds/index.ts): written with
 *                   the kit; the `requests` fold reads bodies through the adapters; pure
 *   scenarios       load and validate scenario files (through a fold's interface)
 *   prompt          print a request, weave the cut and annotations, page models
 *   wire            a request as its provider's wire format writes it (the wire views)
 *   economics       tokens, cached tokens, cost, cache breaks, expect: (they read rendered requests, and
 *                   place entries where the provider adapters say the wire sends them)
 *   request-lint    the request linter: findings per request, each citing the provider's documented rule
 *                   (it reads rendered requests and their economics; check, report, pages and review show it)
 *   corpus          the corpus check: load, render and cost every scenario in one pass
 *   determinism     the determinism probe: a fold run again in a changed world (clock, time zone, locale,
 *                   random, environment, key and tool order); what moves in a cached prefix is a finding
 *   fixture-format  write and parse the committed fixtures
 *   review          base-ref review, compare, PR summary
 *   integration     the Astro integration, its options, the site's corpus
 *   render          build-time HTML writers (the browser reuses some to build a pane the page does not carry)
 *   components      the pages' components, each custom element beside the component that writes it (an
 *                   element is handed what it needs, e.g. a function that builds a missing pane: it never
 *                   reaches up into the page scripts)
 *   client          the page scripts and the browser modules the pages share
 *   layouts         the page layouts
 *   playground      the playground: its page script, editor, worker and elements
 *   pages           this site's own pages (the reference)
 *   routes          the package's injected pages
 *   import          trace and capture import (recorded requests → scenarios of the `requests` fold)
 *   assert          cache promises held against recorded requests: `prompt-fold assert` and the test API
 *                   (it reads captures through the import, and the corpus check's economics)
 *   vectors         the provider-rule test vectors (`prompt-fold vectors`): request streams and the engine's figures
 *   package         the installable package's entries (the integration with the site's settings, Starlight, the fold kit, the test API)
 *   github          the GitHub API (is this the pull request's head? the one summary comment)
 *   preview         pull-request previews
 *   cli             the `prompt-fold` bin's commands
 * and `sync` (publishing dist/) stands apart: it imports only `errors`.
 * Everything under src/ ships in the package (CONTRIBUTING.md, "What ships"); the repository's own
 * tooling (tools/: benchmarks, fuzzing, the workflow lint, the package build) and tests/ do not, so
 * src/ never imports them. Tests (*.test.ts, tests/) and tools/ may import anything else.
 */
const layers = [
  ['errors', '^src/errors[.]ts$'],
  ['output-file', '^src/output-file[.]ts$'],
  ['folds', '^src/folds/'],
  ['providers', '^src/providers/'],
  ['builtin-folds', '^src/builtin-folds/'],
  ['scenarios', '^src/scenarios/'],
  ['prompt', '^src/prompt/'],
  ['wire', '^src/wire/'],
  ['economics', '^src/economics/'],
  ['request-lint', '^src/request-lint/'],
  ['corpus', '^src/corpus/'],
  ['determinism', '^src/determinism/'],
  ['fixture-format', '^src/fixture-format/'],
  ['review', '^src/review/'],
  ['integration', '^src/integration/'],
  ['render', '^src/render/'],
  ['components', '^src/components/'],
  ['client', '^src/client/'],
  ['layouts', '^src/layouts/'],
  ['playground', '^src/playground/'],
  ['pages', '^src/pages/'],
  ['routes', '^src/routes/'],
  ['import', '^src/import/'],
  ['assert', '^src/assert/'],
  ['vectors', '^src/vectors/'],
  ['package', '^src/package/'],
  ['github', '^src/github/'],
  ['preview', '^src/preview/'],
  ['cli', '^src/cli/'],
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
      comment: 'the fold kit, the provider adapters and the built-in folds run in the browser too: no node: built-ins, and nothing of the project outside src/folds, src/providers and src/builtin-folds but the one error type (src/errors.ts, pure too: a fold author\'s mistake in defineFold is a UserError)',
      severity: 'error',
      from: { path: '^src/(folds|providers|builtin-folds)/', pathNot: '[.]test[.]ts$' },
      to: { pathNot: '^src/(folds|providers|builtin-folds)/|^src/errors[.]ts$|^node_modules/', dependencyTypesNot: ['npm', 'npm-dev'] },
    },
    {
      name: 'src-ships-alone',
      comment: 'src/ is the package: it never imports the repository\'s tooling (tools/) or the tests\' support (tests/), which are not shipped',
      severity: 'error',
      from: { path: '^src/', pathNot: '[.]test[.]ts$' },
      to: { path: '^(tools|tests)/' },
    },
    {
      name: 'no-fold-internals',
      comment: "a generic module never imports a fold's own folder: it goes through the Fold interface and the kit (src/folds/*.ts); only the registry (src/builtin-folds/index.ts) names the built-in folds",
      severity: 'error',
      // Body schemas, normalisation and usage are the provider adapters' (src/providers/): src/import reads them there.
      // This site's own pages (src/pages/) document the built-in folds: the layered placement page reads the fold's own rules.
      from: { path: '^src/', pathNot: '[.]test[.]ts$|^src/builtin-folds/|^src/pages/' },
      to: { path: '^src/builtin-folds/(context-protocol|layered|requests)/' },
    },
    {
      name: 'sync-stands-apart',
      comment: 'publishing dist/ needs nothing of the site or the corpus (only how the project names its commands: src/project.ts)',
      severity: 'error',
      from: { path: '^src/sync/', pathNot: '[.]test[.]ts$' },
      to: { path: '^src/', pathNot: '^src/sync/|^src/errors[.]ts$|^src/project[.]ts$' },
    },
    { name: 'no-circular', comment: 'a type-only import back (an interface a module implements) is not a cycle', severity: 'error', from: { pathNot: '[.]test[.]ts$' }, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
    { name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true, pathNot: '^virtual:|^astro:' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // tests/fixtures/ holds scenario files and stand-alone packages the tests install in hosts (their own dependencies), not this project's modules.
    exclude: { path: '^src/env[.]d[.]ts$|^tests/fixtures/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['prompt-fold-explainer-source', 'import', 'require', 'node', 'default', 'types'] },
  },
};
