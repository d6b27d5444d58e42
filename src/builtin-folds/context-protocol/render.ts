/**
 * Renders the reduced state as provider messages (src/pages/reference/context-protocol.mdx): the protocol prompt, the
 * standing document, then every other item in list order — stamps, superseding/late sections,
 * and messages with their metadata and agent-reply lines. Every message carries provenance parts.
 *
 * Where a superseding section goes is the `supersedingSections` option (supersede.ts): at the tail
 * (`timeline`, the reference platform's rule) or in place of the key's first occurrence
 * (`standing-document`, which rewrites the leading system message).
 *
 * Rendered timeline messages are cached per item (items are immutable), and the standing document
 * is rebuilt only when its sections change, so a snapshot costs the size of the list, not the size
 * of the text — and snapshots share their message objects (the printer caches per message).
 */
import type { Part, RenderedMessage } from '../../folds/types.ts';
import type { Actor, ContextPayload, Ref } from './schema.ts';
import { protocolPrompt, type MetadataLines } from './protocol-prompt.ts';
import type { Item, Section, State } from './reduce.ts';
import type { SupersedingSections } from './supersede.ts';

export interface ContextProtocolOptions {
  metadataLines: MetadataLines;
  /** Where a section that supersedes a sent occurrence goes (absent: `timeline`). */
  supersedingSections?: SupersedingSections;
}

const q = (s: string): string => JSON.stringify(s);

/** The role the model sees: third-party developer text never gains instruction precedence. */
export function modelRole(p: ContextPayload): string {
  if (p.role !== 'developer') return p.role;
  if (p.compaction) return 'user';
  if (p.actor && p.actor.type !== 'agent' && p.actor.type !== 'script') return 'user';
  return 'developer';
}

export function formatActor(a: Actor): string {
  switch (a.type) {
    case 'user':
      return `user:${a.origin}`;
    case 'agent':
      return `agent:${q(a.path)}`;
    case 'script':
      return `script:${q(a.executionId)}`;
    case 'integration':
      return `integration:${q(a.name)}`;
    case 'slack':
      return `slack:${q(a.userId ?? a.botName ?? 'unknown')}`;
    case 'telegram':
      return `telegram:${q(a.userId ?? a.username ?? 'unknown')}`;
    case 'email':
      return `email:${q(a.address ?? a.name ?? 'unknown')}`;
    case 'github':
      return `github:${q(a.login ?? a.senderType ?? 'unknown')}`;
  }
}

export function formatRef(r: Ref): string {
  switch (r.type) {
    case 'event':
      return q(`${r.streamPath}@${r.offset}`);
    case 'user':
      return q(`user:${r.userId}`);
    case 'file':
      return q(`file:${r.path}`);
    case 'git-commit':
      return q(`${r.repoPath}@${r.commitOid}`);
    case 'repo-file':
      return q(`${r.repoPath}/${r.path}@latest`);
  }
}

export function hasMetadataLine(p: ContextPayload, mode: MetadataLines): boolean {
  return mode === 'every-item' || p.role === 'system' || p.role === 'developer' || (p.refs?.length ?? 0) > 0;
}

function metadataLine(offset: number, p: ContextPayload): string {
  const fields = [`@${offset}`];
  if (p.actor) fields.push(`actor=${formatActor(p.actor)}`);
  if (p.refs?.length) fields.push(`refs=[${p.refs.map(formatRef).join(',')}]`);
  return fields.join(' ');
}

const sectionText = (key: string, content: string, supersedes?: number): string =>
  `<section key=${q(key)}${supersedes === undefined ? '' : ` supersedes="@${supersedes}"`}>\n${content}\n</section>`;

const one = (role: string, text: string, from: number[]): RenderedMessage => ({ role, content: text, parts: [{ text, from }] });

function renderItem(it: Item, mode: MetadataLines): RenderedMessage {
  if (it.kind === 'stamp') return one('developer', `Requested at: ${it.requestedAt}`, [it.offset]);
  if (it.kind === 'section') return one(modelRole(it.payload), sectionText(it.key, it.payload.content, it.supersedes), [it.offset]);
  const p = it.payload;
  let text = '';
  if (hasMetadataLine(p, mode)) text += `${metadataLine(it.offset, p)}\n`;
  if (p.actor?.type === 'agent') {
    text += `To reply to ${p.actor.path} (which cannot see this conversation): await itx.agents.get(${q(p.actor.path)}).message(text)\n`;
  }
  const msg = one(modelRole(p), text + p.content, [it.offset]);
  if (p.files?.length) {
    msg.files = p.files.map((f) => ({ contentType: f.contentType, filename: f.filename, path: f.path, size: f.size, url: f.url }));
  }
  return msg;
}

/** Renders states of one run; caches each item's message for the run's options. */
export class Renderer {
  private cache = new WeakMap<Item, RenderedMessage>();
  private readonly prompt: RenderedMessage;
  private readonly options: ContextProtocolOptions;

  /** A key's first occurrence rendered with its newest text (`standing-document`), by the newest occurrence. */
  private firstCache = new WeakMap<Section, RenderedMessage>();
  private readonly inPlace: boolean;

  constructor(options: ContextProtocolOptions) {
    this.options = options;
    this.inPlace = options.supersedingSections === 'standing-document';
    this.prompt = one('system', protocolPrompt(options.metadataLines, options.supersedingSections), []);
  }

  /** The standing document of the last render and the section items it was made from. */
  private doc: { items: Item[]; message: RenderedMessage } | undefined;

  render(state: State): RenderedMessage[] {
    const docLength = state.standingDocumentLength();
    // Each slot of the standing document shows its own section, or (standing-document) its key's newest occurrence.
    const newest = this.inPlace ? (key: string): Section => state.latestSection(key)! : undefined;
    const docItems = state.items.slice(0, docLength).map((it) => newest?.((it as Section).key) ?? (it as Section));
    const same = this.doc !== undefined && this.doc.items.length === docLength && this.doc.items.every((it, i) => it === docItems[i]);
    if (!same) {
      const parts: Part[] = [];
      for (const [i, s] of docItems.entries()) {
        if (i > 0) parts.push({ text: '\n\n', from: [] });
        parts.push({ text: sectionText(s.key, s.payload.content), from: [s.offset] });
      }
      this.doc = { items: docItems, message: { role: 'system', content: parts.map((p) => p.text).join(''), parts } };
    }
    const out: RenderedMessage[] = [this.prompt, this.doc!.message];
    const seen = new Set(docItems.map((s) => s.key));
    for (let i = docLength; i < state.items.length; i++) {
      const it = state.items[i]!;
      if (newest && it.kind === 'section') {
        // standing-document: a later occurrence of a key renders nothing; the first shows the newest text.
        if (seen.has(it.key)) continue;
        seen.add(it.key);
        const latest = newest(it.key);
        let msg = this.firstCache.get(latest);
        if (!msg) this.firstCache.set(latest, (msg = one(modelRole(latest.payload), sectionText(latest.key, latest.payload.content), [latest.offset])));
        out.push(msg);
        continue;
      }
      let msg = this.cache.get(it);
      if (!msg) this.cache.set(it, (msg = renderItem(it, this.options.metadataLines)));
      out.push(msg);
    }
    return out;
  }
}
