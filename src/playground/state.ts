/**
 * The playground's shareable state and the small text edits its buttons make. The state (the file
 * name, the edited text, the selected event) lives in the URL fragment, compressed with lz-string,
 * so a pasted link reopens the same edit without any server; bases come from the site's corpus by
 * id. `#open=<id>` opens a scenario of the site as it is. Pure functions: tested in node.
 */
import LZString from 'lz-string'; // CommonJS: no named exports under Node

const { compressToEncodedURIComponent, decompressFromEncodedURIComponent } = LZString;

export interface PlaygroundState {
  file: string;
  text: string;
  selected?: number;
}

const VERSION = 1;

let memo: { file: string; text: string; packed: string } | undefined;

/**
 * `#s=<compressed file and text>` plus `@<offset>` for the selected event: picking another event
 * does not re-compress the text (the last compression is kept).
 */
export function encodeState(s: PlaygroundState): string {
  if (memo?.file !== s.file || memo.text !== s.text) {
    memo = { file: s.file, text: s.text, packed: compressToEncodedURIComponent(JSON.stringify({ v: VERSION, f: s.file, t: s.text })) };
  }
  return `#s=${memo.packed}${s.selected !== undefined ? `@${s.selected}` : ''}`;
}

export type HashRequest = { kind: 'state'; state: PlaygroundState } | { kind: 'open'; id: string; selected?: number } | { kind: 'none' } | { kind: 'bad'; reason: string };

/** What a location hash asks for; a damaged link is 'bad' with a reason, never an exception. */
export function decodeHash(hash: string): HashRequest {
  const open = /^#open=([a-z0-9][a-z0-9_-]*)(?:@(\d+))?$/.exec(hash);
  if (open) return { kind: 'open', id: open[1]!, ...(open[2] && { selected: Number(open[2]) }) };
  const m = /^#s=([A-Za-z0-9+\-$]+)(?:@(\d+))?$/.exec(hash);
  if (!m) return hash.length > 1 ? { kind: 'bad', reason: 'the link is not a playground link' } : { kind: 'none' };
  let data: unknown;
  try {
    data = JSON.parse(decompressFromEncodedURIComponent(m[1]!) || 'null');
  } catch {
    data = null;
  }
  const d = data as { v?: unknown; f?: unknown; t?: unknown } | null;
  if (!d || d.v !== VERSION || typeof d.f !== 'string' || typeof d.t !== 'string' || !/^[\w./-]+\.(ya?ml|md)$/.test(d.f)) {
    return { kind: 'bad', reason: 'the link is damaged (cut short when it was copied?)' };
  }
  return { kind: 'state', state: { file: d.f, text: d.t, ...(m[2] && { selected: Number(m[2]) }) } };
}

/** Sets the top-level `fold:` of a scenario text (replacing it, or adding it after `id:`). */
export function setFold(text: string, fold: string): string {
  if (/^fold:.*$/m.test(text)) return text.replace(/^fold:.*$/m, `fold: ${fold}`);
  if (/^id:.*$/m.test(text)) return text.replace(/^id:.*$/m, (line) => `${line}\nfold: ${fold}`);
  return `fold: ${fold}\n${text}`;
}

/** The top-level `id:` of a scenario text, if it is written plainly. */
export function idOf(text: string): string | undefined {
  return /^id:[ \t]*["']?([a-z0-9][a-z0-9_-]*)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
}

/**
 * The text to download as a NEW scenario file: its id is made unique among the site's ids (a
 * scenario opened from the site keeps its id in the editor, and two files may not share one), and
 * the file name follows the id.
 */
export function forDownload(text: string, takenIds: ReadonlySet<string>): { name: string; text: string; id?: string } {
  const id = idOf(text);
  if (!id) return { name: 'scenario.yaml', text };
  let next = id;
  for (let n = 1; takenIds.has(next); n++) next = n === 1 ? `${id}-edited` : `${id}-edited-${n}`;
  const out = next === id ? text : text.replace(/^id:.*$/m, `id: ${next}`);
  return { name: `${next}.yaml`, text: out, id: next };
}
