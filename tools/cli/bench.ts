/**
 * `npm run bench` — how the site build scales with the corpus, against a plain Astro baseline.
 * For N = 10, 100 and 1,000 synthetic scenarios (tools/bench/corpus.ts; ~60 events and 6 requests
 * each, written to a temp copy of the project, never to scenarios/) it measures the build's own
 * stages in a fresh process (load + validate, fold + print + weave, page models, highlighting),
 * then the full `astro build` and pagefind (wall time, peak memory, output size, time per page);
 * then the baseline — a plain Astro site with one Markdown page per scenario holding the same
 * request texts as fenced yaml blocks — and reports our astro build time ÷ the baseline's (wall
 * time, the target; and CPU time, which other work on the machine skews less), our HTML
 * bytes ÷ the baseline's, where each build's CPU time goes by kind of thread (main threads, V8's
 * background threads — garbage collection and the optimizing compiler —, the bundler's: tools/bench/thread-cpu.ts),
 * how much of the background threads' time the optimizing compilers take (one more build of each,
 * traced: tools/bench/jit.ts),
 * and the page weight (gzip: HTML + CSS + JS) of the heaviest synthetic page
 * and of the heaviest page of the bundled corpus (one extra build of scenarios/, not timed against
 * anything). Prints tables and the targets as met / missed, writes bench-results/bench-<timestamp>.json.
 * Reports targets, never asserts them. The targets are issue #48's (item 3): at N = 100 our build
 * takes at most 1.0× plain Astro's time, wall and CPU alike, and writes at most 1.3× its HTML. On a
 * shared machine compare the CPU ratio of one run: the two builds run one after the other, and other
 * work slows the wall clock of each by a different amount. The stages are timed in CPU too.
 *
 *   npm run bench                  N = 10, 100, 1000 (minutes)
 *   npm run bench -- --quick       N = 5, 20 (about a minute)
 *   npm run bench -- --sizes 50,200 --keep    other sizes; keep the temp projects
 *   npm run bench -- --no-bundled  skip the bundled corpus's page-weight build
 *   npm run bench -- --repeat 5    build each site 5 times, ours and the baseline in turn; the
 *                                  ratios are of the median times, and each pair's ratio is shown
 *                                  too: a target is met only when the pairs' median meets it as well
 *   npm run bench -- --report bench-results/bench-….json   print an earlier run's tables again
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { generateCorpus } from '../bench/corpus.ts';
import { pageWeights, type PageWeight } from '../bench/page-weight.ts';
import { dirSize, median, meets, mib, ms, now, PEAK_RSS_SOURCE, pairSpread, timed, type PairSpread, type Timed } from '../bench/measure.ts';
import { measurePhases, type Phases } from '../bench/phases.ts';
import type { ThreadCpu } from '../bench/thread-cpu.ts';
import { jitCompile, type JitCompile } from '../bench/jit.ts';
import { makeBaselineProject, makeSiteProject, referencedScenarios, removeProject, ROOT, type BaselinePage } from '../bench/project.ts';
import { BUILTIN_FOLDS } from '../../src/builtin-folds/index.ts';
import { renderTexts } from '../../src/corpus/check.ts';
import { DEFAULT_TIME_ZERO } from '../../src/integration/options.ts';
import { loadConfig, runMain, UsageError } from '../../src/cli/config.ts';

const TARGET_LINEAR = 1.3;
/** Build time ÷ plain Astro, wall and CPU alike: at most this at N ≥ LARGE_N (issue #48, item 3) … */
const TARGET_OVERHEAD_LARGE = 1.0;
/** … and at most this below it (fixed costs — shiki, the integration — weigh more on small sites). */
const TARGET_OVERHEAD_SMALL = 1.5;
const LARGE_N = 100;
/** The cache economics' time ÷ our astro build's. */
const TARGET_ECONOMICS = 0.1;
/** Our HTML bytes ÷ the baseline's (issue #48, item 3). */
const TARGET_HTML = 1.3;
const overheadTarget = (n: number): number => (n >= LARGE_N ? TARGET_OVERHEAD_LARGE : TARGET_OVERHEAD_SMALL);
const ENV = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0', NO_COLOR: '1' };

interface BuildMeasure {
  status: number;
  wallMs: number;
  /** CPU time (user + system) of the build's processes; null without /usr/bin/time. */
  cpuMs?: number | null;
  /** The CPU time by kind of thread (tools/bench/thread-cpu.ts); null off Linux, absent in older reports. */
  threads?: ThreadCpu | null;
  /** Astro's own "generating static routes" time (page rendering only), when it printed one. */
  routesMs: number | null;
  peakRss: number;
  pages: number;
  htmlBytes: number;
  distBytes: number;
  /** 1-minute load average when the build started (other work on the machine skews timings). */
  loadBefore: number;
  /** The heaviest page (gzip transfer size of its HTML + CSS + JS) under scenarios/. */
  heaviest: PageWeight | null;
  error?: string;
}

interface SizeResult {
  n: number;
  corpus: { events: number; requests: number; annotations: number; bytes: number };
  phases: Phases | { error: string };
  site: BuildMeasure;
  pagefind: { status: number; wallMs: number; peakRss: number; indexBytes: number } | null;
  baseline: BuildMeasure;
  /** Our astro build wall time ÷ the baseline's. */
  overhead: number | null;
  /** Our astro build CPU time ÷ the baseline's (less sensitive to other work on the machine). */
  cpuOverhead?: number | null;
  /** Our HTML bytes ÷ the baseline's. */
  htmlRatio: number | null;
  /** Wall ms per page, ours and the baseline's. */
  perPageMs: number | null;
  baselinePerPageMs: number | null;
  /** Every build's times with --repeat (the first build included), ours and the baseline's in turn; the ratios above are of their medians. */
  runs?: { ours: BuildTimes[]; baseline: BuildTimes[] };
  /** V8's optimizing compilers in one more build of each, traced (jit.ts); absent in older reports, null where no trace could be read. */
  jit?: { ours: JitCompile | null; baseline: JitCompile | null };
}

interface BuildTimes {
  wallMs: number;
  cpuMs: number | null;
  threads?: ThreadCpu | null;
}

function parseArgs(argv: string[]): { sizes: number[]; keep: boolean; quick: boolean; bundled: boolean; repeat: number; phases?: string; report?: string } {
  let sizes = [10, 100, 1000];
  let repeat = 1;
  let keep = false;
  let bundled = true;
  let quick = false;
  let phases: string | undefined;
  let report: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--quick') {
      quick = true;
      sizes = [5, 20];
    } else if (a === '--keep') keep = true;
    else if (a === '--no-bundled') bundled = false;
    else if (a === '--sizes') sizes = (argv[++i] ?? '').split(',').map(Number);
    else if (a === '--repeat') repeat = Number(argv[++i]);
    else if (a === '--phases') phases = argv[++i];
    else if (a === '--report') report = argv[++i];
    else throw new UsageError(`bench: unknown argument ${a}`, { fix: 'use --quick, --sizes 10,100, --keep, --no-bundled, --repeat 5 or --report <results.json>' });
  }
  if (!sizes.length || sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new UsageError('bench: --sizes takes positive integers, e.g. --sizes 10,100', { fix: 'write the sizes comma-separated' });
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new UsageError('bench: --repeat takes a positive integer, e.g. --repeat 5', { fix: 'write how many times to build each site' });
  return { sizes, keep, quick, bundled, repeat, ...(phases !== undefined && { phases }), ...(report !== undefined && { report }) };
}

const elapsed = (start: number): string => ms(now() - start);

/** `astro build` in `dir`, with progress lines every tenth of the expected pages. */
async function astroBuild(dir: string, label: string, expectedPages: number): Promise<BuildMeasure> {
  const loadBefore = loadavg()[0]!;
  // The 1-minute average still counts this benchmark's previous step; well above the core count, something else runs.
  if (loadBefore > availableParallelism() * 1.5)
    console.log(`    note: load average ${loadBefore.toFixed(1)} on ${availableParallelism()} cores — other work may be running; timings may be skewed`);
  const start = now();
  let pages = 0;
  const step = Math.max(1, Math.ceil(expectedPages / 10));
  const r: Timed = await timed('npx', ['astro', 'build'], dir, ENV, (line) => {
    if (!/index\.html/.test(line)) return;
    pages++;
    if (pages % step === 0) console.log(`    ${label}: ${pages}/~${expectedPages} pages rendered (${elapsed(start)})`);
  });
  const out = r.stdout;
  const at = out.indexOf('generating static routes');
  // Astro prints `681ms`, `11.07s` or, past a minute, `5m 31s`.
  const m = at >= 0 ? /Completed in (?:(\d+)m )?([\d.]+)(ms|s)\./.exec(out.slice(at)) : null;
  const routesMs = m ? Number(m[1] ?? 0) * 60_000 + Number(m[2]) * (m[3] === 's' ? 1000 : 1) : null;
  const html = dirSize(join(dir, 'dist'), (n) => n.endsWith('.html'));
  const dist = dirSize(join(dir, 'dist'));
  const tail = `${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-15).join('\n');
  const heaviest = r.status === 0 ? heaviestPage(join(dir, 'dist')) : null;
  return {
    status: r.status,
    wallMs: r.wallMs,
    cpuMs: r.cpuMs,
    threads: r.threads,
    routesMs,
    peakRss: r.peakRss,
    pages: html.files,
    htmlBytes: html.bytes,
    distBytes: dist.bytes,
    loadBefore,
    heaviest,
    ...(r.status !== 0 && { error: tail }),
  };
}

/** The heaviest scenario page of a built dist/ (gzip of its HTML plus the CSS and JS it loads). */
function heaviestPage(dist: string): PageWeight | null {
  return pageWeights(dist, /^scenarios\//).reduce<PageWeight | null>((a, b) => (a && a.total >= b.total ? a : b), null);
}

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const weight = (w: PageWeight | null): string => (w ? `${kb(w.total)} (${w.page.replace(/index\.html$/, '')})` : '—');

/** One untimed build of the bundled scenarios/ for its heaviest page's weight. */
async function bundledWeight(): Promise<{ status: number; heaviest: PageWeight | null }> {
  const files = readdirSync(join(ROOT, 'scenarios'))
    .filter((n) => /\.(ya?ml|md)$/.test(n))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(ROOT, 'scenarios', name), 'utf8') }));
  const dir = await makeSiteProject(files);
  console.log(`\nbundled corpus (${files.length} scenarios): astro build for page weight → ${dir}`);
  const r = await astroBuild(dir, 'bundled', files.length + 5);
  console.log(`  ${r.status === 0 ? `heaviest page ${weight(r.heaviest)}` : `FAILED (exit ${r.status})\n${r.error}`}`);
  removeProject(dir);
  return { status: r.status, heaviest: r.heaviest };
}

async function phasesIn(dir: string): Promise<Phases | { error: string }> {
  const r = await timed(process.execPath, [join(ROOT, 'tools/cli/bench.ts'), '--phases', dir], ROOT, ENV);
  if (r.status !== 0) return { error: `${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-15).join('\n') };
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Phases;
}

async function benchSize(n: number, keep: boolean, repeat = 1): Promise<SizeResult> {
  const start = now();
  console.log(`\nN = ${n}: generating ${n} scenarios`);
  const corpus = generateCorpus({ scenarios: n });
  const kept = referencedScenarios();
  const files = [...kept, ...corpus.files];
  // The explainer's search index (built inside `astro build` by default) is off here and timed on its own line below.
  const site = await makeSiteProject(files, { search: false });
  console.log(`  ${corpus.events} events, ${corpus.requests} requests, ${corpus.annotations} annotations, ${mib(corpus.bytes)} of YAML → ${site}`);
  console.log(`  (+ the ${kept.length} bundled scenarios the reference pages embed: ${kept.map((f) => f.name).join(', ')}; the baseline gets pages for them too)`);

  console.log(`  stages (fresh process): load, fold, page models, highlighting …`);
  const phases = await phasesIn(site);
  if ('error' in phases) console.log(`  stages FAILED:\n${phases.error}`);
  else
    console.log(
      `  stages done (${elapsed(start)}): load ${ms(phases.loadMs)}, fold ${ms(phases.foldMs)}, economics ${ms(phases.economicsMs)}, every profile ${ms(phases.everyProfileMs ?? 0)}, views ${ms(phases.viewMs)}, highlight ${ms(phases.highlightMs)}`,
    );

  console.log('  astro build (our site) …');
  const ours = await astroBuild(site, 'our site', n + kept.length + 5);
  console.log(
    `  astro build ${ours.status === 0 ? 'done' : `FAILED (exit ${ours.status})`}: ${ms(ours.wallMs)}, peak ${mib(ours.peakRss)}, ${ours.pages} pages, ${mib(ours.distBytes)}, heaviest page ${weight(ours.heaviest)}`,
  );
  if (ours.error) console.log(ours.error.replace(/^/gm, '    | '));
  let pagefind: SizeResult['pagefind'] = null;
  if (ours.status === 0) {
    console.log("  search index (the integration's own, src/integration/search-index.ts, on the built dist/) …");
    const index = `import { buildSearchIndex } from './src/integration/search-index.ts'; await buildSearchIndex('dist');`;
    const r = await timed(process.execPath, ['--input-type=module', '--eval', index], site, ENV);
    pagefind = { status: r.status, wallMs: r.wallMs, peakRss: r.peakRss, indexBytes: dirSize(join(site, 'dist', 'pagefind')).bytes };
    console.log(`  search index ${r.status === 0 ? 'done' : `FAILED:\n${r.stderr}`}: ${ms(r.wallMs)}, peak ${mib(r.peakRss)}`);
  }

  const rendered = await renderTexts(
    files.map((f) => ({ file: `scenarios/${f.name}`, text: f.text })),
    { folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', timeZero: DEFAULT_TIME_ZERO },
    { everyEvent: false },
  );
  const pages: BaselinePage[] = rendered.scenarios.map((r) => ({
    slug: r.scenario.id,
    title: r.scenario.title,
    intro: r.scenario.intro,
    requests: r.requests.map((q) => ({ offset: q.offset, text: q.text })),
  }));
  const base = makeBaselineProject(pages);
  console.log(`  astro build (baseline: ${pages.length} Markdown pages + index) → ${base}`);
  const baseline = await astroBuild(base, 'baseline', pages.length + 1);
  console.log(
    `  baseline ${baseline.status === 0 ? 'done' : `FAILED (exit ${baseline.status})`}: ${ms(baseline.wallMs)}, peak ${mib(baseline.peakRss)}, ${baseline.pages} pages, ${mib(baseline.distBytes)}`,
  );
  if (baseline.error) console.log(baseline.error.replace(/^/gm, '    | '));
  const times = (b: BuildMeasure): BuildTimes => ({ wallMs: b.wallMs, cpuMs: b.cpuMs ?? null, threads: b.threads ?? null });
  const runs = { ours: [times(ours)], baseline: [times(baseline)] };
  // More builds of each, in turn, from a clean output folder: other work on the machine then weighs on both alike.
  for (let i = 2; i <= repeat && ours.status === 0 && baseline.status === 0; i++) {
    for (const [dir, label, list, expected] of [
      [site, 'our site', runs.ours, n + kept.length + 5],
      [base, 'baseline', runs.baseline, pages.length + 1],
    ] as const) {
      cleanBuild(dir);
      console.log(`  astro build (${label}, ${i} of ${repeat}) …`);
      const again = await astroBuild(dir, label, expected);
      if (again.status !== 0) throw new Error(`bench: the ${label}'s build ${i} of ${repeat} failed (exit ${again.status}):\n${again.error ?? ''}`);
      list.push(times(again));
    }
  }
  const ok = ours.status === 0 && baseline.status === 0;
  const jit = ok ? { ours: await tracedJit(site, 'our site'), baseline: await tracedJit(base, 'baseline') } : undefined;
  if (!keep) {
    removeProject(site);
    removeProject(base);
  }
  const mid = (list: BuildTimes[], f: (t: BuildTimes) => number | null): number | null => (list.every((t) => f(t) !== null) ? median(list.map((t) => f(t)!)) : null);
  const [oursWall, baseWall] = [mid(runs.ours, (t) => t.wallMs)!, mid(runs.baseline, (t) => t.wallMs)!];
  const [oursCpu, baseCpu] = [mid(runs.ours, (t) => t.cpuMs), mid(runs.baseline, (t) => t.cpuMs)];
  console.log(`  N = ${n} done in ${elapsed(start)}`);
  return {
    n,
    corpus: { events: corpus.events, requests: corpus.requests, annotations: corpus.annotations, bytes: corpus.bytes },
    phases,
    site: ours,
    pagefind,
    baseline,
    overhead: ok ? oursWall / baseWall : null,
    cpuOverhead: ok && oursCpu && baseCpu ? oursCpu / baseCpu : null,
    htmlRatio: ok ? ours.htmlBytes / baseline.htmlBytes : null,
    perPageMs: ours.status === 0 ? ours.wallMs / ours.pages : null,
    baselinePerPageMs: baseline.status === 0 ? baseline.wallMs / baseline.pages : null,
    ...(repeat > 1 && { runs }),
    ...(jit && { jit }),
  };
}

/** Removes a project's build output and Astro's cache, so the next build starts as the first did. */
function cleanBuild(dir: string): void {
  for (const out of ['dist', '.astro']) rmSync(join(dir, out), { recursive: true, force: true });
}

/** One more, untimed build of `dir` with V8's `--trace-opt`: its optimizing compilers' work (jit.ts). */
async function tracedJit(dir: string, label: string): Promise<JitCompile | null> {
  cleanBuild(dir);
  console.log(`  astro build (${label}, traced: V8's optimizing compilers) …`);
  const r = await timed(process.execPath, ['--trace-opt', join('node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], dir, ENV);
  if (r.status !== 0) throw new Error(`bench: the ${label}'s traced build failed (exit ${r.status}):\n${`${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-15).join('\n')}`);
  return jitCompile(r.stdout);
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [fmt(head), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n');
}

const or = (x: number | null | undefined, f: (x: number) => string): string => (x === null || x === undefined ? '—' : f(x));

const THREAD_KINDS: [keyof ThreadCpu, string][] = [
  ['main', 'main threads'],
  ['v8', "V8's background threads (GC, optimizing compiler)"],
  ['bundler', 'bundler (rolldown)'],
  ['other', 'other'],
];

/** Each kind's median over builds that measured threads (null when none did). */
function threadMedians(list: readonly BuildTimes[]): ThreadCpu | null {
  const measured = list.map((t) => t.threads).filter((t): t is ThreadCpu => !!t);
  if (!measured.length) return null;
  return Object.fromEntries(THREAD_KINDS.map(([k]) => [k, median(measured.map((t) => t[k]))])) as unknown as ThreadCpu;
}

/** Where the CPU time goes, ours against the baseline's, by kind of thread. */
function threadLine(ours: ThreadCpu, base: ThreadCpu): string {
  const diff = (x: number): string => `${x >= 0 ? '+' : '−'}${ms(Math.abs(x))}`;
  return `CPU by thread (medians; polled from /proc, a lower bound of the totals): ${THREAD_KINDS.map(([k, label]) => `${label} ${ms(ours[k])} against ${ms(base[k])} (${diff(ours[k] - base[k])})`).join(', ')}`;
}

/** The optimizing compilers' share of the background threads, ours against the baseline's. */
function jitLine(ours: JitCompile | null, base: JitCompile | null): string {
  const one = (j: JitCompile | null): string => (j ? `${ms(j.executeMs)} (${j.jobs} jobs, TurboFan ${ms(j.turbofanMs)})` : '— (no trace read)');
  const diff = ours && base ? ` (${ours.executeMs >= base.executeMs ? '+' : '−'}${ms(Math.abs(ours.executeMs - base.executeMs))})` : '';
  return `V8's optimizing compilers (one more build of each, traced with --trace-opt; V8's elapsed time of the jobs it runs on the background threads above): ${one(ours)} against ${one(base)}${diff}`;
}

/** The median CPU time of a --repeat run's builds (undefined without them). */
function medianCpu(list: BuildTimes[] | undefined): number | undefined {
  const xs = list?.map((t) => t.cpuMs).filter((x): x is number => x !== null) ?? [];
  return xs.length ? median(xs) : undefined;
}

function report(results: SizeResult[], bundled: { status: number; heaviest: PageWeight | null } | null): { lines: string[]; targets: Record<string, unknown> } {
  const lines: string[] = [];
  lines.push('Build stages outside Astro (fresh process per N; what the build does before/while rendering pages), wall time / CPU time:');
  // A stage's wall time, and its CPU time when the run measured it (older reports did not).
  const stage = (wall: number | undefined, cpu: number | undefined): string => (wall === undefined ? '—' : cpu === undefined ? ms(wall) : `${ms(wall)} / ${ms(cpu)}`);
  lines.push(
    table(
      ['N', 'events', 'requests', 'pane lines', 'load+validate', 'fold+print+weave', 'economics', 'every profile', 'page models', 'shiki init', 'highlighting', 'peak RSS'],
      results.map((r) => {
        const p = r.phases;
        if ('error' in p) return [String(r.n), String(r.corpus.events), String(r.corpus.requests), 'failed'];
        return [
          String(r.n),
          String(p.events),
          String(p.requests),
          p.paneLines.toLocaleString('en'),
          stage(p.loadMs, p.cpu?.load),
          stage(p.foldMs, p.cpu?.fold),
          stage(p.economicsMs, p.cpu?.economics),
          stage(p.everyProfileMs, p.cpu?.everyProfile),
          stage(p.viewMs, p.cpu?.view),
          stage(p.highlighterInitMs, p.cpu?.highlighterInit),
          stage(p.highlightMs, p.cpu?.highlight),
          mib(p.peakRss),
        ];
      }),
    ),
  );
  lines.push('');
  lines.push(`Full builds (wall time; peak memory: ${PEAK_RSS_SOURCE}):`);
  lines.push(
    table(
      [
        'N',
        'pages',
        'astro build',
        'CPU',
        'routes',
        'per page',
        'peak RSS',
        'HTML',
        'dist',
        'search index',
        'baseline build',
        'CPU',
        'per page',
        'peak RSS',
        'HTML',
        'time ÷ baseline',
        'CPU ÷ baseline',
        'HTML ÷ baseline',
      ],
      results.map((r) => [
        String(r.n),
        String(r.site.pages),
        r.site.status === 0 ? ms(r.site.wallMs) : `FAILED ${ms(r.site.wallMs)}`,
        or(r.site.cpuMs, ms),
        or(r.site.routesMs, ms),
        or(r.perPageMs, ms),
        mib(r.site.peakRss),
        mib(r.site.htmlBytes),
        mib(r.site.distBytes),
        r.pagefind ? `${ms(r.pagefind.wallMs)} (${mib(r.pagefind.indexBytes)})` : '—',
        r.baseline.status === 0 ? ms(r.baseline.wallMs) : 'FAILED',
        or(r.baseline.cpuMs, ms),
        or(r.baselinePerPageMs, ms),
        mib(r.baseline.peakRss),
        mib(r.baseline.htmlBytes),
        or(r.overhead, (x) => `${x.toFixed(2)}×`),
        or(r.cpuOverhead ?? null, (x) => `${x.toFixed(2)}×`),
        or(r.htmlRatio ?? null, (x) => `${x.toFixed(2)}×`),
      ]),
    ),
  );
  lines.push('');
  lines.push('Page weight (gzip transfer size of a page: HTML + the CSS and JS it loads), heaviest scenario page:');
  lines.push(
    table(
      ['N', 'ours', 'html', 'css', 'js', 'baseline'],
      results.map((r) => [
        String(r.n),
        weight(r.site.heaviest ?? null),
        or(r.site.heaviest?.html, kb),
        or(r.site.heaviest?.css, kb),
        or(r.site.heaviest?.js, kb),
        weight(r.baseline.heaviest ?? null),
      ]),
    ),
  );
  if (bundled)
    lines.push(
      `bundled corpus (scenarios/): heaviest page ${bundled.status === 0 ? `${weight(bundled.heaviest)} — html ${or(bundled.heaviest?.html, kb)}, css ${or(bundled.heaviest?.css, kb)}, js ${or(bundled.heaviest?.js, kb)}` : `build FAILED (exit ${bundled.status})`}`,
    );
  lines.push('');
  const sorted = [...results].sort((a, b) => a.n - b.n);
  const [prev, last] = sorted.slice(-2) as [SizeResult | undefined, SizeResult | undefined];
  const growth = prev && last && prev !== last && prev.perPageMs && last.perPageMs ? last.perPageMs / prev.perPageMs : null;
  const routesGrowth =
    prev && last && prev !== last && prev.site.routesMs && last.site.routesMs ? last.site.routesMs / last.site.pages / (prev.site.routesMs / prev.site.pages) : null;
  // Each pair's ratio (ours ÷ the baseline built right after it), when the run built each site more than once.
  const pairs = (r: SizeResult, f: (t: BuildTimes) => number | null): PairSpread | null =>
    r.runs ? pairSpread(r.runs.ours.map(f), r.runs.baseline.map(f), overheadTarget(r.n)) : null;
  const wallPairs = new Map(results.map((r) => [r, pairs(r, (t) => t.wallMs)]));
  const cpuPairs = new Map(results.map((r) => [r, pairs(r, (t) => t.cpuMs)]));
  const wallMet = (r: SizeResult): boolean => meets(r.overhead, wallPairs.get(r) ?? null, overheadTarget(r.n));
  const cpuMet = (r: SizeResult): boolean => meets(r.cpuOverhead, cpuPairs.get(r) ?? null, overheadTarget(r.n));
  /** The verdict, and why a ratio under the target still misses it (its pairs' median is above). */
  const verdict = (met: boolean, ratio: number | null | undefined, p: PairSpread | null | undefined, target: number): string =>
    met ? 'met' : ratio != null && ratio <= target && p ? `MISSED: the pairs' median is ${p.median.toFixed(2)}×` : 'MISSED';
  const metOverhead = results.every(wallMet);
  const metCpuOverhead = results.every(cpuMet);
  const htmlRatios = results.map((r) => r.htmlRatio ?? null);
  const worstHtml = htmlRatios.every((x) => x !== null) ? Math.max(...(htmlRatios as number[])) : null;
  const peakRatios = results.map((r) => (r.site.status === 0 && r.baseline.status === 0 ? r.site.peakRss / r.baseline.peakRss : null));
  const largest = last ?? sorted[0]!;
  lines.push('Targets (reported, not asserted):');
  if (growth !== null) {
    lines.push(
      `- linear growth: time per page at N = ${last!.n} ÷ at N = ${prev!.n} = ${growth.toFixed(2)} (target ≤ ${TARGET_LINEAR}) — ${growth <= TARGET_LINEAR ? 'met' : 'MISSED'}` +
        (routesGrowth !== null ? `; page rendering alone ("generating static routes" per page): ${routesGrowth.toFixed(2)}` : ''),
    );
  }
  lines.push(
    `- build time against plain Astro: ${results.map((r) => `N=${r.n} ${or(r.overhead, (x) => `${x.toFixed(2)}×`)} (≤ ${overheadTarget(r.n).toFixed(1)}× ${verdict(wallMet(r), r.overhead, wallPairs.get(r), overheadTarget(r.n))})`).join(', ')} (target ≤ ${TARGET_OVERHEAD_LARGE.toFixed(1)}× at N ≥ ${LARGE_N}, ≤ ${TARGET_OVERHEAD_SMALL.toFixed(1)}× below) — ${metOverhead ? 'met' : 'MISSED'}`,
  );
  lines.push(
    `- CPU time (user + system) against plain Astro, which other work on the machine skews less: ${results
      .map(
        (r) =>
          `N=${r.n} ${or(medianCpu(r.runs?.ours) ?? r.site.cpuMs, ms)} ÷ ${or(medianCpu(r.runs?.baseline) ?? r.baseline.cpuMs, ms)} = ${or(r.cpuOverhead ?? null, (x) => `${x.toFixed(2)}×`)} (≤ ${overheadTarget(r.n).toFixed(1)}× ${verdict(cpuMet(r), r.cpuOverhead, cpuPairs.get(r), overheadTarget(r.n))})`,
      )
      .join(', ')} — ${metCpuOverhead ? 'met' : 'MISSED'}`,
  );
  for (const r of results) {
    if (!r.runs) continue;
    const span = (list: BuildTimes[], f: (t: BuildTimes) => number | null): string => {
      const xs = list.map(f).filter((x): x is number => x !== null);
      return xs.length ? `${ms(Math.min(...xs))}–${ms(Math.max(...xs))} (median ${ms(median(xs))})` : '—';
    };
    lines.push(
      `  N=${r.n}, ${r.runs.ours.length} builds of each in turn — ours: wall ${span(r.runs.ours, (t) => t.wallMs)}, CPU ${span(r.runs.ours, (t) => t.cpuMs)}; baseline: wall ${span(r.runs.baseline, (t) => t.wallMs)}, CPU ${span(r.runs.baseline, (t) => t.cpuMs)}; the ratios above are of the medians`,
    );
    const spread = (p: PairSpread | null | undefined): string =>
      p ? `${p.min.toFixed(2)}×–${p.max.toFixed(2)}× (median ${p.median.toFixed(2)}×; ${p.above} of ${p.n} above ${overheadTarget(r.n).toFixed(1)}×)` : '—';
    lines.push(`  N=${r.n}, each build of ours ÷ the baseline's built right after it — CPU ${spread(cpuPairs.get(r))}, wall ${spread(wallPairs.get(r))}`);
  }
  for (const r of results) {
    const ours = threadMedians(r.runs?.ours ?? [{ wallMs: r.site.wallMs, cpuMs: null, threads: r.site.threads ?? null }]);
    const base = threadMedians(r.runs?.baseline ?? [{ wallMs: r.baseline.wallMs, cpuMs: null, threads: r.baseline.threads ?? null }]);
    if (ours && base) lines.push(`  N=${r.n}, ${threadLine(ours, base)}`);
    if (r.jit) lines.push(`  N=${r.n}, ${jitLine(r.jit.ours, r.jit.baseline)}`);
  }
  lines.push(
    `- HTML bytes against plain Astro: ${results.map((r) => `N=${r.n} ${or(r.htmlRatio ?? null, (x) => `${x.toFixed(2)}×`)}`).join(', ')} (target ≤ ${TARGET_HTML}×) — ${worstHtml !== null && worstHtml <= TARGET_HTML ? 'met' : 'MISSED'}`,
  );
  // The cache economics' share of our build (tokenizing each distinct message once; the side-by-side table): ≤ 10 %, in CPU time when measured.
  const econShares = results.map((r) => {
    const p = r.phases;
    if ('error' in p || r.site.status !== 0) return null;
    if (p.cpu && r.site.cpuMs) return (p.cpu.economics + p.cpu.everyProfile) / r.site.cpuMs;
    return (p.economicsMs + (p.everyProfileMs ?? 0)) / r.site.wallMs;
  });
  const worstEcon = econShares.every((x) => x !== null) ? Math.max(...(econShares as number[])) : null;
  lines.push(
    `- cache economics within the build: ${results.map((r, i) => `N=${r.n} ${or(econShares[i]!, (x) => `${(100 * x).toFixed(1)} %`)}`).join(', ')} of the astro build's CPU time (wall time for runs without it; target ≤ ${100 * TARGET_ECONOMICS} %) — ${worstEcon !== null && worstEcon <= TARGET_ECONOMICS ? 'met' : 'MISSED'}`,
  );
  lines.push(
    `- peak memory against plain Astro (reported; compare runs for "no worse"): ${results.map((r, i) => `N=${r.n} ${or(peakRatios[i]!, (x) => `${x.toFixed(2)}×`)}`).join(', ')}`,
  );
  const pagefindPeak = largest.pagefind
    ? `; pagefind after it: peak ${mib(largest.pagefind.peakRss)} of ${mib(totalmem())} RAM, ${largest.pagefind.status === 0 ? 'ok' : `exit ${largest.pagefind.status}`}`
    : '';
  lines.push(
    `- N = ${largest.n} builds without running out of memory: ${largest.site.status === 0 ? `yes — astro build peak ${mib(largest.site.peakRss)}` : `NO — astro build exit ${largest.site.status}`}${pagefindPeak}`,
  );
  return {
    lines,
    targets: {
      linearGrowth: { ratio: growth, routesRatio: routesGrowth, target: TARGET_LINEAR, met: growth !== null ? growth <= TARGET_LINEAR : null },
      overhead: {
        perN: Object.fromEntries(results.map((r) => [r.n, r.overhead])),
        cpuPerN: Object.fromEntries(results.map((r) => [r.n, r.cpuOverhead ?? null])),
        pairsPerN: Object.fromEntries(results.map((r) => [r.n, { wall: wallPairs.get(r) ?? null, cpu: cpuPairs.get(r) ?? null }])),
        target: { large: TARGET_OVERHEAD_LARGE, small: TARGET_OVERHEAD_SMALL, largeN: LARGE_N },
        met: metOverhead,
        cpuMet: metCpuOverhead,
      },
      html: { perN: Object.fromEntries(results.map((r) => [r.n, r.htmlRatio ?? null])), target: TARGET_HTML, met: worstHtml !== null && worstHtml <= TARGET_HTML },
      economics: { perN: Object.fromEntries(results.map((r, i) => [r.n, econShares[i]])), target: TARGET_ECONOMICS, met: worstEcon !== null && worstEcon <= TARGET_ECONOMICS },
      peakMemory: { perN: Object.fromEntries(results.map((r, i) => [r.n, peakRatios[i]])) },
      pageWeight: { heaviestSynthetic: Object.fromEntries(results.map((r) => [r.n, r.site.heaviest ?? null])), bundled: bundled?.heaviest ?? null },
      memory: { n: largest.n, built: largest.site.status === 0, peakRss: largest.site.peakRss, pagefindPeakRss: largest.pagefind?.peakRss ?? null },
    },
  };
}

runMain(async () => {
  const args = parseArgs(process.argv.slice(2));
  if (args.phases) {
    // Child mode: time the stages on one project's scenarios, print one JSON line.
    const phases = await measurePhases(await loadConfig(args.phases));
    console.log(JSON.stringify(phases));
    return;
  }
  if (args.report) {
    // Print the tables of an earlier run again.
    const saved = JSON.parse(readFileSync(args.report, 'utf8')) as { results: SizeResult[]; bundled?: { status: number; heaviest: PageWeight | null } | null };
    console.log(report(saved.results, saved.bundled ?? null).lines.join('\n'));
    return;
  }
  const start = now();
  console.log(
    `bench — synthetic corpora of N = ${args.sizes.join(', ')} scenarios (≈60 events, 6 requests each, seeded), built as our site and as a plain Astro baseline${args.quick ? ' (quick run)' : ''}`,
  );
  const results: SizeResult[] = [];
  for (const n of args.sizes) results.push(await benchSize(n, args.keep, args.repeat));
  const bundled = args.bundled ? await bundledWeight() : null;
  const { lines, targets } = report(results, bundled);
  console.log(`\n${lines.join('\n')}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = join(ROOT, 'bench-results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${stamp}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        quick: args.quick,
        sizes: args.sizes,
        node: process.version,
        peakRssSource: PEAK_RSS_SOURCE,
        corpus: { eventsPerScenario: 60, requestsPerScenario: 6, seed: 1 },
        results,
        bundled,
        targets,
        totalMs: now() - start,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${file} (total ${elapsed(start)})`);
});
