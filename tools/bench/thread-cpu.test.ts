import { describe, expect, it } from 'vitest';
import { pollThreads, statCpu, THREAD_CPU_AVAILABLE, threadKind } from './thread-cpu.ts';

// /proc/<pid>/task/<tid>/stat lines in the kernel's shape (proc(5)): pid (comm) state ppid … utime stime …, times in ticks of 1/100 s.
const stat = (tid: number, comm: string, ppid: number, utime: number, stime: number): string =>
  `${tid} (${comm}) S ${ppid} ${tid} 1 0 -1 4194368 23107 0 0 0 ${utime} ${stime} 0 0 20 0 11 0 2029845 1288359936 61208 18446744073709551615 1 1 0 0 0 0 0 16781312 134235650 0 0 0 -1 1 0 0 0 0 0 0 0 0 0 0 0 0 0`;

describe('statCpu', () => {
  it('reads the thread name and its user + system time in ms, and the parent pid', () => {
    expect(statCpu(stat(4711, 'V8Worker', 4700, 123, 45))).toEqual({ comm: 'V8Worker', ms: 1680, ppid: 4700 });
  });
  it('reads a name with spaces and parentheses up to the last parenthesis', () => {
    expect(statCpu(stat(4700, 'npm exec (astro)', 1, 7, 3))).toEqual({ comm: 'npm exec (astro)', ms: 100, ppid: 1 });
  });
});

describe('threadKind', () => {
  it("sorts a process's threads into main, V8's background threads, the bundler's and the rest", () => {
    expect(threadKind(10, 10, 'MainThread')).toBe('main');
    expect(threadKind(10, 10, 'npm exec astro')).toBe('main');
    expect(threadKind(10, 11, 'V8Worker')).toBe('v8');
    expect(threadKind(10, 12, 'rolldown-worker')).toBe('bundler');
    expect(threadKind(10, 13, 'tokio-rt-worker')).toBe('bundler');
    expect(threadKind(10, 14, 'libuv-worker')).toBe('other');
  });
});

describe.runIf(THREAD_CPU_AVAILABLE)('pollThreads', () => {
  it("counts this process's own main thread (it has run this far)", () => {
    const t = pollThreads(process.pid, 10_000).stop();
    expect(t).not.toBeNull();
    expect(t!.main).toBeGreaterThan(0);
  });
});
