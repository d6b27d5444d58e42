/**
 * Where a build's CPU time goes, by kind of thread: the JavaScript main threads (the integration,
 * Astro, the pages), V8's background threads (its garbage collector's parallel and concurrent work
 * and its optimizing compilers), the bundler's native threads (rolldown, tokio) and the rest
 * (libuv's pool, …). /usr/bin/time gives one total; this says which part of it our build adds over
 * plain Astro's — on a 100-scenario corpus V8's background threads were a larger share of the
 * difference than any stage of our own: its optimizing compilers working through the pipeline's
 * code (jit.ts measures them), not the garbage collector and not one slow function.
 *
 * Linux only: /proc/<pid>/task/<tid>/stat of the command's process tree, polled while it runs; the
 * last reading of each thread counts. A thread that ends between two polls loses what it did since
 * the last one, so the figures are a lower bound (within one poll interval of each thread's end) —
 * a breakdown to compare two builds by, beside the exact total. Elsewhere: none (null).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  /** Each process's main thread (JavaScript, and the V8 work it does itself: scavenges it waits on, baseline compiles). */
  main: number;
  /** V8's background threads ("V8Worker"): parallel and concurrent garbage collection, optimizing compilation. */
  v8: number;
  /** The bundler's native threads (rolldown's workers and their tokio runtime). */
  bundler: number;
  /** Every other thread (libuv's pool, signal and inspector threads, …). */
  other: number;
}

/** Clock ticks per second of /proc's utime and stime: USER_HZ, 100 on every Linux architecture Node runs on. */
const USER_HZ = 100;

export const THREAD_CPU_AVAILABLE = existsSync('/proc/self/task');

/** The kind of a thread, from its pid, tid and name (/proc's `comm`). */
export function threadKind(pid: number, tid: number, comm: string): keyof ThreadCpu {
  if (tid === pid) return 'main';
  if (comm.startsWith('V8Worker') || comm.startsWith('V8 ')) return 'v8';
  if (/^(rolldown|tokio)/.test(comm)) return 'bundler';
  return 'other';
}

/** One `stat` line's name and CPU time (utime + stime, ms). */
export function statCpu(stat: string): { comm: string; ms: number; ppid: number } {
  const close = stat.lastIndexOf(')');
  const comm = stat.slice(stat.indexOf('(') + 1, close);
  const f = stat.slice(close + 2).split(' ');
  // After the name: state(0) ppid(1) … utime(11) stime(12), in clock ticks.
  return { comm, ppid: Number(f[1]), ms: ((Number(f[11]) + Number(f[12])) * 1000) / USER_HZ };
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process or thread ended while we looked
  }
};

/** Polls the CPU time of every thread of `pid`'s process tree; `stop()` returns the totals by kind. */
export function pollThreads(pid: number, intervalMs = 250): { stop: () => ThreadCpu | null } {
  if (!THREAD_CPU_AVAILABLE) return { stop: () => null };
  const last = new Map<string, { kind: keyof ThreadCpu; ms: number }>();
  const poll = (): void => {
    const children = new Map<number, number[]>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const stat = read(`/proc/${name}/stat`);
      if (!stat) continue;
      const { ppid } = statCpu(stat);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    }
    for (const todo = [pid]; todo.length; ) {
      const p = todo.pop()!;
      todo.push(...(children.get(p) ?? []));
      let tids: string[];
      try {
        tids = readdirSync(`/proc/${p}/task`);
      } catch {
        continue;
      }
      for (const tid of tids) {
        const stat = read(`/proc/${p}/task/${tid}/stat`);
        if (!stat) continue;
        const { comm, ms } = statCpu(stat);
        last.set(`${p}/${tid}`, { kind: threadKind(p, Number(tid), comm), ms });
      }
    }
  };
  poll();
  const timer = setInterval(poll, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      const out: ThreadCpu = { main: 0, v8: 0, bundler: 0, other: 0 };
      for (const t of last.values()) out[t.kind] += t.ms;
      return out;
    },
  };
}
