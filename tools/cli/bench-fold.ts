/**
 * `npm run bench:fold` — how fast the context-protocol fold and the printer go on long streams:
 * a synthetic stream (tools/bench/stream.ts) of 10k and 100k events, one request per 100 events,
 * folded once with `snapshots(events, defaults, requestOffsets)` and every request printed with the
 * fold's abridgements. Prints events/second and total ms per size, and the ratio of the time per
 * event at 100k to that at 10k (≈ 1 means linear growth). Reports, never asserts; the target is
 * 100k events / 1k requests under 1 s.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BUILTIN_FOLDS } from '../../src/builtin-folds/index.ts';
import { printRequest } from '../../src/prompt/print.ts';
import { syntheticStream, type SyntheticStream } from '../bench/stream.ts';
import { median, ms, now } from '../bench/measure.ts';
import { runMain } from '../../src/cli/config.ts';
import { abridgementsOf } from '../../src/folds/hooks.ts';

const contextProtocol = BUILTIN_FOLDS.get('context-protocol')!;

const SIZES = [10_000, 100_000];
const RUNS = 7;

// A full collection before each timed run, so no run pays for the garbage of the one before.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const TARGET_MS = 1_000;

interface Run {
  foldMs: number;
  printMs: number;
  totalMs: number;
  lines: number;
  chars: number;
  maxLines: number;
}

async function once(stream: SyntheticStream): Promise<Run> {
  gc();
  const options = contextProtocol.defaults;
  const abridgements = await abridgementsOf(contextProtocol, options);
  const t0 = now();
  const snaps = await contextProtocol.snapshots(stream.events, options, new Set(stream.requests));
  const t1 = now();
  let lines = 0;
  let chars = 0;
  let maxLines = 0;
  for (const s of snaps) {
    const printed = printRequest(s.request?.model ?? null, s.messages, abridgements);
    lines += printed.length;
    maxLines = Math.max(maxLines, printed.length);
    for (const l of printed) chars += l.text.length + 1;
  }
  const t2 = now();
  return { foldMs: t1 - t0, printMs: t2 - t1, totalMs: t2 - t0, lines, chars, maxLines };
}

runMain(async () => {
  console.log('bench:fold — synthetic context-protocol streams: per 100 events one user turn, one request, its reply and settlement,');
  console.log('script runs with developer script results, token-usage reports, keyed re-adds, summary updates; a compaction every');
  console.log('10 requests keeps the prompt bounded, as real agents do. Timed: snapshots(events, defaults, requestOffsets) + printRequest');
  console.log(`of every request (with the fold's abridgements); median of ${RUNS} runs after a warm-up of every size.\n`);
  const results: { events: number; requests: number; compactions: number; run: Run }[] = [];
  const streams = SIZES.map((size) => syntheticStream({ events: size }));
  // Warm-up on every size first, so the smaller size is not the one that pays for the JIT.
  for (const stream of streams) await once(stream);
  for (const stream of streams) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(stream));
    const run = runs.find((r) => r.totalMs === median(runs.map((x) => x.totalMs)))!;
    results.push({ events: stream.events.length, requests: stream.requests.length, compactions: stream.compactions, run });
  }
  const rows = results.map((r) => [
    r.events.toLocaleString('en'),
    String(r.requests),
    String(r.compactions),
    ms(r.run.foldMs),
    ms(r.run.printMs),
    ms(r.run.totalMs),
    Math.round(r.events / (r.run.totalMs / 1000)).toLocaleString('en'),
    `${((r.run.totalMs * 1000) / r.events).toFixed(2)} µs`,
    String(r.run.maxLines),
    `${(r.run.chars / r.requests / 1024).toFixed(1)} KiB`,
  ]);
  const head = ['events', 'requests', 'compactions', 'fold', 'print', 'total', 'events/s', 'per event', 'max lines/request', 'mean request'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]): string => r.map((c, i) => c.padStart(widths[i]!)).join('  ');
  console.log(fmt(head));
  for (const r of rows) console.log(fmt(r));
  const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
  const ratio = large.run.totalMs / large.events / (small.run.totalMs / small.events);
  console.log(`\ntime per event, 100k ÷ 10k: ${ratio.toFixed(2)} (1.00 = linear growth)`);
  console.log(`target: 100k events / 1k requests under ${TARGET_MS} ms on this machine — ${large.run.totalMs < TARGET_MS ? 'met' : 'MISSED'} (${ms(large.run.totalMs)})`);
});
