/**
 * Claude Code session transcripts (`~/.claude/projects/<project>/<session id>.jsonl`) → the Anthropic
 * Messages requests the session sent. A transcript is JSON Lines, one line per message or event:
 * `{"type": "user" | "assistant", "uuid", "parentUuid", "sessionId", "timestamp", "message": {…}}`,
 * where `message` is the Messages API message (an assistant line's carries `id`, `model` and the
 * response's `usage`; one line per content block, repeating the message's `id`), and other line
 * types (`summary`, `system`, `file-history-snapshot`, …) that are not sent to the model.
 *
 * Sources (read 2026-12-03): Anthropic's Claude Code SDK "Session management" page
 * (https://docs.claude.com/de/docs/claude-code/sdk/sdk-sessions: transcripts are JSON Lines of
 * `{"type": "user" | "assistant", "uuid", "parentUuid", "timestamp", "message": {…}}`), and the Agent
 * SDK's message types (@anthropic-ai/claude-agent-sdk 0.1.0, `SDKAssistantMessage.message` is the
 * API's assistant message — `id`, `model`, `content`, `usage` — as its reference lists it). Claude
 * Code's own source is not public and the file format has no published schema; field names beyond
 * those pages (`isSidechain`, `agentId`, `isCompactSummary`, the `system` line of subtype
 * `compact_boundary`, the model `<synthetic>`) are as Claude Code writes them, read in public
 * transcripts of versions 1.0.x to 2.1.x (daaain/claude-code-log test/test_data: a 2.0.46 transcript
 * with sub-agent lines, `subagents/agent-*.jsonl` files; read 2026-12-06).
 *
 * Rebuilding: each new assistant message (a new `message.id`) is one request — the messages of its
 * conversation before it, consecutive lines of one role joined into one message (as the API
 * requires roles to alternate); its model and usage are the reply's. A conversation is a session's
 * main chain (`sessionId`), or a sub-agent's: lines with `isSidechain: true`, told apart by their
 * `agentId` (newer versions; a sub-agent's own file `subagents/agent-<id>.jsonl` holds only such
 * lines) or, in older versions, by following `parentUuid` from the sub-agent's first line. A
 * sub-agent's requests name their parent session (`parent`): imported with --out-dir they become a
 * scenario of their own linked to the parent's with `sharesCache:` (index.ts). A compaction (a
 * `compact_boundary` system line, or a user line with `isCompactSummary: true`, the summary) starts
 * the conversation again: the next request holds the summary and what follows it, as Claude Code
 * sends it. Claude Code's own `<synthetic>` replies (never sent to the API) and lines of other types
 * (`progress`, `file-history-snapshot`, `summary`, other `system` lines, …) are counted in `leftOut`;
 * a sub-agent whose own transcript was not read is said by what its session's `agent_progress`
 * lines repeat of it (subAgentMirrors), as requests the capture does not hold; a `continued-in`
 * line (2.1.x: `continuedInSessionId`, written at the end of a transcript whose conversation went
 * on under a new session id; no published transcript holds one, its shape is a line other tools'
 * public tests quote from 2.1.x transcripts of 2026-09, read 2026-12-08) says which session holds the rest;
 * so are `attachment` lines, the context Claude Code adds to a turn in a shape of its own, and each
 * request after one says it lacks that context (ATTACHMENTS_UNRECORDED). Claude Code's compaction
 * call (`agent-acompact-*`) is linked like a sub-agent, and its request says it lacks the
 * conversation it summarises (COMPACTION_AGENT). A prompt written after a rewind continues from
 * the line its `parentUuid` names (rewindTo). A transcript does not record the system prompt, the tool definitions or `max_tokens`: the
 * requests hold none of them (the page says so), and the measured usage still counts them.
 */
import { formatSentBy, providerOf } from '../../providers/registry.ts';
import type { InputError } from '../../scenarios/errors.ts';
import { MARKERS_UNRECORDED } from '../../economics/measured.ts';
import { formatTokens } from '../../economics/format.ts';
import { inlineCode } from '../inline-code.ts';
import type { LeftOutTally } from '../left-out.ts';
import { providerMissOf } from '../provider-miss.ts';
import { chunkPos, isObject, type Chunk } from '../read.ts';
import type { Conversation } from '../log/group.ts';
import type { Capture, CapturedRequest } from './types.ts';

type Message = { role: 'user' | 'assistant'; content: unknown[] };
/** Where each content block of a rebuilt message came from: its line and its path there. */
type Origins = { chunk: Chunk; at: (string | number)[] }[][];

const MESSAGE_TYPES = new Set(['user', 'assistant']);
const UNEDITED = 'import the transcript as Claude Code wrote it, unedited';

/** One conversation being rebuilt: a session's main chain, or one sub-agent's (a file may hold several of each). */
interface Thread {
  messages: Message[];
  origins: Origins;
  /** The assistant message being answered, when its lines are being read. */
  replying?: string;
  /** The request that reply answers: a later line of the same reply carries its final usage. */
  reply?: CapturedRequest;
  /** Where that reply's assistant message is in `messages`: a later block of it, written after a tool result, joins it there. */
  replyAt?: number;
  lastTime?: number;
  conversation?: Conversation;
  /** A sub-agent's: the session it was started from. */
  parent?: Conversation;
  /** An `attachment` line was read in this conversation (since its last compaction): the requests after it lack what it added. */
  attached?: boolean;
  /** Claude Code's compaction call (an `acompact-…` agent): it sends the session's conversation, which its lines do not hold. */
  compaction?: boolean;
  /** A hook that can add to the context ran in this conversation (since its last compaction): see HOOKS_UNRECORDED. */
  hooked?: boolean;
  /** The conversation as it stood after each of its lines (by `uuid`): where a rewound prompt continues from (rewindTo). */
  after: Map<string, Mark>;
}

/** Where a conversation stood: how many messages, and how many blocks its last one had, in the message list of then. */
interface Mark {
  messages: Message[];
  n: number;
  k: number;
}

/**
 * A prompt written after a rewind (`/rewind`, or editing an earlier prompt: Claude Code keeps the
 * abandoned turns in the file and the new prompt's `parentUuid` names the line it continues from)
 * continues from its parent's state, not from the last line: the request it starts holds the
 * conversation up to that parent, then the new prompt. Only a prompt moves the conversation back —
 * a reply's or a tool result's parent may be any line of a reply of parallel tool calls (one line
 * per block, each result written as its tool completes). The blocks a parallel reply added to an
 * earlier message are not taken back (Claude Code writes the rewound-to line before those).
 */
function rewindTo(t: Thread, parent: string | undefined): void {
  const mark = parent === undefined ? undefined : t.after.get(parent);
  // A parent in another message list (before a compaction) or not in this conversation (another file's, a non-message line): nothing to undo.
  if (!mark || mark.messages !== t.messages) return;
  const last = t.messages.at(-1);
  if (t.messages.length === mark.n && (last?.content.length ?? 0) === mark.k) return;
  t.messages.length = mark.n;
  t.origins.length = mark.n;
  if (mark.n > 0) {
    t.messages[mark.n - 1]!.content.length = mark.k;
    t.origins[mark.n - 1]!.length = mark.k;
  }
  t.replying = undefined;
  t.replyAt = undefined;
}

function timestampMs(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

const blocks = (content: unknown): unknown[] | undefined => (typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : undefined);
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Which conversation each line belongs to: its session's main chain, or a sub-agent's (by `agentId`, else by following `parentUuid`). */
class Threads {
  readonly #threads = new Map<string, Thread>();
  /** The thread of each line read, by its `uuid`. */
  readonly #ofUuid = new Map<string, string>();
  #chains = 0;

  of(v: Record<string, unknown>): Thread {
    const sessionId = nonEmpty(v.sessionId);
    let key: string;
    let conversation: Conversation | undefined;
    let parent: Conversation | undefined;
    if (v.isSidechain === true) {
      const agent = nonEmpty(v.agentId);
      const linked = nonEmpty(v.parentUuid) && this.#ofUuid.get(v.parentUuid as string);
      parent = sessionId !== undefined ? { by: 'sessionId', key: sessionId } : undefined;
      if (agent !== undefined) {
        key = `agent\u0000${sessionId ?? ''}\u0000${agent}`;
        conversation = { by: 'agentId', key: agent };
      } else if (linked?.startsWith('chain\u0000')) key = linked;
      else {
        // A sub-agent's first line (no parent, or one not in this file): a new sub-agent conversation, named by that line.
        key = `chain\u0000${++this.#chains}`;
        conversation = { by: 'sub-agent chain from uuid', key: nonEmpty(v.uuid) ?? `${sessionId ?? 'transcript'} sub-agent ${this.#chains}` };
      }
    } else {
      key = `main\u0000${sessionId ?? ''}`;
      conversation = sessionId !== undefined ? { by: 'sessionId', key: sessionId } : undefined;
    }
    let t = this.#threads.get(key);
    const compaction = v.isSidechain === true && nonEmpty(v.agentId)?.startsWith(COMPACTION_AGENT) === true;
    if (!t)
      this.#threads.set(
        key,
        (t = { messages: [], origins: [], after: new Map(), ...(conversation && { conversation }), ...(parent && { parent }), ...(compaction && { compaction }) }),
      );
    if (nonEmpty(v.uuid)) this.#ofUuid.set(v.uuid as string, key);
    return t;
  }
}

/** A compaction: Claude Code's next request starts again from the summary, so the thread's messages so far are dropped. */
function compact(t: Thread): void {
  t.messages = [];
  t.origins = [];
  t.replying = undefined;
  t.replyAt = undefined;
  t.attached = undefined;
  t.hooked = undefined;
}

/**
 * What a request after an `attachment` line lacks. Newer versions (2.1.x) write the context Claude
 * Code adds to a turn — a hook's additional context, the skill listing, a command queued while the
 * model works, the plan-mode note — as lines of their own (`{"type": "attachment", "attachment":
 * {"type": "hook_additional_context" | "skill_listing" | "queued_command" | …}}`), not as the text
 * the model read, which Claude Code renders from them when it sends the turn (its rendering is not
 * published). Those lines are not rebuilt into messages, so the requests say so instead of showing
 * less than was sent. Read in public projects that parse transcripts (types as their tests write
 * them, 2026); secondary sources: Claude Code's transcript format has no published schema.
 */
const ATTACHMENTS_UNRECORDED = 'the context Claude Code attached to the turns (its `attachment` lines: hook output, skill listings, queued commands), as the model read it';

/**
 * Claude Code's compaction call: an agent whose id starts `acompact` (its transcript
 * `<session>/subagents/agent-acompact-<id>.jsonl`, 2.1.x), whose lines are the summary request it
 * adds and the summary — while the request it sends holds the session's conversation before them
 * (its first line's `parentUuid` is the session's last line, and its bill reads the session's cache
 * entry: 164,830 of 173,514 input tokens on a published 2.1.39 transcript, marot/spotter
 * test/fixtures/transcripts). Its requests say they lack that conversation, and why. A secondary
 * source names these files too (the sub-agent design notes of the sonnes/chitragupt repository: "Context compression").
 */
const COMPACTION_AGENT = 'acompact';
const COMPACTION_UNRECORDED = 'the conversation it summarises (the session’s messages before it, which Claude Code sends ahead of its summary request)';
const COMPACTION_NOTE =
  'this is Claude Code compacting the session (an `agent-acompact-*` transcript): it sends the session’s conversation, which the transcript does not repeat, then asks for a summary';

/**
 * What a request lacks after a hook that can add to the context ran: Claude Code adds a
 * `SessionStart` or `UserPromptSubmit` hook's output, and a `PostToolUse` hook's
 * `additionalContext`, to what the model reads (code.claude.com/docs/en/hooks, read 2026-12-07),
 * and versions before the `attachment` lines (2.1.39 on a published project folder,
 * marot/spotter) write only that the hook ran — a `progress` line of `hook_progress` — not what it
 * added: its compaction call's lines hold three PostToolUse:Edit contexts the session's own
 * transcript has no trace of. Whether a hook added anything is not recorded, so the requests say
 * "if any".
 */
const CONTEXT_HOOKS = new Set(['SessionStart', 'UserPromptSubmit', 'PostToolUse']);
const HOOKS_UNRECORDED =
  'the context its hooks added, if any (SessionStart, UserPromptSubmit or PostToolUse hooks ran — its `hook_progress` lines — and the transcript does not hold their output)';

const ID = 'claude-code';
/** The provider format Claude Code sends (its adapter's `sentBy`). */
const FORMAT = formatSentBy(ID);

/**
 * A sub-agent's lines as its session's transcript repeats them: newer versions (2.1.x) write a
 * `progress` line of `data.type: agent_progress` (`data.agentId`, `data.prompt`, and in
 * `data.message` one line of the sub-agent's own transcript) as the sub-agent runs. Read in
 * marot/spotter's published transcripts (test/fixtures/transcripts, 2.1.39; read 2026-12-08): for
 * each of the six sub-agents there whose own transcript (`<session>/subagents/agent-<id>.jsonl`) is
 * beside the session, the repeated lines are its prompt, its tool results and, of its replies, only
 * the `tool_use` lines — each with the reply's message id and usage unchanged — and never a text
 * block or its final reply (2 of 3, 11 of 12, 12 of 13, 2 of 3, 10 of 11 and 8 of 9 of its
 * replies). So its requests cannot be rebuilt from them; but each repeated reply is a request the
 * provider billed, and when the sub-agent's own transcript is not in the capture, the import says
 * how many and what they were billed, rather than letting them vanish.
 */
class SubAgentMirrors {
  readonly #absent = new Map<string, { first: Chunk; session?: Conversation; replies: Map<string, Record<string, unknown> | undefined> }>();

  /** A `progress` line of a sub-agent whose own lines are not in the capture. */
  add(c: Chunk, agentId: string, data: Record<string, unknown>): void {
    let a = this.#absent.get(agentId);
    const sessionId = nonEmpty(c.value.sessionId);
    if (!a) this.#absent.set(agentId, (a = { first: c, ...(sessionId !== undefined && { session: { by: 'sessionId', key: sessionId } }), replies: new Map() }));
    const line = isObject(data.message) ? data.message : undefined;
    const m = line && line.type === 'assistant' && isObject(line.message) ? line.message : undefined;
    const id = m && nonEmpty(m.id);
    // One line per content block, each with the usage so far: the last one's is the reply's.
    if (id !== undefined && m!.model !== '<synthetic>') a.replies.set(id, isObject(m!.usage) ? m!.usage : a.replies.get(id));
  }

  /** Each absent sub-agent's requests, as left out of the session's conversation. */
  report(leftOut: LeftOutTally): void {
    for (const [agentId, a] of this.#absent) {
      const n = a.replies.size;
      // Input only: a line's output count is the reply's so far, and the repeated lines need not include a reply's last.
      // Read as every usage of the session is, by its provider's adapter (input + cache reads + writes).
      let input = 0;
      const reader = FORMAT && providerOf(FORMAT).usage;
      for (const u of a.replies.values()) input += (u && reader?.read(u, []))?.inputTokens ?? 0;
      const billed = n
        ? `its ${n} tool-calling ${n === 1 ? 'reply, counted here, was' : 'replies, counted here, were'} billed ${formatTokens(input)} input tokens (cached and written ones included), and its last reply is not repeated at all`
        : 'none of its replies is repeated';
      leftOut.add(
        `${n === 1 ? 'request' : 'requests'} of sub-agent ${inlineCode(agentId)}`,
        `its own transcript (${inlineCode(`agent-${agentId}.jsonl`)} in the session’s \`subagents/\` folder) was not read, and the session’s \`agent_progress\` lines repeat its prompt, tool calls and tool results, not the requests it sent: ${billed}; import the session’s folder to read it as a scenario linked to this one`,
        a.first,
        Math.max(n, 1),
        { ...(a.session && { conversation: a.session }) },
      );
    }
  }
}

export const claudeCode: Capture = {
  id: ID,
  title: 'Claude Code transcript',
  // Claude Code sends one provider format only: the registry says which (its adapter's `sentBy`).
  format: FORMAT,
  missing: ['the system prompt', 'the tool definitions', 'the request parameters (max_tokens, thinking)', MARKERS_UNRECORDED],

  detect(chunks) {
    return (
      chunks.every((c) => typeof c.value.type === 'string' && !('model' in c.value) && !('body' in c.value) && !('payload' in c.value)) &&
      chunks.some((c) => MESSAGE_TYPES.has(c.value.type as string) && typeof c.value.sessionId === 'string' && isObject(c.value.message))
    );
  },

  requests(chunks: readonly Chunk[], file: string, errors: InputError[], leftOut: LeftOutTally): CapturedRequest[] {
    const out: CapturedRequest[] = [];
    const threads = new Threads();
    // The sub-agents whose own lines the capture holds: their `agent_progress` lines repeat what is read from those.
    const ownLines = new Set(chunks.filter((c) => c.value.isSidechain === true).map((c) => nonEmpty(c.value.agentId)));
    const mirrors = new SubAgentMirrors();
    for (const c of chunks) {
      const v = c.value;
      const progress = v.type === 'progress' && isObject(v.data) ? v.data : undefined;
      const agent = progress?.type === 'agent_progress' ? nonEmpty(progress.agentId) : undefined;
      if (agent !== undefined) {
        if (!ownLines.has(agent)) mirrors.add(c, agent, progress!);
        leftOut.add(
          '`agent_progress` lines',
          ownLines.has(agent)
            ? 'a sub-agent’s lines as its session’s transcript repeats them, read from the sub-agent’s own transcript instead'
            : 'a sub-agent’s prompt, tool calls and tool results as its session’s transcript repeats them, not the requests it sent (see the requests of the sub-agent)',
          c,
        );
        continue;
      }
      if (v.type === 'system' && v.subtype === 'compact_boundary') {
        compact(threads.of(v));
        continue;
      }
      if (v.type === 'attachment') {
        // Context added to a turn, kept in Claude Code's own shape: counted, and the requests after it say they lack it.
        if (nonEmpty(v.sessionId) !== undefined) threads.of(v).attached = true;
        leftOut.add(
          '`attachment` lines',
          'context Claude Code adds to a turn (hook output, skill listings, queued commands), kept in its own shape, not as the text the model read: not rebuilt, and the requests after it say so',
          c,
        );
        continue;
      }
      // A hook that can add to the context ran (HOOKS_UNRECORDED): the session's requests after it say what they may lack.
      const hook = progress?.type === 'hook_progress' ? progress.hookEvent : undefined;
      if (typeof hook === 'string' && CONTEXT_HOOKS.has(hook) && v.isSidechain !== true && nonEmpty(v.sessionId) !== undefined) threads.of(v).hooked = true;
      // Where the conversation went on under another session id: a line of Claude Code's own, but one that says where the rest is.
      const next = v.type === 'continued-in' ? nonEmpty(v.continuedInSessionId) : undefined;
      if (next !== undefined) {
        leftOut.add(
          '`continued-in` lines',
          `the conversation went on as session ${inlineCode(next)} (Claude Code continues a session sent to the background, or forked, under a new id): its later requests are in that session’s transcript`,
          c,
        );
        continue;
      }
      // Other lines (summaries, snapshots, progress, system notes) are not messages sent to the model: counted, their times not read.
      if (!MESSAGE_TYPES.has(v.type as string)) {
        leftOut.add(`\`${String(v.type)}\` lines`, 'Claude Code’s own records, not messages sent to the model', c);
        continue;
      }
      const thread = threads.of(v);
      if (v.isCompactSummary === true) compact(thread);
      const { messages, origins } = thread;
      const t = timestampMs(v.timestamp);
      const m = v.message;
      if (!isObject(m)) {
        errors.push({
          pos: chunkPos(c, ['message'], file),
          message: `a \`${v.type}\` line of a Claude Code transcript needs its \`message\` object`,
          fix: 'import the transcript as Claude Code wrote it (~/.claude/projects/<project>/<session>.jsonl), unedited',
        });
        continue;
      }
      const content = blocks(m.content);
      if (!content) {
        errors.push({ pos: chunkPos(c, ['message', 'content'], file), message: '`message.content` must be text or a list of content blocks', fix: UNEDITED });
        continue;
      }
      const role = v.type as 'user' | 'assistant';
      // A later block of the reply being read (the same API response's message id), read before the reply's state moves on.
      const continues = role === 'assistant' && typeof m.id === 'string' && m.id === thread.replying;
      if (role === 'assistant' && !messages.length && m.model !== '<synthetic>') {
        // A transcript cut short (a published excerpt, a sub-agent's lines without its prompt) can hold a reply without what it answered.
        leftOut.add(
          thread.parent ? 'sub-agent reply lines with no prompt before them' : 'reply lines with no user message before them',
          'the transcript starts mid-conversation and does not hold what was sent for them: no request to rebuild',
          c,
        );
        continue;
      }
      if (role === 'assistant') {
        if (m.model === '<synthetic>') {
          leftOut.add('`<synthetic>` replies', 'written by Claude Code itself, never sent by the API', c);
          continue;
        }
        const id = typeof m.id === 'string' ? m.id : undefined;
        if (id === undefined || id !== thread.replying) {
          thread.replying = id;
          if (typeof m.model !== 'string' || m.model === '') {
            errors.push({
              pos: chunkPos(c, ['message'], file),
              message: 'this assistant message has no `model`',
              fix: 'import the transcript as Claude Code wrote it: every reply names its model',
            });
          } else {
            const body = { model: m.model, messages: messages.map((x) => ({ role: x.role, content: [...x.content] })) };
            const from = origins.map((o) => [...o]);
            thread.reply = {
              chunk: c,
              at: ['message'],
              offset: c.line,
              body,
              ...((thread.lastTime ?? t) !== undefined && { timestampMs: (thread.lastTime ?? t)! }),
              ...(m.usage !== undefined && { usage: { value: m.usage, at: ['message', 'usage'] } }),
              ...(thread.conversation && { conversation: thread.conversation }),
              ...(thread.parent && { parent: thread.parent }),
              ...((thread.attached || thread.compaction || thread.hooked) && {
                unrecorded: [
                  ...(thread.compaction ? [COMPACTION_UNRECORDED] : []),
                  ...(thread.attached ? [ATTACHMENTS_UNRECORDED] : []),
                  ...(thread.hooked ? [HOOKS_UNRECORDED] : []),
                ],
              }),
              ...(thread.compaction && { note: COMPACTION_NOTE }),
              assembled: true,
              origin: (path) => {
                const [, i, , k, ...rest] = path;
                if (path[0] !== 'messages' || typeof i !== 'number') return undefined;
                const o = typeof k === 'number' ? from[i]?.[k] : from[i]?.[0];
                return o && { chunk: o.chunk, at: typeof k === 'number' ? [...o.at, ...rest] : o.at };
              },
            };
            // The provider's verdict on a cache miss, when the reply kept it (message.diagnostics.cache_miss_reason).
            const miss = providerMissOf(m, c, ['message'], file, errors);
            if (miss) thread.reply.providerMiss = miss;
            out.push(thread.reply);
          }
        } else if (m.usage !== undefined && thread.reply) {
          // One line per content block, each with the usage so far: the last line's output count is the reply's.
          thread.reply.usage = { value: m.usage, at: ['message', 'usage'], chunk: c };
        }
      } else if (!content.every((b) => isObject(b) && b.type === 'tool_result')) {
        thread.replying = undefined;
        rewindTo(thread, nonEmpty(v.parentUuid));
      }
      const last = messages.at(-1);
      const at = (j: number): (string | number)[] => (typeof m.content === 'string' ? ['message', 'content'] : ['message', 'content', j]);
      const blockOrigins = content.map((_, j) => ({ chunk: c, at: at(j) }));
      const into = thread.replyAt;
      if (continues && last?.role !== role && into !== undefined && messages[into]?.role === 'assistant') {
        // A reply of parallel tool calls: Claude Code writes each tool_use block as its own line as it completes, and runs the
        // first tool (writing its result) before the next block's line. One API response, so one request: the block joins its
        // message, and the results written between stay after it — the next request holds [assistant: A, B] [user: result A, result B].
        messages[into]!.content.push(...content);
        origins[into]!.push(...blockOrigins);
      } else if (last?.role === role) {
        last.content.push(...content);
        origins.at(-1)!.push(...blockOrigins);
      } else {
        messages.push({ role, content: [...content] });
        origins.push(blockOrigins);
      }
      if (role === 'assistant' && thread.reply?.chunk === c) thread.replyAt = messages.length - 1;
      if (t !== undefined) thread.lastTime = t;
      const uuid = nonEmpty(v.uuid);
      if (uuid !== undefined) thread.after.set(uuid, { messages, n: messages.length, k: messages.at(-1)?.content.length ?? 0 });
    }
    mirrors.report(leftOut);
    return out;
  },
};
