/**
 * `npm run fuzz [-- --runs 10000 --seed 1]` — the long fuzz run (tools/fuzz/fuzz.ts): mutated
 * bundled scenarios and generated YAML through the corpus check, in a worker thread watched by
 * this one — a case that throws or returns an unstructured error fails the run with its (shrunk)
 * input; a case that runs longer than --hang-ms (default 20 s) is reported as a hang with its input.
 * Prints the numbers: cases, how many loaded / gave errors, slowest case, total time, seed.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { bundledScenarios, checkCase, fuzzCase, type FuzzFile } from '../fuzz/fuzz.ts';
import { loadConfig, runMain, UsageError } from '../../src/cli/config.ts';

interface Args {
  runs: number;
  seed: number;
  hangMs: number;
}
type Msg = { start: number; files: FuzzFile[] } | { done: { runs: number; loaded: number; withErrors: number; errors: number; slowestMs: number; failure?: string } };

function parseArgs(argv: string[]): Args {
  const a: Args = { runs: 10_000, seed: 1, hangMs: 20_000 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = Number(argv[++i]);
    if (!['--runs', '--seed', '--hang-ms'].includes(k) || !Number.isSafeInteger(v) || v < 0)
      throw new UsageError(`fuzz: bad argument ${k} ${argv[i] ?? ''}`, { fix: 'use --runs <n>, --seed <n>, --hang-ms <ms> (whole numbers)' });
    if (k === '--runs') a.runs = v;
    else if (k === '--seed') a.seed = v;
    else a.hangMs = v;
  }
  return a;
}

async function work(args: Args): Promise<void> {
  const config = await loadConfig();
  const seeds = bundledScenarios(config.root);
  let i = 0,
    loaded = 0,
    withErrors = 0,
    errors = 0,
    slowestMs = 0;
  const result = await fc.check(
    fc.asyncProperty(fuzzCase(seeds), async (files) => {
      parentPort!.postMessage({ start: i++, files } satisfies Msg);
      const o = await checkCase(files, config);
      if (o.loaded) loaded++;
      if (o.errors) withErrors++;
      errors += o.errors;
      slowestMs = Math.max(slowestMs, o.ms);
    }),
    { seed: args.seed, numRuns: args.runs },
  );
  const failure = result.failed ? `${fc.defaultReportMessage(result)}` : undefined;
  parentPort!.postMessage({ done: { runs: result.numRuns, loaded, withErrors, errors, slowestMs, ...(failure && { failure }) } } satisfies Msg);
}

if (!isMainThread) {
  await work(workerData as Args);
} else {
  runMain(async () => {
    const args = parseArgs(process.argv.slice(2));
    console.log(`fuzz: ${args.runs} cases, seed ${args.seed} (mutated bundled scenarios, generated YAML, colliding names)`);
    const started = performance.now();
    const worker = new Worker(new URL(import.meta.url), { workerData: args });
    let last: { start: number; files: FuzzFile[]; at: number } | undefined;
    return await new Promise<number>((resolve) => {
      const watchdog = setInterval(() => {
        if (last && performance.now() - last.at > args.hangMs) {
          clearInterval(watchdog);
          console.error(`HANG: case ${last.start} ran longer than ${args.hangMs} ms; its files:\n${JSON.stringify(last.files, null, 2)}`);
          void worker.terminate();
          resolve(1);
        }
        if (last && last.start > 0 && last.start % 1000 === 0) console.log(`  ${last.start} cases (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }, 1000);
      worker.on('message', (m: Msg) => {
        if ('start' in m) {
          last = { ...m, at: performance.now() };
          return;
        }
        clearInterval(watchdog);
        const d = m.done;
        const total = (performance.now() - started) / 1000;
        console.log(
          `${d.runs} cases in ${total.toFixed(1)} s: ${d.loaded} loaded at least one scenario, ${d.withErrors} returned errors (${d.errors} errors in all), slowest case ${d.slowestMs.toFixed(0)} ms, seed ${args.seed}`,
        );
        if (d.failure) {
          console.error(`FAILED — an exception or unstructured error escaped:\n${d.failure}`);
          resolve(1);
        } else {
          console.log('ok: every case loaded or returned structured errors; none threw, none hung');
          resolve(0);
        }
      });
      worker.on('error', (e) => {
        clearInterval(watchdog);
        console.error(`FAILED — the fuzz worker crashed: ${e.stack ?? e.message}`);
        resolve(1);
      });
    });
  });
}
