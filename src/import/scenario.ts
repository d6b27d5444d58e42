/**
 * The scenario file an import writes: a header comment saying it is generated and how, `fold:
 * requests`, an intro naming the trace, and one `request/sent` event per request — its offset
 * (the trace line for JSON Lines, the span's rank for OTLP), its time label, the payload and a
 * note with the trace line. A request that extends the previous one is written as what it adds
 * (`extends:`, asDeltas), every other one whole. Re-importing over a file the import wrote keeps that file's
 * `annotations:` and `expect:` (what a person adds to explain the trace). Printed by the yaml
 * package with no line folding: the same input always gives the same bytes.
 */
import { parseDocument, stringify } from 'yaml';
import { diffBody } from '../providers/body-delta.ts';
import { inlineCode } from './inline-code.ts';

/** First line of every imported scenario: the import command refuses to overwrite other files. */
export const IMPORT_HEADER = '# Imported with `npm run import`';
const MODELINE = '# yaml-language-server: $schema=../schemas/scenario.requests.json';

export interface ScenarioInput {
  id: string;
  file: string;
  format: string;
  formatTitle: string;
  firstInstant?: string;
  /** The instant the time labels count from (`startedAt:`), when the trace has timestamps. */
  startedAt?: string;
  dropped: number;
  /** Requests that carry the provider's usage (`measured`). */
  measured?: number;
  events: { off: number; t: string; payload: unknown; line: number /** Its file, when the capture is a folder of several. */; file?: string }[];
  /** The file being replaced, when the import wrote it: its annotations and expect are kept. */
  previous?: string;
  /** One conversation of a log: the key that grouped its requests (said in the title and intro). */
  conversation?: { by: string; key: string; of?: number; sessions?: number };
  /** Rebuilt from a capture (captures/): its name, what it does not hold and what it says of some requests, in the intro. */
  capture?: { title: string; missing: string[]; notes?: { text: string; requests: number }[] };
  /** A sub-agent's conversation: the parent scenario whose cache it shares, from that scenario's event `at` (its time zero). */
  sharesCache?: { scenario: string; at: number };
  /** A sub-agent's conversation whose parent the capture does not hold: the parent's key. */
  parentMissing?: { by: string; key: string };
  /** Requests of this conversation the provider billed that the capture does not hold (left-out.ts, `requests`), said in the intro. */
  absent?: { count: number; what: string; why: string }[];
}

const list = (xs: string[]): string => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

function rebuilt(c: { title: string; missing: string[] }): string[] {
  const a = `${/^[AEIOU]/.test(c.title) ? 'an' : 'a'} ${c.title}`;
  return c.missing.length
    ? [
        `Rebuilt from ${a}, which does not record ${list(c.missing)}: each request below holds only what the capture does (nothing was`,
        'invented for the rest), so the page shows the messages’ own cache story; the provider’s measured figures count the whole request it billed.',
      ]
    : [`Read from ${a}: each request is the provider request body it recorded, as sent.`];
}

/** A capture's note on some of the requests (e.g. usage not imported rather than guessed). */
function noted(notes: { text: string; requests: number }[] | undefined, n: number): string[] {
  return (notes ?? []).map((x) => `${x.requests === n ? (n === 1 ? 'For the request' : 'For every request') : `For ${x.requests} of the ${n} requests`}, ${x.text}.`);
}

/** A file of an imported folder named from the folder (`subagents/agent-1.jsonl`), not from where the import ran: no local path in the scenario. */
function inFolder(folder: string, file: string): string {
  const root = `${folder.replace(/\/+$/, '')}/`;
  return file.startsWith(root) ? file.slice(root.length) : file;
}

function grouping(c: { by: string; key: string; of?: number; sessions?: number }, capture: boolean): string {
  const head = !capture
    ? 'One conversation of a log'
    : (c.sessions ?? 1) > 1
      ? `One conversation of a folder of ${c.sessions} sessions`
      : c.of === 1
        ? 'The capture’s only conversation'
        : `One conversation of a capture of ${c.of ?? 'several'}`;
  return c.by === 'prefix chain'
    ? `${head}, grouped by its prefix chain (${c.key}: the requests carry no conversation key, so each joined the conversation whose latest request it extends).`
    : `${head}: the requests whose \`${c.by}\` is ${inlineCode(c.key)}.`;
}

/**
 * Each payload whose body extends the previous request's (same format, the same leading messages)
 * as `extends:` — what it adds (src/providers/body-delta.ts; the `requests` fold rebuilds the body
 * byte for byte) — in the place of `body`; any other body whole. A conversation's file then grows
 * with the conversation, not with the square of it.
 */
function asDeltas(events: ScenarioInput['events']): ScenarioInput['events'] {
  let prev: { format: unknown; body: Record<string, unknown> } | undefined;
  return events.map((e) => {
    const p = e.payload as Record<string, unknown> | null;
    const body = p?.body;
    if (!p || !body || typeof body !== 'object' || Array.isArray(body)) {
      prev = undefined;
      return e;
    }
    const b = body as Record<string, unknown>;
    const delta = prev && prev.format === p.format && typeof p.format === 'string' ? diffBody(p.format, prev.body, b) : undefined;
    prev = { format: p.format, body: b };
    if (!delta) return e;
    return { ...e, payload: Object.fromEntries(Object.entries(p).map(([k, v]) => (k === 'body' ? ['extends', delta] : [k, v]))) };
  });
}

/** Fields of a previously imported scenario that a re-import keeps. */
const KEPT = ['expect', 'annotations'] as const;

function kept(previous: string | undefined): Record<string, unknown> {
  if (!previous) return {};
  const doc = parseDocument(previous);
  if (doc.errors.length) return {};
  const out: Record<string, unknown> = {};
  for (const k of KEPT) if (doc.has(k)) out[k] = doc.get(k, false);
  return out;
}

export function scenarioYaml(s: ScenarioInput): string {
  const n = s.events.length;
  const intro = [
    ...(s.conversation ? [grouping(s.conversation, s.capture !== undefined)] : []),
    ...(s.sharesCache
      ? [
          `A sub-agent’s calls: it was started by the session imported as \`${s.sharesCache.scenario}\`, after that scenario’s @${s.sharesCache.at}, and sends its requests to the same provider cache (\`sharesCache:\`): its times count from there.`,
        ]
      : []),
    ...(s.parentMissing
      ? [
          `A sub-agent’s calls: it was started by the conversation whose \`${s.parentMissing.by}\` is ${inlineCode(s.parentMissing.key)}, which the capture does not hold — so the provider cache it started from is not linked (\`sharesCache:\`), and its first request is read as if nothing were cached.`,
        ]
      : []),
    ...(s.capture ? rebuilt(s.capture) : []),
    ...(s.absent ?? []).map((a) => `Not in the capture — ${a.what} (${a.count}): ${a.why}.`),
    `Imported from ${inlineCode(s.file.split('/').at(-1) ?? s.file)}: ${n} ${s.formatTitle} request${n === 1 ? '' : 's'}${s.firstInstant ? `, the first sent at ${s.firstInstant}.` : ' (the trace has no timestamps).'}`,
    s.capture?.missing.length
      ? 'Each event is one request as far as the capture holds it (the `requests` fold). A line’s'
      : 'Each event is one request exactly as the provider received it (the `requests` fold). A line’s',
    'gutter link is the first request that carried it, and the ✂ line shows where each request',
    `stopped reusing the previous one’s prefix.${s.dropped ? ` ${s.dropped} secret${s.dropped === 1 ? ' was' : 's were'} removed on import.` : ''}`,
    ...noted(s.capture?.notes, n),
    ...(s.measured
      ? [
          `${s.measured === n ? (n === 1 ? 'The request carries' : 'Every request carries') : `${s.measured} of the ${n} requests carry`} what the provider billed (its response usage, as \`measured\`);`,
          'the page shows it beside the modelled figures, and flags where they differ.',
        ]
      : []),
  ].join('\n');
  const doc = {
    id: s.id,
    title: `Imported trace — ${s.file.split('/').at(-1)}${s.conversation ? ` · ${s.conversation.by === 'prefix chain' ? s.conversation.key : `${s.conversation.by} ${inlineCode(s.conversation.key.slice(0, 80))}`}` : ''}`,
    fold: 'requests',
    ...(s.startedAt && { startedAt: s.startedAt }),
    ...(s.sharesCache && { sharesCache: { scenario: s.sharesCache.scenario, at: `@${s.sharesCache.at}` } }),
    intro: `${intro}\n`,
    events: asDeltas(s.events).map((e) => ({
      off: e.off,
      t: e.t,
      type: 'request/sent',
      payload: e.payload,
      note: e.file === undefined ? `line ${e.line} of the trace` : `line ${e.line} of ${inFolder(s.file, e.file)}`,
    })),
    ...kept(s.previous),
  };
  // The editor modeline first (the schemas/ folder's requests-fold schema), then where it came from.
  const from = s.conversation ? `${s.file} (${s.format}, grouped by ${s.conversation.by})` : `${s.file} (${s.format})`;
  const header = `${MODELINE}\n${IMPORT_HEADER} from ${from}; re-import rather than edit the events (annotations and expect are kept).\n`;
  return header + stringify(doc, { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}
