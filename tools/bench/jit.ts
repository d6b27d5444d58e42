/**
 * What V8's optimizing compilers do in a build: one more build run with V8's `--trace-opt`, which
 * prints a line for every finished compile job (Maglev or TurboFan) with the time of its three
 * steps — prepare and finalize on the main thread, execute in between, on one of V8's background
 * threads when the job is concurrent (as a build's are). The execute steps are the compilers' part
 * of the bench's "V8's background threads" line (thread-cpu.ts); the rest of that line is the
 * garbage collector's parallel and concurrent work.
 *
 * Why the bench measures it: on a 100-scenario corpus our build's background threads took about
 * 0.75–1.3 s more CPU than plain Astro's, and with `--single-threaded-gc` (the collector's work
 * moved to the main thread) about 0.85 s of that difference stayed on them — compilation, not
 * garbage collection: the explainer's own pipeline (loading, folding, printing, economics, page
 * data) is code plain Astro does not run, and V8 optimizes its hot functions, some of them more
 * than once. The figure is V8's own timing of each job's execute step: elapsed time, not CPU time
 * (on 300 scenarios the same functions' jobs took about three times as long as on 100, more than
 * the threads' CPU grew), so read it beside the CPU-by-thread line, as where that line's time goes.
 *
 * The line's shape (`completed compiling … (target TURBOFAN_JS) - took 0.016, 73.331, 0.234 ms`)
 * is the same in Node 20 and 24 (checked 2026-12-08; Node 20 names TurboFan `TURBOFAN`); a V8
 * that prints none gives null, never a zero. Tracing slows the build it traces, so that build is
 * not one of the timed ones.
 */

/** The optimizing compilers' work in one traced build. */
export interface JitCompile {
  /** Finished compile jobs (Maglev and TurboFan, on-stack replacement included). */
  jobs: number;
  /** Their execute steps, ms: the part that runs on V8's background threads. */
  executeMs: number;
  /** Of executeMs, TurboFan's (the rest is Maglev's). */
  turbofanMs: number;
}

// `[completed compiling 0x… <JSFunction name (sfi = 0x…)> (target TURBOFAN_JS) OSR - took 0.016, 73.331, 0.234 ms]`; Astro's own output can share the line.
const COMPLETED = /\[completed compiling .*?\(target (\w+)\)(?: OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/g;

/** The compile jobs a `--trace-opt` build printed (null when it printed none: no trace to read). */
export function jitCompile(output: string): JitCompile | null {
  let jobs = 0;
  let executeMs = 0;
  let turbofanMs = 0;
  for (const m of output.matchAll(COMPLETED)) {
    const execute = Number(m[3]);
    jobs++;
    executeMs += execute;
    if (m[1]!.startsWith('TURBOFAN')) turbofanMs += execute;
  }
  return jobs ? { jobs, executeMs, turbofanMs } : null;
}
