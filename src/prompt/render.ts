/**
 * One scenario through the whole pipeline: fold (one reduce pass over its chain) → print → weave.
 * Produces every request of the scenario with its cache cut and resolved anchors, and — for the
 * site — the printed state as of every event. Requests the fold did not accept and stale anchors
 * become input errors.
 */
import { breakpointProblems } from '../folds/breakpoints.ts';
import type { Abridgement, AnyFold, Breakpoint, EventDescription, RenderedMessage, Snapshot } from '../folds/types.ts';
import { foldFailureError, located, type InputError, type SourcePos } from '../scenarios/errors.ts';
import type { Scenario } from '../scenarios/model.ts';
import { printedBreakpoints } from './breakpoints.ts';
import { printRequest, type PrintedLine } from './print.ts';
import { anchorsOnMetadata, metadataAnchorWarning } from './metadata-anchor.ts';
import { cacheCut, resolveAnchors, weave, type Anchor } from './weave.ts';
import { abridgementsOf, describeEvents, FoldFailure, snapshotsOf } from '../folds/hooks.ts';

export interface RenderedRequest {
  offset: number;
  model: string;
  /** Printed lines without comments. */
  lines: PrintedLine[];
  /** Plain line index the ✂ comment sits above (null: first request of the chain). */
  cut: number | null;
  /** Offset of the previous request in the chain, the one the cut compares with. */
  previous: number | null;
  anchors: Anchor[];
  /** Fixture text: printed lines with the ✂ line and annotations woven in (woven when first read: only the fixtures and the check read it, not the site's pages). */
  readonly text: string;
  /** The messages as the fold rendered them (unabridged: what the provider receives). */
  messages: readonly RenderedMessage[];
  /** When the request was sent (the request event's ISO-8601 instant). */
  createdAt: string;
  /** The cache breakpoints the fold marked on this request (absent: the fold marks none; see Snapshot). */
  breakpoints?: readonly Breakpoint[];
  /** The request as it was sent (an imported one): its breakpoints are all it asks for (see Snapshot). */
  asSent?: true;
}

/**
 * A copy of `q` with `patch`'s fields (a what-if's retimed or re-marked request), whose `text` is
 * still woven only when read — and is `q`'s. An object spread reads every getter to copy it: the
 * what-ifs' spreads wove the fixture text of every request of every scenario (22 MB kept through a
 * 100-scenario build) that nothing reads.
 */
export function requestWith(q: RenderedRequest, patch: Partial<Omit<RenderedRequest, 'text'>>): RenderedRequest {
  return Object.assign(Object.defineProperties({}, Object.getOwnPropertyDescriptors(q)) as RenderedRequest, patch);
}

/** `r` with each request of its chain replaced by `map(q)` — its own requests by the same copies (a what-if's variant of the scenario). */
export function withRequests(r: RenderedScenario, map: (q: RenderedRequest) => RenderedRequest): RenderedScenario {
  const byOffset = new Map(r.chain.map((q) => [q.offset, map(q)]));
  return { ...r, chain: r.chain.map((q) => byOffset.get(q.offset)!), requests: r.requests.map((q) => byOffset.get(q.offset)!) };
}

/** The printed state as of one event of the chain. */
export interface EventView {
  offset: number;
  /** Set when the event is an accepted request. */
  request?: RenderedRequest;
  /** Printed lines: the request for a send, otherwise the messages the model would read next. */
  lines: PrintedLine[];
  /** Why a request event rendered nothing. */
  rejected?: string;
}

export interface Warning {
  pos: SourcePos;
  message: string;
}

export interface RenderedScenario {
  scenario: Scenario;
  fold: AnyFold;
  /** Options with the fold's defaults merged in. */
  options: Record<string, unknown>;
  /** The scenario's own accepted requests, in event order. */
  requests: RenderedRequest[];
  /** Every accepted request of the chain (base scenarios' and own), in event order. */
  chain: RenderedRequest[];
  /** Every event of the chain (only when asked for, see RenderOptions). */
  events: EventView[];
  warnings: Warning[];
  /** The rules in force over the chain: the scenario's own, and a `deploy:`'s from its offset on (absent: the own rule throughout). */
  phases?: Phase[];
  /**
   * What each rule would send as of the events between two requests whose bytes changed (and just
   * before a deploy inside such a range), for naming the event that broke the cache
   * (economics/attribution.ts) without folding again. Absent where nothing changed.
   */
  folded?: ReadonlyMap<Phase, ReadonlyMap<number, readonly RenderedMessage[]>>;
  /** How each event of the chain reads on its timeline card (the fold's `describe`; only with `everyEvent`). */
  described?: Required<EventDescription>[];
  /** The fold failed (its error is reported at the event): nothing of this scenario was rendered. */
  foldFailed?: true;
}

export interface RenderOptions {
  /** Also print the state as of every event (the site's pane); fixtures need only the requests. */
  everyEvent: boolean;
  /** Describe every event of the chain for its card (the fold's `describe`); default: with `everyEvent`. */
  describe?: boolean;
  /** Render with another fold/options (a `compare:` variant) instead of the scenario's own. */
  variant?: { fold: AnyFold; options: Record<string, unknown> };
  /** The fold a scenario's `deploy:` names (required when it has one; ignored for a variant). */
  deployed?: AnyFold;
}

/** One rule in force over a range of offsets: before a `deploy:` and after it. */
export interface Phase {
  fold: AnyFold;
  options: Record<string, unknown>;
  abridgements: Abridgement[];
  /** First offset the phase covers. */
  from: number;
}

/** The phase in force at `offset` (the first phase starts at −∞, so there always is one). */
export function phaseAt(phases: readonly Phase[], offset: number): Phase {
  return phases.findLast((p) => offset >= p.from) ?? phases[0]!;
}

/** The scenario's rule, and — with `deploy:` — the deployed one from its offset on. */
export async function phasesOf(scenario: Scenario, fold: AnyFold, opts: RenderOptions, errors: InputError[] = []): Promise<Phase[]> {
  const options = { ...fold.defaults, ...(opts.variant?.options ?? scenario.options) };
  const stand = (f: AnyFold, o: object): Promise<Abridgement[]> => located(abridgementsOf(f, o), errors, scenario.pos, 'listing its abridgements').then((a) => a ?? []);
  const first: Phase = { fold, options, abridgements: await stand(fold, options), from: -Infinity };
  const d = scenario.deploy;
  if (!d || opts.variant) return [first];
  const dfold = opts.deployed ?? fold;
  const doptions = dfold === fold ? { ...options, ...d.options } : { ...dfold.defaults, ...d.options };
  return [first, { fold: dfold, options: doptions, abridgements: await stand(dfold, doptions), from: d.at }];
}

/**
 * Each phase's snapshots at the offsets asked of it (one fold pass per phase: state builds up from
 * the start). A fold that fails is an error at the event it was folding; null then.
 */
async function foldPhases(scenario: Scenario, want: ReadonlyMap<Phase, ReadonlySet<number>>, errors: InputError[]): Promise<Map<Phase, Map<number, Snapshot>> | null> {
  const out = new Map<Phase, Map<number, Snapshot>>();
  for (const [p, at] of want) {
    if (!at.size) {
      out.set(p, new Map());
      continue;
    }
    try {
      out.set(p, new Map((await snapshotsOf(p.fold, scenario.chain, p.options, at)).map((s) => [s.offset, s] as const)));
    } catch (err) {
      if (!FoldFailure.is(err)) throw err;
      const e = scenario.chain.find((x) => x.offset === err.offset);
      // An event of a base fails there too: that scenario reports it, once.
      if (e && e.scenarioId !== scenario.id) return null;
      errors.push(foldFailureError(err, e?.pos ?? scenario.pos, e ? `while folding @${e.offset} ${e.type}` : 'while folding the stream'));
      return null;
    }
  }
  return out;
}

/** A request's messages start with every message of `prev`, byte for byte (nothing before the new turn changed). */
const extends_ = (prev: readonly RenderedMessage[], next: readonly RenderedMessage[]): boolean =>
  prev.length <= next.length && prev.every((m, i) => m === next[i] || (m.role === next[i]!.role && m.content === next[i]!.content));

/**
 * For every pair of consecutive requests where the later one does not extend the earlier, each
 * phase's offsets in between (and the state just before a phase that starts there): what
 * attribution folds to name the responsible event.
 */
function betweenChanged(scenario: Scenario, phases: readonly Phase[], requests: readonly { offset: number; messages: readonly RenderedMessage[] }[]): Map<Phase, Set<number>> {
  const want = new Map<Phase, Set<number>>();
  const add = (p: Phase, o: number): void => {
    if (!want.has(p)) want.set(p, new Set());
    want.get(p)!.add(o);
  };
  for (let i = 1; i < requests.length; i++) {
    const prev = requests[i - 1]!;
    const q = requests[i]!;
    if (extends_(prev.messages, q.messages)) continue;
    for (const e of scenario.chain) if (e.offset > prev.offset && e.offset <= q.offset) add(phaseAt(phases, e.offset), e.offset);
    for (const p of phases) {
      if (p.from <= prev.offset || p.from > q.offset) continue;
      const last = scenario.chain.findLast((e) => e.offset < p.from);
      if (last) add(p, last.offset);
    }
  }
  return want;
}

export async function renderScenario(scenario: Scenario, fold: AnyFold, opts: RenderOptions, errors: InputError[]): Promise<RenderedScenario> {
  const phases = await phasesOf(scenario, opts.variant?.fold ?? fold, opts, errors);
  const { fold: useFold, options } = phases[0]!;
  const phaseOf = (offset: number): Phase => phaseAt(phases, offset);
  const isRequest = (e: Scenario['chain'][number]): boolean => phaseOf(e.offset).fold.requestTypes.includes(e.type);
  const wanted = scenario.chain.filter((e) => opts.everyEvent || isRequest(e)).map((e) => e.offset);
  // Each phase folds the whole chain once and snapshots its own range.
  const byPhase = await foldPhases(scenario, new Map(phases.map((p) => [p, new Set(wanted.filter((o) => phaseOf(o) === p))])), errors);
  if (!byPhase) return { scenario, fold: useFold, options, requests: [], chain: [], events: [], warnings: [], phases, foldFailed: true };
  const snapshots = new Map<number, Snapshot>([...byPhase.values()].flatMap((m) => [...m]));
  const own = new Set(scenario.events.map((e) => e.offset));
  const requests: RenderedRequest[] = [];
  const chain: RenderedRequest[] = [];
  const events: EventView[] = [];
  const warnings: Warning[] = [];
  let prev: RenderedRequest | null = null;
  // Annotations belong to the scenario's own render; a variant (the "before" of a comparison) has none.
  for (const e of scenario.chain) {
    const snap = snapshots.get(e.offset);
    if (!snap) continue;
    if (!isRequest(e) || !snap.request) {
      if (isRequest(e) && own.has(e.offset) && !opts.variant) {
        errors.push({
          pos: e.pos,
          message: `request @${e.offset} renders nothing: fold \`${phaseOf(e.offset).fold.id}\` did not accept it — ${snap.rejected?.reason ?? 'no reason given'}`,
          fix: 'change the events before it so the fold accepts this request, or remove the request event',
        });
      }
      if (opts.everyEvent)
        events.push({ offset: e.offset, lines: printRequest(null, snap.messages, phaseOf(e.offset).abridgements), ...(snap.rejected && { rejected: snap.rejected.reason }) });
      continue;
    }
    const lines = printRequest(snap.request.model, snap.messages, phaseOf(e.offset).abridgements);
    const cut = cacheCut(lines, prev ? prev.lines.map((l) => l.text) : null);
    const anchors =
      own.has(e.offset) && !opts.variant
        ? resolveAnchors(
            lines,
            scenario.annotations.filter((a) => a.request === e.offset),
            errors,
          )
        : [];
    // The fold's cache breakpoints, checked: a bad one is the fold's bug, reported at the request it broke.
    const problems = breakpointProblems(snap.breakpoints, snap.messages);
    if (problems.length && own.has(e.offset) && !opts.variant) {
      const foldId = phaseOf(e.offset).fold.id;
      errors.push({
        pos: e.pos,
        message: `fold \`${foldId}\` returned invalid cache breakpoints for request @${e.offset}`,
        detail: problems,
        fix: `fix the fold \`${foldId}\`: each breakpoint names a message index of the request (0 to messages.length − 1), an optional \`end\` within that message's content, an optional ttl '5m' or '1h', listed in order of position — or return no \`breakpoints\``,
      });
    }
    const breakpoints = problems.length ? undefined : snap.breakpoints?.length ? snap.breakpoints : undefined;
    const messages = snap.messages;
    let text: string | undefined;
    const req: RenderedRequest = {
      offset: e.offset,
      model: snap.request.model,
      lines,
      cut,
      previous: prev?.offset ?? null,
      anchors,
      // Woven when first read: a site build renders every request of the corpus and never reads its
      // fixture text (only fixture-format/ does); weaving each was a copy of every prompt held all build.
      get text(): string {
        return (text ??= weave(lines, cut, anchors, printedBreakpoints(lines, messages, breakpoints)));
      },
      messages: snap.messages,
      createdAt: e.createdAt,
      ...(breakpoints && { breakpoints }),
      ...(snap.asSent && { asSent: true as const }),
    };
    for (const a of anchors) {
      if (a.matches > 1 && a.annotation.occurrence === undefined) {
        warnings.push({
          pos: a.annotation.findPos,
          message: `ambiguous anchor: find ${JSON.stringify(a.annotation.find)} matches ${a.matches} lines of request @${e.offset}; the first wins (add \`occurrence: N\` to pick another)`,
        });
      }
      if (anchorsOnMetadata(lines, a)) warnings.push({ pos: a.annotation.findPos, message: metadataAnchorWarning(a, e.offset) });
    }
    if (own.has(e.offset)) requests.push(req);
    chain.push(req);
    if (opts.everyEvent) events.push({ offset: e.offset, request: req, lines });
    prev = req;
  }
  if (scenario.opens !== undefined && !opts.variant && !requests.some((q) => q.offset === scenario.opens)) {
    const own = requests.map((q) => `"@${q.offset}"`).join(', ');
    errors.push({
      pos: scenario.opensPos ?? scenario.pos,
      message: `\`opens\` names @${scenario.opens}, which is not one of this scenario's own requests`,
      fix: own ? `use one of: ${own}, or remove \`opens:\` to open on the first request with a ✂ line` : 'this scenario sends no request of its own: remove `opens:`',
    });
  }
  // Where a request did not extend the one before, attribution needs the states in between: folded again, only there.
  const between = betweenChanged(scenario, phases, chain);
  const again = between.size ? await foldPhases(scenario, between, errors) : null;
  const folded = again && new Map([...again].map(([p, m]) => [p, new Map([...m].map(([o, s]) => [o, s.messages] as const))] as const));
  const described = (opts.describe ?? opts.everyEvent) ? await located(describeEvents(useFold, scenario.chain, options), errors, scenario.pos, 'describing its events') : undefined;
  return { scenario, fold: useFold, options, requests, chain, events, warnings, phases, ...(folded && { folded }), ...(described && { described }) };
}
