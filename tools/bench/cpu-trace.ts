/**
 * CPU time of the playground's round trips, from a Chromium performance trace (CDP Tracing): for
 * each `playground:answer` measure (post to the worker → laid-out pane), the thread CPU time
 * (`tdur`) of the tasks that ran inside it on the page's main thread and on the worker's thread.
 * Wall-clock medians on a shared 2-core machine grow with every other process (a load average of
 * 10 multiplies them several times); the CPU time a round trip took does not, so the bench prints
 * both. Used by `npm run bench:playground` only.
 */
import type { CDPSession } from 'playwright-core';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  id2?: { local?: string };
  args?: { name?: string };
}

export interface RoundTripCpu {
  /** Main-thread CPU time (ms) of the tasks inside the round trip. */
  main: number;
  /** Worker-thread CPU time (ms). */
  worker: number;
}

/** Starts a trace with task timings and user-timing measures. */
export async function startTrace(cdp: CDPSession): Promise<void> {
  await cdp.send('Tracing.start', {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', '__metadata'].join(','),
    transferMode: 'ReturnAsStream',
  });
}

/** Ends the trace and returns the CPU time of every `playground:answer` round trip in it, in order. */
export async function stopTrace(cdp: CDPSession): Promise<RoundTripCpu[]> {
  const complete = new Promise<{ stream?: string }>((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  if (!stream) throw new Error('the trace came back without a stream');
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return roundTrips(Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []));
}

/** The round trips' CPU times from trace events. */
export function roundTrips(events: readonly TraceEvent[]): RoundTripCpu[] {
  const threadName = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name) threadName.set(`${e.pid}:${e.tid}`, e.args.name);
  // The user-timing measure's begin and end (async events; one pair per measure).
  const begins = new Map<string, number>();
  const windows: { from: number; to: number; pid: number }[] = [];
  for (const e of events) {
    if (e.name !== 'playground:answer' || !e.cat.includes('blink.user_timing')) continue;
    const key = `${e.pid}:${e.id ?? e.id2?.local ?? ''}`;
    if (e.ph === 'b') begins.set(key, e.ts);
    else if (e.ph === 'e' && begins.has(key)) {
      windows.push({ from: begins.get(key)!, to: e.ts, pid: e.pid });
      begins.delete(key);
    }
  }
  // Top-level tasks: `RunTask` complete events with a thread duration.
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.tdur !== undefined && e.dur !== undefined);
  return windows.map((w) => {
    const cpu = { main: 0, worker: 0 };
    for (const t of tasks) {
      if (t.pid !== w.pid) continue;
      const overlap = Math.min(t.ts + t.dur!, w.to) - Math.max(t.ts, w.from);
      if (overlap <= 0) continue;
      // A task that straddles the window's edge counts by its share inside (measures end inside the render task).
      const share = t.dur! > 0 ? Math.min(1, overlap / t.dur!) : 1;
      const thread = threadName.get(`${t.pid}:${t.tid}`) ?? '';
      if (thread === 'CrRendererMain') cpu.main += (t.tdur! * share) / 1000;
      else if (/worker/i.test(thread)) cpu.worker += (t.tdur! * share) / 1000;
    }
    return cpu;
  });
}
