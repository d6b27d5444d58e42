/**
 * The build gate: a temporary copy of the project with one stale anchor — or a broken `expect:` —
 * fails `npm run build` with the file:line:column message and fix (no stack trace, nothing built);
 * restored, it builds; broken again, the failed build leaves no old dist/ behind and `npm run sync`
 * refuses what is there.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build, makeProject } from './support/project.ts';

describe('astro build', () => {
  const dir = makeProject();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'scenarios', '01-birth-window.yaml');
  const original = readFileSync(file, 'utf8');

  it('fails on a stale anchor with the same message as the tests, and builds once restored', () => {
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

    // Broken again: the failed build leaves no old site behind, and a sync refuses to publish.
    writeFileSync(file, original.replace(m[0], `${m[1]}"this text is not in any prompt"`));
    expect(build(dir).status).not.toBe(0);
    expect(existsSync(join(dir, 'dist', 'index.html'))).toBe(false);
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
