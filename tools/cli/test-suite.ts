/**
 * `npm test`: the lint (`npm run lint`), the type check (`astro check --minimumSeverity error`) and
 * every test (`vitest run`, with the arguments given to `npm test --`) — at the same time, not one
 * after the other. Run one after the other they cost the whole of their time (≈ 15 s + 25 s on two
 * cores) before the first test starts, although the lint waits on its own child processes most of
 * that time and the tests leave a core idle whenever a worker waits (an install, a dev server, the
 * last file of the run). So the lint and the type check run beside the tests at a lower priority
 * (nice 10): they take the CPU the tests leave idle, and never slow the tests down.
 *
 * The tests print as they go (vitest's own output, on this terminal); the lint's and the type
 * check's output is kept and printed after the tests, each under a line naming the command, its
 * exit code and its time, so the report reads in one order whatever finished first. Then one line
 * of times. The exit code is 0 only when all three passed (the first failure's code otherwise);
 * every step runs to its end, so one run shows every failure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setPriority } from 'node:os';

interface Step {
  /** The command as a person would type it (the report's header). */
  name: string;
  command: string;
  args: string[];
  /** Beside the tests, at a lower priority, its output kept for the end; else on this terminal. */
  background: boolean;
}

// `npm run` puts node_modules/.bin first on PATH (this project's node, astro, vitest).
const STEPS: Step[] = [
  { name: 'vitest run', command: 'vitest', args: ['run', ...process.argv.slice(2)], background: false },
  { name: 'npm run lint', command: 'npm', args: ['run', '--silent', 'lint'], background: true },
  { name: 'astro check --minimumSeverity error', command: 'astro', args: ['check', '--minimumSeverity', 'error'], background: true },
];

/** Lower than the tests: the background steps get the CPU they leave idle (10: the usual `nice`). */
const BACKGROUND_NICENESS = 10;

interface Done {
  step: Step;
  code: number;
  seconds: number;
  output: string;
}

const children = new Set<ChildProcess>();

function run(step: Step): Promise<Done> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(step.command, step.args, { stdio: step.background ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    children.add(child);
    let output = '';
    if (step.background) {
      // Set at once, before the step starts children of its own (they inherit it).
      if (child.pid) setPriority(child.pid, BACKGROUND_NICENESS);
      child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
      child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
    }
    const end = (code: number, extra = ''): void => {
      children.delete(child);
      done({ step, code, seconds: (performance.now() - started) / 1000, output: output + extra });
    };
    child.on('error', (err) => end(1, `\n${step.command}: ${err.message}\n`));
    child.on('close', (code, signal) => end(code ?? (signal ? 1 : 0), signal ? `\n(ended by ${signal})\n` : ''));
  });
}

// Stopped (Ctrl-C, or a CI runner's cancel): the steps stop too, then this process ends.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });

const started = performance.now();
const results = await Promise.all(STEPS.map(run));
for (const r of results.filter((x) => x.step.background)) {
  process.stdout.write(`\n── ${r.step.name}: ${r.code === 0 ? 'passed' : `failed (exit ${r.code})`} in ${r.seconds.toFixed(1)} s ──\n${r.output.replace(/\n*$/, '\n')}`);
}
const total = (performance.now() - started) / 1000;
console.log(`\n${results.map((r) => `${r.step.name} ${r.code === 0 ? 'passed' : 'FAILED'} (${r.seconds.toFixed(1)} s)`).join(', ')}; all in ${total.toFixed(1)} s`);
process.exitCode = results.find((r) => r.code !== 0)?.code ?? 0;
