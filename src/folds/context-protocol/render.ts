/**
 * Renders the reduced state as provider messages (spec §5–§6, §8): the protocol prompt, the
 * standing document, then every other item in list order — stamps, superseding/late sections,
 * and messages with their metadata and agent-reply lines. Every message carries provenance parts.
 *
 * Rendered timeline messages are cached per item (items are immutable), and the standing document
 * is rebuilt only when its sections change, so a snapshot costs the size of the list, not the size
 * of the text — and snapshots share their message objects (the printer caches per message).
 */
import type { Part, RenderedMessage } from '../types.ts';
import type { Actor, ContextPayload, Ref } from './schema.ts';
import { protocolPrompt, type MetadataLines } from './protocol-prompt.ts';
import type { Item, State } from './reduce.ts';

export interface ContextProtocolOptions {
  metadataLines: MetadataLines;
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

  constructor(options: ContextProtocolOptions) {
    this.options = options;
    this.prompt = one('system', protocolPrompt(options.metadataLines), []);
  }

  /** The standing document of the last render and the section items it was made from. */
  private doc: { items: Item[]; message: RenderedMessage } | undefined;

  render(state: State): RenderedMessage[] {
    const docLength = state.standingDocumentLength();
    const same = this.doc !== undefined && this.doc.items.length === docLength && this.doc.items.every((it, i) => it === state.items[i]);
    if (!same) {
      const parts: Part[] = [];
      for (let i = 0; i < docLength; i++) {
        const s = state.items[i] as Extract<Item, { kind: 'section' }>;
        if (i > 0) parts.push({ text: '\n\n', from: [] });
        parts.push({ text: sectionText(s.key, s.payload.content), from: [s.offset] });
      }
      this.doc = { items: state.items.slice(0, docLength), message: { role: 'system', content: parts.map((p) => p.text).join(''), parts } };
    }
    const out: RenderedMessage[] = [this.prompt, this.doc!.message];
    for (let i = docLength; i < state.items.length; i++) {
      const it = state.items[i]!;
      let msg = this.cache.get(it);
      if (!msg) this.cache.set(it, (msg = renderItem(it, this.options.metadataLines)));
      out.push(msg);
    }
    return out;
  }
}
