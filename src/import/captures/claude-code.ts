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
 * those pages (`isSidechain`, the model `<synthetic>`) are as Claude Code 2.x writes them.
 *
 * Rebuilding: each new assistant message (a new `message.id`) is one request — the messages of the
 * main conversation before it, consecutive lines of one role joined into one message (as the API
 * requires roles to alternate); its model and usage are the reply's. Sub-agent lines
 * (`isSidechain: true`) and Claude Code's own `<synthetic>` replies (never sent to the API) are left
 * out. Lines of several sessions in one file (a projects folder's transcripts joined) are rebuilt per
 * `sessionId`, each request naming its session (one scenario per session with --out-dir). A transcript does not record the system prompt, the tool definitions or `max_tokens`: the
 * requests hold none of them (the page says so), and the measured usage still counts them.
 */
import type { InputError } from '../../scenarios/errors.ts';
import type { LeftOutTally } from '../left-out.ts';
import { chunkPos, isObject, type Chunk } from '../read.ts';
import type { Capture, CapturedRequest } from './types.ts';

type Message = { role: 'user' | 'assistant'; content: unknown[] };
/** Where each content block of a rebuilt message came from: its line and its path there. */
type Origins = { chunk: Chunk; at: (string | number)[] }[][];

const MESSAGE_TYPES = new Set(['user', 'assistant']);

/** One session's conversation so far (a file may hold several sessions' lines). */
interface Session {
  messages: Message[];
  origins: Origins;
  /** The assistant message being answered, when its lines are being read. */
  replying?: string;
  /** The request that reply answers: a later line of the same reply carries its final usage. */
  reply?: CapturedRequest;
  lastTime?: number;
}

function timestampMs(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

const blocks = (content: unknown): unknown[] | undefined => (typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : undefined);

export const claudeCode: Capture = {
  id: 'claude-code',
  title: 'Claude Code transcript',
  format: 'anthropic',
  missing: ['the system prompt', 'the tool definitions', 'the request parameters (max_tokens, thinking)'],

  detect(chunks) {
    return (
      chunks.every((c) => typeof c.value.type === 'string' && !('model' in c.value) && !('body' in c.value) && !('payload' in c.value)) &&
      chunks.some((c) => MESSAGE_TYPES.has(c.value.type as string) && typeof c.value.sessionId === 'string' && isObject(c.value.message))
    );
  },

  requests(chunks: readonly Chunk[], file: string, errors: InputError[], leftOut: LeftOutTally): CapturedRequest[] {
    const out: CapturedRequest[] = [];
    // Several sessions in one file (a projects folder's transcripts, concatenated): each rebuilt on its own, by `sessionId`.
    const sessions = new Map<string, Session>();
    for (const c of chunks) {
      const v = c.value;
      // Other lines (summaries, snapshots, a sub-agent's) are not the main conversation's: skipped, their times too.
      if (!MESSAGE_TYPES.has(v.type as string)) {
        leftOut.add(`\`${String(v.type)}\` lines`, 'Claude Code’s own records, not messages sent to the model', c.line);
        continue;
      }
      if (v.isSidechain === true) {
        leftOut.add('sub-agent lines (`isSidechain: true`)', 'a sub-agent’s conversation, not the main one', c.line);
        continue;
      }
      const sessionId = typeof v.sessionId === 'string' && v.sessionId !== '' ? v.sessionId : undefined;
      const session = sessions.get(sessionId ?? '') ?? { messages: [], origins: [] };
      sessions.set(sessionId ?? '', session);
      const { messages, origins } = session;
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
        errors.push({
          pos: chunkPos(c, ['message', 'content'], file),
          message: '`message.content` must be text or a list of content blocks',
          fix: 'import the transcript as Claude Code wrote it, unedited',
        });
        continue;
      }
      const role = v.type as 'user' | 'assistant';
      if (role === 'assistant') {
        if (m.model === '<synthetic>') {
          leftOut.add('`<synthetic>` replies', 'written by Claude Code itself, never sent by the API', c.line);
          continue;
        }
        const id = typeof m.id === 'string' ? m.id : undefined;
        if (id === undefined || id !== session.replying) {
          session.replying = id;
          if (typeof m.model !== 'string' || m.model === '') {
            errors.push({
              pos: chunkPos(c, ['message'], file),
              message: 'this assistant message has no `model`',
              fix: 'import the transcript as Claude Code wrote it: every reply names its model',
            });
          } else if (!messages.length) {
            errors.push({
              pos: { file, line: c.line, col: 1 },
              message: 'this reply comes before any user message: there is no request to rebuild',
              fix: 'import the whole transcript from its first line',
            });
          } else {
            const body = { model: m.model, messages: messages.map((x) => ({ role: x.role, content: [...x.content] })) };
            const from = origins.map((o) => [...o]);
            session.reply = {
              chunk: c,
              at: ['message'],
              offset: c.line,
              body,
              ...((session.lastTime ?? t) !== undefined && { timestampMs: (session.lastTime ?? t)! }),
              ...(m.usage !== undefined && { usage: { value: m.usage, at: ['message', 'usage'] } }),
              ...(sessionId !== undefined && { conversation: { by: 'sessionId', key: sessionId } }),
              assembled: true,
              origin: (path) => {
                const [, i, , k, ...rest] = path;
                if (path[0] !== 'messages' || typeof i !== 'number') return undefined;
                const o = typeof k === 'number' ? from[i]?.[k] : from[i]?.[0];
                return o && { chunk: o.chunk, at: typeof k === 'number' ? [...o.at, ...rest] : o.at };
              },
            };
            out.push(session.reply);
          }
        } else if (m.usage !== undefined && session.reply) {
          // One line per content block, each with the usage so far: the last line's output count is the reply's.
          session.reply.usage = { value: m.usage, at: ['message', 'usage'], chunk: c };
        }
      } else session.replying = undefined;
      const last = messages.at(-1);
      const at = (j: number): (string | number)[] => (typeof m.content === 'string' ? ['message', 'content'] : ['message', 'content', j]);
      const blockOrigins = content.map((_, j) => ({ chunk: c, at: at(j) }));
      if (last?.role === role) {
        last.content.push(...content);
        origins.at(-1)!.push(...blockOrigins);
      } else {
        messages.push({ role, content: [...content] });
        origins.push(blockOrigins);
      }
      if (t !== undefined) session.lastTime = t;
    }
    return out;
  },
};
