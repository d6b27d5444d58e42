/**
 * Comments point at things a clone has. Every repository path a comment under src/ names — a
 * module beside it (`csp.ts`), one elsewhere (`src/sync/build-stamp.ts`, `../folds/types.ts`), a
 * document (`docs/cache-economics.md`) — must resolve to a file or folder of this repository; and
 * no comment cites what a clone does not have: an issue of the project's tracker ("issue 38"), a
 * seed ("seed 002"), or the platform's specs and notes beside the repository (`../shared/…`,
 * "spec cache-economics §2"). The one module that reads the platform's files on purpose, the
 * conformance test (CONTRIBUTING.md, "How fixtures and the build's checks work"), may name them.
 * Comments are read with the TypeScript parser (`.ts`, an `.astro` file's frontmatter) or as
 * block comments (`.css`, an `.astro` file's markup).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');

/** May name the platform's reference files: it compares with them when they are present. */
const READS_SHARED = new Set(['src/prompt/conformance.test.ts']);

/** This test's own examples of what it catches. */
const SELF = 'src/comment-paths.test.ts';

/**
 * Names that are not files of the repository: the outputs a build or a command writes (a page's
 * data file, a preview's description), the installed package's layout and a host's files.
 */
const NOT_REPOSITORY =
  /^(lib|dist|node_modules|\.astro|_astro|preview-site|public)\/|^(data|changes|meta|preview|manifest|pending|corpus|pagefind[\w-]*|build-stamp|part-[\w[\]-]+)\.json$|\.html$|^astro\.config\.\w+$|^(events|annotations)\.yaml$|^[A-Z]\w*\.js$/;

/** A made-up name in an example (`./x.ts`, `a.yaml`, `./my-fold.ts`, `scenarios/x/data.json`). */
const EXAMPLE = /(^|\/)(x|a|A|b|style|scenario|my-[\w-]+)(\.[\w.]+$|\/)/;

/**
 * A comment about another repository names it (`github.com/owner/name`, `owner/name, path`,
 * `owner/name's path`, an npm scope `@scope/name`): the paths it names that are not here are that
 * repository's.
 */
const OTHER_REPOSITORY = /github\.com\/[\w.-]+\/[\w.-]+|\b[a-zA-Z][\w-]*\/[a-zA-Z][\w-]*(?![\w./-])(?:,|'s)|@[\w-]+\/[\w.-]+/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => /\.(ts|astro|css)$/.test(f) && !f.endsWith('.d.ts'));
}

function tsComments(text: string, name: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Set<number>();
  const out: string[] = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push(text.slice(r.pos, r.end));
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(file);
  take(ts.getLeadingCommentRanges(text, file.endOfFileToken.getFullStart()));
  return out;
}

/** The comments of one file. */
function commentsOf(path: string, text: string): string[] {
  if (path.endsWith('.ts')) return tsComments(text, path);
  const blocks = [...text.matchAll(/\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->/g)].map((m) => m[0]);
  if (path.endsWith('.astro')) {
    const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1];
    const markup = front === undefined ? text : text.slice(front.length + 8);
    return [...(front === undefined ? [] : tsComments(front, path)), ...[...markup.matchAll(/\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->/g)].map((m) => m[0])];
  }
  return blocks;
}

const PATH = /(?<![\w./@-])((?:\.{1,2}\/)*(?:[\w@-][\w.@-]*\/)*[\w-][\w.-]*\.(?:ts|astro|mjs|cjs|js|json|css|md|mdx|yaml|yml|html))(?![\w/-])/g;

/** The repository paths `comment` names (URLs and placeholders left out). */
function pathsIn(comment: string): string[] {
  const text = comment
    .replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, ' ')
    .replace(/\b[\w-]+(\.[\w-]+)+\/\S*/g, (m) => (/^[\w-]+\.(ts|astro|mjs|js|json|css|md|mdx|yaml)\//.test(m) ? m : ' '));
  return [...text.matchAll(PATH)].map((m) => m[1]!).filter((p) => !p.startsWith('.') || p.startsWith('./') || p.startsWith('../'));
}

/** Every file and folder of the repository (not node_modules or what a build writes), relative to the root. */
const REPOSITORY = ((): string[] => {
  const skip = /(^|\/)(node_modules|dist|lib|\.git|\.astro)(\/|$)/;
  return readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => !skip.test(f));
})();

/**
 * Where `path`, named in a comment of `from`, is: beside it, under src/, at the root — or, written
 * short (`pane-markup.ts`, `client/page-data.ts`), the one file of the repository whose path ends
 * so; a module named by its built name (`x.js` in the package) is its source here. Undefined when
 * nowhere.
 */
function resolveNamed(from: string, path: string): string | undefined {
  for (const name of path.endsWith('.js') ? [path, path.replace(/\.js$/, '.ts')] : [path]) {
    const candidates = name.startsWith('.') ? [join(dirname(from), name)] : [join(dirname(from), name), join(SRC, name), join(ROOT, name)];
    const found = candidates.find((c) => existsSync(c));
    if (found) return found;
    if (name.startsWith('.')) continue;
    const ending = REPOSITORY.find((f) => f === name || f.endsWith(`/${name}`));
    if (ending) return join(ROOT, ending);
  }
  return undefined;
}

/** A citation of something a clone does not have, or undefined. */
function outsideCitation(comment: string): string | undefined {
  return /\bissues? #?\d+\b|\bseed (audit )?`?\d{3}\b|\.\.\/shared\/|shared\/(spec|seeds|DESIGN)|\bspec [\w-]+ §|\bspec §|§\d/.exec(comment)?.[0];
}

describe('comments under src/', () => {
  const problems: string[] = [];
  for (const file of filesUnder(SRC)) {
    const rel = relative(ROOT, file).split('\\').join('/');
    if (rel === SELF) continue;
    for (const c of commentsOf(file, readFileSync(file, 'utf8'))) {
      const foreign = OTHER_REPOSITORY.test(c);
      for (const p of pathsIn(c))
        if (!NOT_REPOSITORY.test(p) && !EXAMPLE.test(p) && !resolveNamed(file, p) && !foreign) problems.push(`${rel}: names ${p}, which is not in the repository`);
      // Vite's dependency scan reads an .astro file's `<script` anywhere, a frontmatter comment included, as a script tag.
      if (file.endsWith('.astro') && /<script\b/i.test(c))
        problems.push(`${rel}: a comment holds a literal script tag, which the dev server's dependency scan parses as one (write "script tag")`);
      const cited = outsideCitation(c);
      if (cited && !READS_SHARED.has(rel)) problems.push(`${rel}: cites "${cited}", which a clone does not have (point at docs/ or a file that ships)`);
    }
  }

  it('name only files that exist and cite only documents a clone has', () => {
    expect(problems).toEqual([]);
  });
});

describe('the comment reader', () => {
  it('finds the paths in a comment and resolves them as the comment means them', () => {
    const here = join(SRC, 'integration', 'index.ts');
    expect(pathsIn('/** the stamp (src/sync/build-stamp.ts), csp.ts, ../folds/types.ts and https://example.com/a.ts */')).toEqual([
      'src/sync/build-stamp.ts',
      'csp.ts',
      '../folds/types.ts',
    ]);
    expect(resolveNamed(here, 'csp.ts')).toBe(join(SRC, 'integration', 'csp.ts'));
    expect(resolveNamed(here, '../folds/types.ts')).toBe(join(SRC, 'folds', 'types.ts'));
    expect(resolveNamed(here, 'docs/cache-economics.md')).toBe(join(ROOT, 'docs', 'cache-economics.md'));
    expect(resolveNamed(here, 'no-such-module.ts')).toBeUndefined();
    expect(resolveNamed(here, 'src/sync/gone.ts')).toBeUndefined();
    expect(resolveNamed(here, 'pane-markup.ts')).toBe(join(SRC, 'render', 'pane-markup.ts'));
    expect(resolveNamed(here, 'client/no-such-element.ts')).toBeUndefined();
  });

  it('reads comments, not code or strings', () => {
    const text = "// one (a.ts)\nconst s = '// not a comment (b.ts)';\n/* two (c.ts) */\nconst t = `/* nor this (d.ts) */`;\n";
    expect(commentsOf('x.ts', text).flatMap(pathsIn)).toEqual(['a.ts', 'c.ts']);
    expect(commentsOf('x.astro', '---\n// front (e.ts)\n---\n<!-- markup (f.ts) -->\n<p>g.ts</p>').flatMap(pathsIn)).toEqual(['e.ts', 'f.ts']);
  });

  it("tells a citation of the tracker, a seed or the platform's specs", () => {
    expect(outsideCitation('// as issue 38 asks')).toBe('issue 38');
    expect(outsideCitation('/* seed 002 */')).toBe('seed 002');
    expect(outsideCitation('(spec cache-economics §2)')).toBe('spec cache-economics §');
    expect(outsideCitation('(../shared/spec/x.md)')).toBe('../shared/');
    expect(outsideCitation('(docs/cache-economics.md, "Cost")')).toBeUndefined();
  });
});
