/**
 * One scenario through the whole pipeline: fold (one reduce pass over its chain) → print → weave.
 * Produces every request of the scenario with its cache cut and resolved anchors, and — for the
 * site — the printed state as of every event. Requests the fold did not accept and stale anchors
 * become input errors.
 */
import { breakpointProblems } from '../folds/breakpoints.ts';
import type { Abridgement, AnyFold, Breakpoint, RenderedMessage, Snapshot } from '../folds/types.ts';
import type { InputError, SourcePos } from '../scenarios/errors.ts';
import type { Scenario } from '../scenarios/model.ts';
import { printedBreakpoints } from './breakpoints.ts';
import { printRequest, type PrintedLine } from './print.ts';
import { anchorsOnMetadata, metadataAnchorWarning } from './metadata-anchor.ts';
import { cacheCut, resolveAnchors, weave, type Anchor } from './weave.ts';
import { abridgementsOf } from '../folds/hooks.ts';

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
  /** Fixture text: printed lines with the ✂ line and annotations woven in. */
  text: string;
  /** The messages as the fold rendered them (unabridged: what the provider receives). */
  messages: readonly RenderedMessage[];
  /** When the request was sent (the request event's ISO-8601 instant). */
  createdAt: string;
  /** The cache breakpoints the fold marked on this request (absent: the fold marks none; see Snapshot). */
  breakpoints?: readonly Breakpoint[];
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
}

export interface RenderOptions {
  /** Also print the state as of every event (the site's pane); fixtures need only the requests. */
  everyEvent: boolean;
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
export function phasesOf(scenario: Scenario, fold: AnyFold, opts: RenderOptions): Phase[] {
  const options = { ...fold.defaults, ...(opts.variant?.options ?? scenario.options) };
  const first: Phase = { fold, options, abridgements: abridgementsOf(fold, options), from: -Infinity };
  const d = scenario.deploy;
  if (!d || opts.variant) return [first];
  const dfold = opts.deployed ?? fold;
  const doptions = dfold === fold ? { ...options, ...d.options } : { ...dfold.defaults, ...d.options };
  return [first, { fold: dfold, options: doptions, abridgements: abridgementsOf(dfold, doptions), from: d.at }];
}

export function renderScenario(scenario: Scenario, fold: AnyFold, opts: RenderOptions, errors: InputError[]): RenderedScenario {
  const phases = phasesOf(scenario, opts.variant?.fold ?? fold, opts);
  const { fold: useFold, options } = phases[0]!;
  const phaseOf = (offset: number): Phase => phaseAt(phases, offset);
  const isRequest = (e: Scenario['chain'][number]): boolean => phaseOf(e.offset).fold.requestTypes.includes(e.type);
  const wanted = scenario.chain.filter((e) => opts.everyEvent || isRequest(e)).map((e) => e.offset);
  // Each phase folds the whole chain once (state builds up from the start) and snapshots its own range.
  const snapshots = new Map<number, Snapshot>(
    phases.flatMap((p) => p.fold.snapshots(scenario.chain, p.options, new Set(wanted.filter((o) => phaseOf(o) === p))).map((s) => [s.offset, s] as const)),
  );
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
    const req: RenderedRequest = {
      offset: e.offset,
      model: snap.request.model,
      lines,
      cut,
      previous: prev?.offset ?? null,
      anchors,
      text: weave(lines, cut, anchors, printedBreakpoints(lines, snap.messages, breakpoints)),
      messages: snap.messages,
      createdAt: e.createdAt,
      ...(breakpoints && { breakpoints }),
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
  return { scenario, fold: useFold, options, requests, chain, events, warnings, phases };
}
