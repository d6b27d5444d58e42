/**
 * One scenario through the whole pipeline: fold (one reduce pass over its chain) → print → weave.
 * Produces every request of the scenario with its cache cut and resolved anchors, and — for the
 * site — the printed state as of every event. Requests the fold did not accept and stale anchors
 * become input errors.
 */
import type { AnyFold, RenderedMessage, Snapshot } from '../folds/types.ts';
import type { InputError, SourcePos } from '../scenarios/errors.ts';
import type { Scenario } from '../scenarios/model.ts';
import { printRequest, type PrintedLine } from './print.ts';
import { cacheCut, resolveAnchors, weave, type Anchor } from './weave.ts';

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
}

export interface RenderOptions {
  /** Also print the state as of every event (the site's pane); fixtures need only the requests. */
  everyEvent: boolean;
  /** Render with another fold/options (a `compare:` variant) instead of the scenario's own. */
  variant?: { fold: AnyFold; options: Record<string, unknown> };
}

export function renderScenario(scenario: Scenario, fold: AnyFold, opts: RenderOptions, errors: InputError[]): RenderedScenario {
  const useFold = opts.variant?.fold ?? fold;
  const options = { ...useFold.defaults, ...(opts.variant?.options ?? scenario.options) };
  const abridgements = useFold.abridgements(options);
  const isRequest = (type: string): boolean => useFold.requestTypes.includes(type);
  const at = new Set(scenario.chain.filter((e) => opts.everyEvent || isRequest(e.type)).map((e) => e.offset));
  const snapshots = new Map<number, Snapshot>(useFold.snapshots(scenario.chain, options, at).map((s) => [s.offset, s]));
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
    if (!isRequest(e.type) || !snap.request) {
      if (isRequest(e.type) && own.has(e.offset) && !opts.variant) {
        errors.push({
          pos: e.pos,
          message: `request @${e.offset} renders nothing: fold \`${useFold.id}\` did not accept it — ${snap.rejected?.reason ?? 'no reason given'}`,
          fix: 'change the events before it so the fold accepts this request, or remove the request event',
        });
      }
      if (opts.everyEvent) events.push({ offset: e.offset, lines: printRequest(null, snap.messages, abridgements), ...(snap.rejected && { rejected: snap.rejected.reason }) });
      continue;
    }
    const lines = printRequest(snap.request.model, snap.messages, abridgements);
    const cut = cacheCut(lines, prev ? prev.lines.map((l) => l.text) : null);
    const anchors = own.has(e.offset) && !opts.variant ? resolveAnchors(lines, scenario.annotations.filter((a) => a.request === e.offset), errors) : [];
    const req: RenderedRequest = { offset: e.offset, model: snap.request.model, lines, cut, previous: prev?.offset ?? null, anchors, text: weave(lines, cut, anchors), messages: snap.messages, createdAt: e.createdAt };
    for (const a of anchors) {
      if (a.matches > 1 && a.annotation.occurrence === undefined) {
        warnings.push({ pos: a.annotation.findPos, message: `ambiguous anchor: find ${JSON.stringify(a.annotation.find)} matches ${a.matches} lines of request @${e.offset}; the first wins (add \`occurrence: N\` to pick another)` });
      }
    }
    if (own.has(e.offset)) requests.push(req);
    chain.push(req);
    if (opts.everyEvent) events.push({ offset: e.offset, request: req, lines });
    prev = req;
  }
  return { scenario, fold: useFold, options, requests, chain, events, warnings };
}
