/**
 * The bench's trace reading: each `playground:answer` measure becomes the CPU time (`tdur`) of the
 * tasks inside it, per thread — the page's main thread and the worker's — with a task that straddles
 * the window counted by its share inside, and other processes, threads and measures left out.
 */
import { describe, expect, it } from 'vitest';
import { roundTrips } from './cpu-trace.ts';

const meta = (tid: number, name: string) => ({ name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 1, tid, args: { name } });
const task = (tid: number, ts: number, dur: number, tdur: number, pid = 1) => ({ name: 'RunTask', cat: 'disabled-by-default-devtools.timeline', ph: 'X', ts, dur, tdur, pid, tid });
const measure = (ph: 'b' | 'e', ts: number, id: string, name = 'playground:answer') => ({ name, cat: 'blink.user_timing', ph, ts, pid: 1, tid: 1, id2: { local: id } });

describe('round-trip CPU time from a trace', () => {
  it('sums the tasks inside each measure per thread', () => {
    const events = [
      meta(1, 'CrRendererMain'),
      meta(2, 'DedicatedWorker thread'),
      meta(3, 'Compositor'),
      measure('b', 1000, '0x1'),
      task(1, 1100, 2000, 1500), // page, inside
      task(2, 1200, 5000, 4000), // worker, inside
      task(3, 1300, 1000, 900), // another thread: not counted
      task(1, 1400, 1000, 800, 2), // another process: not counted
      task(1, 9000, 2000, 2000), // half inside: counts 1000
      measure('e', 10_000, '0x1'),
      measure('b', 20_000, '0x2', 'playground:fold'), // another measure
      measure('e', 30_000, '0x2', 'playground:fold'),
      measure('b', 40_000, '0x3'),
      task(2, 41_000, 3000, 3000),
      measure('e', 50_000, '0x3'),
    ];
    expect(roundTrips(events)).toEqual([
      { main: 2.5, worker: 4 },
      { main: 0, worker: 3 },
    ]);
  });

  it('finds nothing in a trace without the measure', () => {
    expect(roundTrips([meta(1, 'CrRendererMain'), task(1, 0, 10, 10)])).toEqual([]);
  });
});
