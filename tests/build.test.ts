/**
 * The build gate, on one temporary copy of the project that also registers a project's own fold —
 * the example fold (examples/folds/chat-log.ts, the very file the docs show) in its astro.config.mjs,
 * with the example scenario — so that one successful build serves both (a build is most of this
 * file's time). Bring your own fold, end to end: a scenario naming an unknown fold is an error that
 * lists the known ones (custom fold included); `npm run fixtures` writes the custom-fold scenario's
 * fixture; a stale anchor in it fails `npm run build` with the file:line:column message. The gate: a
 * stale anchor — or a broken `expect:` — fails `npm run build` with the file:line:column message and
 * fix (no stack trace, nothing built); restored, the site builds, the custom fold's scenario page
 * with it; broken again — a reference page's stale `<RequestView>` find, which fails while the pages
 * render — Astro's error with the fix as its hint, no stack trace, no old dist/ left behind, and
 * `npm run sync` refuses what is there. One build that succeeds, four that fail. (The fold as a module: tests/custom-fold.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import chatLog from '../examples/folds/chat-log.ts';
import { build, makeProject, ROOT } from './support/project.ts';

const FOLD = 'examples/folds/chat-log.ts';
const SCENARIO = 'examples/scenarios/chat-log.yaml';

/** An npm script in the copy, with CI unset: `npm run fixtures` refuses to run in CI. */
function run(dir: string, script: string): { status: number; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' };
  delete env.CI;
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: dir, encoding: 'utf8', env });
  return { status: r.status ?? 1, output: `${r.stdout}\n${r.stderr}` };
}

const dir = makeProject();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Register the example fold from its own file (makeProject copies examples/; the copy is
// byte-identical to this repository's file, which the docs page shows), and add its scenario.
const configFile = join(dir, 'astro.config.mjs');
const config = readFileSync(configFile, 'utf8');
const registered = config.replace("folds: ['context-protocol', 'layered', 'requests'],", `folds: ['context-protocol', 'layered', 'requests', './${FOLD}'],`);
writeFileSync(configFile, registered);
const scenarioFile = join(dir, 'scenarios', 'chat-log.yaml');
const scenario = readFileSync(join(ROOT, SCENARIO), 'utf8');
writeFileSync(scenarioFile, scenario);

describe('a project’s own fold', () => {
  it('the copy registers the example fold (the config still has the line this test edits)', () => {
    expect(readFileSync(join(dir, FOLD), 'utf8')).toBe(readFileSync(join(ROOT, FOLD), 'utf8'));
    expect(registered).not.toBe(config);
    expect(registered).toContain(`'./${FOLD}'`);
  });

  it('a scenario naming an unknown fold is an error listing the known folds; nothing is written', () => {
    const m = /^fold: (chat-log)$/m.exec(scenario)!;
    expect(m, 'the example scenario names its fold').toBeTruthy();
    const line = scenario.slice(0, m.index).split('\n').length;
    writeFileSync(scenarioFile, scenario.replace(m[0], 'fold: chat-logs'));
    try {
      const r = run(dir, 'fixtures');
      expect(r.status).not.toBe(0);
      expect(r.output).toContain(`scenarios/chat-log.yaml:${line}:7 error: unknown fold \`chat-logs\` — did you mean \`chat-log\`?\n`);
      expect(r.output).toContain(`  > ${line} | fold: chat-logs\n`); // the code frame
      expect(r.output).toContain('  fix: use one of: context-protocol, layered, requests, chat-log (or register the fold in astro.config.mjs)');
      expect(r.output).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace
      expect(existsSync(join(dir, 'fixtures'))).toBe(false);
    } finally {
      writeFileSync(scenarioFile, scenario);
    }
  });

  it('`npm run fixtures` generates the custom-fold scenario’s fixture', () => {
    const r = run(dir, 'fixtures');
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain('created fixtures/chat-log.md');
    const fixture = readFileSync(join(dir, 'fixtures', 'chat-log.md'), 'utf8');
    expect(fixture).toContain('Generated from `scenarios/chat-log.yaml`');
    expect(fixture).toContain(
      ['  - role: user', '    content: "What does a fold do?"', '  # ✂ provider cache: every token above this line is a byte-stable prefix (cached)', '  - role: assistant'].join(
        '\n',
      ),
    );
    expect(fixture).toContain("# appended after the previous request's messages");
    // the built-in folds' scenarios are generated alongside, byte for byte as committed
    expect(readFileSync(join(dir, 'fixtures', '20-layered-today.md'), 'utf8')).toBe(readFileSync(join(ROOT, 'fixtures', '20-layered-today.md'), 'utf8'));
  });

  it('a stale anchor in the custom-fold scenario fails the build (restored, its page is built: the next test)', () => {
    const m = /^(\s+find: )(['"])(.+)\2$/m.exec(scenario)!;
    expect(m, 'the example scenario has an annotation to break').toBeTruthy();
    const line = scenario.slice(0, m.index).split('\n').length;
    writeFileSync(scenarioFile, scenario.replace(m[0], `${m[1]}"this text is not in any prompt"`));
    try {
      const broken = build(dir);
      expect(broken.status).not.toBe(0);
      expect(broken.output).toContain(
        `scenarios/chat-log.yaml:${line}:${m[1]!.length + 1} error: stale anchor: find "this text is not in any prompt" matches no line of request @`,
      );
      expect(broken.output).toContain('fix: change `find:` to text the rendered request contains');
      expect(existsSync(join(dir, 'dist', 'index.html'))).toBe(false);
    } finally {
      writeFileSync(scenarioFile, scenario);
    }
  }, 300_000);
});

describe('astro build', () => {
  const file = join(dir, 'scenarios', '01-birth-window.yaml');
  const original = readFileSync(file, 'utf8');

  it('fails on a stale anchor with the same message as the tests, and builds once restored, the custom fold’s scenario page included', () => {
    const m = /^(\s+find: )(['"])(.+)\2$/m.exec(original)!;
    expect(m, 'the scenario has an annotation to break').toBeTruthy();
    const line = original.slice(0, m.index).split('\n').length;
    writeFileSync(file, original.replace(m[0], `${m[1]}"this text is not in any prompt"`));
    const broken = build(dir);
    expect(broken.status).not.toBe(0);
    expect(broken.output).toContain(
      `scenarios/01-birth-window.yaml:${line}:${m[1]!.length + 1} error: stale anchor: find "this text is not in any prompt" matches no line of request @`,
    );
    expect(broken.output).toContain('closest rendered lines:');
    expect(broken.output).toContain('fix: change `find:` to text the rendered request contains');
    expect(broken.output).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/); // no stack trace
    expect(existsSync(join(dir, 'dist', 'index.html'))).toBe(false);

    writeFileSync(file, original);
    const fixed = build(dir);
    expect(fixed.status, fixed.output).toBe(0);
    expect(existsSync(join(dir, 'dist', 'scenarios', 'birth-window', 'index.html'))).toBe(true);
    expect(existsSync(join(dir, 'dist', 'pagefind', 'pagefind.js'))).toBe(true);

    // The custom fold's scenario page, rendered by the fold's own hooks.
    const page = join(dir, 'dist', 'scenarios', 'chat-log', 'index.html');
    expect(existsSync(page)).toBe(true);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('What does a fold do?');
    expect(html).toContain('And why does the order matter?');
    expect(html).toContain('You are a terse assistant. Answer in one sentence.');
    expect(html).toContain('appended after the previous request'); // the annotation
    // the fold's own hooks: its describe gives the cards' badges, its expand the `lines` batch
    expect(html).toContain('<span class="badge">3 messages</span>');
    expect(html).toContain('<span class="badge">×2 events, one batch</span>');
    expect(html).toMatch(/<span class="badge">assistant<\/span>/);
    // The playground's worker bundles the registered custom fold (it is browser-safe).
    const worker = readdirSync(join(dir, 'dist', '_astro')).find((f) => /^worker.*\.js$/.test(f))!;
    expect(readFileSync(join(dir, 'dist', '_astro', worker), 'utf8')).toContain(`${chatLog.id}`);

    // Broken again, in a reference page this time: a `<RequestView>`'s stale `find` fails while the
    // pages render, after the corpus check. Astro's error with the fix as its hint, no stack trace
    // (a plain Error printed one, twice); the failed build leaves no dist/ at all: neither the old
    // site nor the pages it had rendered before the failing one (build-output.ts).
    writeFileSync(join(dir, 'dist', 'from-the-last-build.txt'), 'the site built above');
    const mdx = join(dir, 'src', 'pages', 'reference', 'layered.mdx');
    const layered = readFileSync(mdx, 'utf8');
    expect(layered, 'the reference page has a RequestView annotation to break').toContain("find: 'Remaining delta (0 of 3'");
    writeFileSync(mdx, layered.replace("find: 'Remaining delta (0 of 3'", "find: 'this text is not in request 8'"));
    try {
      const brokenPage = build(dir);
      expect(brokenPage.status).not.toBe(0);
      const out = stripVTControlCharacters(brokenPage.output); // Astro colours its error lines
      expect(out).toContain(
        '[PageError] /reference/layered/: <RequestView scenario="layered-today" at={8}>: stale anchor: find "this text is not in request 8" matches no line of request @8',
      );
      expect(out).toMatch(/Hint:\n\s+closest rendered lines:\n/);
      expect(out).toContain('fix: change `find:` to text the rendered request contains');
      expect(out).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
      expect(out).not.toContain('Stack trace');
      expect(existsSync(join(dir, 'dist')), 'a failed build removes what it wrote').toBe(false);
    } finally {
      writeFileSync(mdx, layered);
    }
    // …and a sync refuses to publish what is there.
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'index.html'), '<p>a site from some older build</p>');
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
    const sync = spawnSync('npm', ['run', '--silent', 'sync', '--', '--target', `dir:${join(dir, 'published')}`], { cwd: dir, encoding: 'utf8', env });
    expect(sync.status).toBe(1);
    expect(sync.stderr).toMatch(/the last build \(started [^)]+\) did not finish, so dist may be an older site or a partial one\. Nothing was sent\./);
    expect(existsSync(join(dir, 'published', 'index.html'))).toBe(false);
  }, 300_000);

  it('fails when a scenario busts the cache its expect: says it keeps, naming the request, the event and the fix', () => {
    const rewrite = join(dir, 'scenarios', '04-rewrite-vs-re-add.yaml');
    const text = readFileSync(rewrite, 'utf8');
    const m = /^(expect:\n {2}busts: )\["@42"\]/m.exec(text)!;
    expect(m, 'the rewrite scenario declares its bust').toBeTruthy();
    const line = text.slice(0, m.index).split('\n').length + 1;
    writeFileSync(rewrite, text.replace(m[0], `${m[1]}[]`));
    try {
      rmSync(join(dir, 'dist'), { recursive: true, force: true });
      const broken = build(dir);
      expect(broken.status).not.toBe(0);
      expect(broken.output).toContain(`scenarios/04-rewrite-vs-re-add.yaml:${line}:10 error: request @42 busts the cache but \`expect.busts\` does not list it`);
      expect(broken.output).toContain('caused by @40 agents/context-rewritten');
      expect(broken.output).toContain('fix: if this scenario means to bust the cache at @42, add "@42" to expect.busts');
      expect(broken.output).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
      expect(existsSync(join(dir, 'dist', 'index.html'))).toBe(false);
    } finally {
      writeFileSync(rewrite, text);
    }
  }, 300_000);
});
