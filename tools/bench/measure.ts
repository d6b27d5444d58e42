/**
 * Measurement helpers for the benchmarks: a monotonic clock, medians, the spread of paired ratios,
 * formatting, directory sizes, and running a child command with its wall time and peak memory. Peak memory comes from GNU
 * `/usr/bin/time -v` ("Maximum resident set size": the largest RSS of the command or any process it
 * waited for) when present; otherwise /proc is polled for the RSS of the whole process tree. The
 * CPU time by kind of thread is polled from /proc too (thread-cpu.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollThreads, type ThreadCpu } from './thread-cpu.ts';

export const now = (): number => performance.now();

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/** The ratios of a run's pairs: how many, the least, the median, the largest, and how many lie above the target. */
export interface PairSpread {
  n: number;
  min: number;
  median: number;
  max: number;
  above: number;
}

/**
 * Each of our builds ÷ the baseline's build made right after it (`--repeat` builds the two in turn),
 * over the pairs where both were measured. The host's speed drifts between pairs more than within
 * one, so the pairs say how far the run's ratio can be trusted: one run's medians gave 0.98× CPU
 * while its three pairs gave 0.98×, 1.02× and 1.05×. Null without a measured pair.
 */
export function pairSpread(ours: readonly (number | null)[], base: readonly (number | null)[], target: number): PairSpread | null {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(ours.length, base.length); i++) {
    const [o, b] = [ours[i], base[i]];
    if (o != null && b != null && b > 0) ratios.push(o / b);
  }
  if (!ratios.length) return null;
  return { n: ratios.length, min: Math.min(...ratios), median: median(ratios), max: Math.max(...ratios), above: ratios.filter((r) => r > target).length };
}

/** A target is met when the ratio of the medians meets it and, over several pairs, so does their median ratio. */
export const meets = (ratio: number | null | undefined, pairs: PairSpread | null, target: number): boolean =>
  ratio != null && ratio <= target && (pairs === null || pairs.n < 2 || pairs.median <= target);

export const ms = (x: number): string => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 2 : 0)} MiB`;

/** Total size and file count of a directory tree (regular files; symlinks are not followed). */
export function dirSize(dir: string, filter: (name: string) => boolean = () => true): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  if (!existsSync(dir)) return { bytes, files };
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !filter(e.name)) continue;
    bytes += statSync(join(e.parentPath, e.name)).size;
    files++;
  }
  return { bytes, files };
}

export interface Timed {
  status: number;
  wallMs: number;
  /** Peak RSS in bytes (see the header comment for which processes it covers). */
  peakRss: number;
  /**
   * CPU time (user + system) of the command and the processes it waited for, from /usr/bin/time;
   * null without it. Other work on the machine slows the wall clock, much less this.
   */
  cpuMs: number | null;
  /** The CPU time by kind of thread (thread-cpu.ts; a lower bound beside cpuMs); null off Linux. */
  threads: ThreadCpu | null;
  stdout: string;
  stderr: string;
}

const TIME = '/usr/bin/time';
export const PEAK_RSS_SOURCE = existsSync(TIME) ? '/usr/bin/time -v (largest single process)' : '/proc polling (sum over the process tree)';

/** RSS (bytes) of `pid` and all its descendants, read from /proc; 0 when it is gone. */
function treeRss(pid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      rss.set(Number(name), Number(fields[21]) * 4096);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    total += rss.get(p) ?? 0;
    todo.push(...(children.get(p) ?? []));
  }
  return total;
}

/**
 * Runs `cmd args` in `cwd`, streaming nothing; resolves with wall time, peak RSS and output.
 * `onLine` sees each stdout line as it arrives (progress).
 */
export function timed(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Promise<Timed> {
  const useTime = existsSync(TIME);
  const tmp = useTime ? mkdtempSync(join(tmpdir(), 'pfe-time-')) : '';
  const report = join(tmp, 'time.txt');
  const argv = useTime ? ['-v', '-o', report, cmd, ...args] : args;
  const start = now();
  const child = spawn(useTime ? TIME : cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    if (!onLine) return;
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const l of lines) onLine(l);
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let polled = 0;
  const poll = useTime ? undefined : setInterval(() => (polled = Math.max(polled, treeRss(child.pid!))), 200);
  const threads = pollThreads(child.pid!);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = now() - start;
      if (poll) clearInterval(poll);
      const byThread = threads.stop();
      let peakRss = polled;
      let cpuMs: number | null = null;
      if (useTime) {
        const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
        const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(text);
        peakRss = kb ? Number(kb[1]) * 1024 : 0;
        const user = /User time \(seconds\): ([\d.]+)/.exec(text);
        const system = /System time \(seconds\): ([\d.]+)/.exec(text);
        if (user && system) cpuMs = (Number(user[1]) + Number(system[1])) * 1000;
        rmSync(tmp, { recursive: true, force: true });
      }
      resolve({ status: code ?? 1, wallMs, peakRss, cpuMs, threads: byThread, stdout, stderr });
    });
  });
}
