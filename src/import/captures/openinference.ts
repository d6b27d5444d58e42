/**
 * OpenInference spans (Arize Phoenix and the `openinference-instrumentation-*` packages) → the
 * requests each LLM span records: the provider's body as sent, where the span records it
 * (`input.value`, below), else rebuilt as OpenTelemetry GenAI span bodies (the `otel-genai`
 * adapter: `input_messages` of `{role, parts}`, `tool_definitions`), the provider-neutral shape the
 * `requests` fold already reads. Read from the OpenInference specification,
 * github.com/Arize-ai/openinference `spec/semantic_conventions.md` and `spec/llm_spans.md` at commit
 * 1fe497f1d9f45a07eee55d97fe185e020560f9c7 (2026-08-21; read 2026-12-03):
 *
 * - a span is an LLM call when `openinference.span.kind` is `LLM`; its request is the flattened list
 *   `llm.input_messages.<i>.message.{role, content, name, tool_call_id}`, with
 *   `message.contents.<j>.message_content.{type, text, image.image.url}` for multi-part content and
 *   `message.tool_calls.<j>.tool_call.{id, function.name, function.arguments}`;
 * - `llm.tools.<i>.tool.json_schema` (JSON text) are the tools advertised; the model is
 *   `llm.request.model_name`, else `llm.invocation_parameters`' `model`, else `llm.model_name`;
 * - `session.id`, then `user.id`, name the conversation;
 * - usage: `llm.token_count.prompt` ("the number of tokens in the prompt"),
 *   `llm.token_count.prompt_details.cache_read` ("prompt tokens successfully retrieved from cache")
 *   and `…cache_write` ("prompt tokens not found in cache that were written to cache");
 *   `llm.token_count.completion` ("the number of tokens in the completion") is the output.
 *
 * The body as sent. The specification calls `input.value` "the raw input"; what that is, is the
 * instrumentation's. Read at the commit above (2026-12-07): openinference-instrumentation-anthropic
 * 1.1.2 (Python, `_wrappers.py` `_get_inputs`) writes the keyword arguments of `messages.create` as
 * JSON (`input.mime_type` `application/json`) — the request body, with the SDK's request options
 * (`extra_headers`, `extra_query`, `extra_body`, `timeout`; the beta client's `betas`, sent as a
 * header) among them; openinference-
 * instrumentation-openai 0.1.54 (Python, `_request.py`) the SDK's `json_data`, the body it sends;
 * the JS instrumentations (@arizeai/openinference-instrumentation-anthropic 0.1.21, -openai 4.1.9)
 * `JSON.stringify(body)` — except for the Responses API, where it is the `input` alone. So a span
 * whose `input.value` is a body its provider's adapter reads (recordedBody below) is imported as
 * that body, whole: its cache markers, system prompt, tools and parameters as sent. When every LLM
 * span of the file records one, in one format, the requests are those bodies; otherwise every span
 * is rebuilt from its flattened attributes as below, and each request says it lacks the body and
 * its markers.
 *
 * Two file shapes: OTLP JSON (`{"resourceSpans": …}`, read by ../otlp.ts), where attributes are
 * flattened; and JSON Lines of spans in the specification's own span JSON (`spec/llm_spans.md`'s
 * examples: `{"name", "context": {"trace_id", "span_id"}, "start_time", "attributes": {…}}`), where
 * `attributes` may be flattened or nested (`"llm.input_messages": [{"message.role": …}]`); both are
 * flattened here to the same dotted keys.
 *
 * The cached split. The specification does not say whether `llm.token_count.prompt` includes the
 * cached and written tokens, and instrumentations differ: openinference-instrumentation-anthropic
 * 1.1.2 (Python, `_utils.py` `_get_token_counts`, since #1429, 2025-03-25) records input + cache
 * creation + cache read tokens and the two details only when non-zero;
 * @arizeai/openinference-instrumentation-anthropic 0.1.21 (JS, `getAnthropicUsageAttributes`) records
 * Anthropic's `input_tokens` (the uncached rest) and no details; the OpenAI instrumentations
 * (@arizeai/openinference-instrumentation-openai 4.1.9) record OpenAI's `prompt_tokens`, which
 * includes cached tokens, and `cache_read`. So: a span with a cache detail is read as the details'
 * wording says — prompt tokens retrieved from / written to the cache, part of the prompt count —
 * and a span whose details exceed its prompt count is an error; a span with a prompt count but no
 * detail carries no measured figures, and its request says why, rather than a guessed split.
 *
 * Sub-agents. A span names its parent (`parent_id` in the span JSON and Phoenix's exports,
 * `parentSpanId` in OTLP JSON; none for a root span); the specification leaves the rest to the
 * instrumentations: an `AGENT` span "encompasses calls to LLMs and Tools", `agent.name` names "the
 * agent that this span represents", and `graph.node.id` / `graph.node.parent_id` draw an execution
 * graph (`spec/semantic_conventions.md` and `spec/traces.md` at the commit above). How agents nest,
 * read 2026-12-07 (the instrumentations in the same repository at the same commit):
 *
 * - Arize Phoenix's own agent (github.com/Arize-ai/phoenix at commit
 *   9478f954bbc6175a0eaef398d0a92c1d967c3bfe, 2026-08-21: `evals/pxi/online_evals/OVERVIEW.md`,
 *   `src/phoenix/server/agents/capabilities/tools/internal/call_subagent.py`,
 *   `src/phoenix/server/api/routers/agents.py`): a turn is a `pxi.turn` AGENT span holding the main
 *   agent's LLM and TOOL spans; a delegation is a `call_subagent` TOOL span, with the sub-agent's
 *   `ServerAgent.iter` AGENT span (no `agent.name`) and its own LLM spans below it — "the subagent's
 *   private conversation" — all run under `using_session`, so under the turn's `session.id`. (Its test
 *   fixture `tests/unit/pxi/evals/online_evals/fixtures/pxi_turn_trace.json` at that commit is a turn
 *   without a delegation: one AGENT span, 9 LLM and 8 TOOL spans below it.)
 * - openinference-instrumentation-openai-agents 2.0.0 (`_processor.py`): a root AGENT span per trace
 *   that calls no model itself, an AGENT span per agent below it (`agent.name`); after a handoff the
 *   next agent's span is a sibling below the root (the handoff continues the conversation, and
 *   `graph.node.parent_id` names the agent it came from: graph nodes are agents, not runs); an agent
 *   called as a tool runs below the caller's function (TOOL) span.
 * - openinference-instrumentation-google-adk 0.1.20 (`_wrappers.py`, `tests/test_instrumentor.py`):
 *   `agent_run [<name>]` AGENT spans (`agent.name`), `call_llm` LLM spans, and the `execute_tool`
 *   TOOL spans a model response asked for below its `call_llm` span; an AgentTool's agent runs below
 *   its tool's span (an `invocation` CHAIN span, then its `agent_run`) and keeps the caller's
 *   `session.id` (`_RunnerRunAsync`); the agent a `transfer_to_agent` hands to runs below the
 *   caller's `call_llm` span before google-adk 2.0, and beside the caller (below the invocation) from
 *   2.0.
 * - openinference-instrumentation-smolagents 0.1.34: `MultiStepAgent.run` is an AGENT span, each step
 *   a CHAIN span, `Model.generate` an LLM span: a managed agent's run is an AGENT span below its
 *   manager's step.
 * - openinference-instrumentation-claude-agent-sdk 0.1.10 (Python): the query an AGENT span, a `Task`
 *   call a TOOL span, the sub-agent an AGENT span below it (`agent.name` the tool's name).
 * - openinference-instrumentation-langchain 0.1.70: any run whose name holds "agent" is an AGENT span
 *   (LangGraph's `agent` node: one per model call).
 *
 * So: an LLM span belongs to its nearest AGENT span above it, and an agent that calls the model is a
 * sub-agent when another agent that calls the model is above it; an AGENT span no LLM span belongs
 * to (openai-agents' root) is passed through. The session's own conversation is that of the agents
 * with none above them (or of calls with no agent). A sub-agent's calls are a conversation of their
 * own, named by the agent (`agent.name`, else the span's name) and what it ran under: its caller's
 * tool call (`call_subagent`, a function span, `execute_tool`: the outermost TOOL span between them),
 * else the span just below its caller (a smolagents step; the `call_llm` span an ADK transfer ran
 * under). So a sub-agent run twice is two conversations, and the per-call AGENT spans of one run are
 * one; its `parent` is its caller's conversation, and the import links them (sub-agents.ts).
 * Only the chain the file holds is read: a parent it lacks (a partial export, the LLM spans alone)
 * ends it, and those calls stay in the session's conversation rather than a guessed one. Calls whose
 * session is not named (no `session.id` / `user.id`) are grouped as before, by their prefix chain.
 */
import type { InputError } from '../../scenarios/errors.ts';
import { MARKERS_UNRECORDED } from '../../economics/measured.ts';
import type { MeasuredUsage } from '../../providers/types.ts';
import { formatsOfProvider, type ProviderId as RequestFormat } from '../../providers/registry.ts';
import { candidates, tieBreak } from '../detect.ts';
import { measuredFrom } from '../usage.ts';
import { jsonAttribute, spansOf, type OtlpIssue } from '../otlp.ts';
import { chunkPos, isObject, type Chunk } from '../read.ts';
import type { Conversation } from '../log/group.ts';
import type { Capture, CapturedRequest } from './types.ts';

type Obj = Record<string, unknown>;
type Path = (string | number)[];
/** One attribute: its value and where it is in its chunk. */
interface Attr {
  value: unknown;
  at: Path;
}

const KIND = 'openinference.span.kind';
const MESSAGE = /^llm\.input_messages\.(\d{1,9})\.message\.(.+)$/;
const TOOL = /^llm\.tools\.(\d{1,9})\.tool\.json_schema$/;
const PART = /^(contents|tool_calls)\.(\d{1,9})\.(.+)$/;
export const OI_USAGE = {
  prompt: 'llm.token_count.prompt',
  cacheRead: 'llm.token_count.prompt_details.cache_read',
  cacheWrite: 'llm.token_count.prompt_details.cache_write',
  completion: 'llm.token_count.completion',
} as const;
/** Nested attribute values deeper than this are a hostile file, not a span. */
const MAX_DEPTH = 32;

const FIX = 'export the spans as OpenInference instrumentation recorded them (OTLP JSON, or one span JSON object per line), unedited';

export const AMBIGUOUS_USAGE =
  'the span records `llm.token_count.prompt` without a cache split (`llm.token_count.prompt_details.cache_read` / `cache_write`); OpenInference does not say whether that count includes cached tokens, and instrumentations differ (for one provider, the Python instrumentation counts them and the JS one records only the uncached rest), so no measured figures were imported for it';

/** A span found in a chunk: its flattened attributes, start time, id, trace, parent and name. */
interface Span {
  chunk: Chunk;
  at: Path;
  attrs: Map<string, Attr>;
  startMs?: number;
  /** Where the start time is, when it is not a time. */
  badStart?: Path;
  id: string;
  /** Its trace ('' when the export does not say). */
  trace: string;
  /** Its parent span's id; absent for a root span. */
  parent?: string;
  name: string;
}

/** Nested attributes (the span JSON's readable form) → dotted keys, each with its path. */
function flatten(value: unknown, key: string, at: Path, out: Map<string, Attr>, depth: number, issues: OtlpIssue[]): void {
  if (depth > MAX_DEPTH) {
    issues.push({ path: at, message: `attribute \`${key}\` is nested deeper than ${MAX_DEPTH} levels`, fix: FIX });
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) flatten(v, `${key}.${i}`, [...at, i], out, depth + 1, issues);
  } else if (isObject(value)) for (const [k, v] of Object.entries(value)) flatten(v, `${key}.${k}`, [...at, k], out, depth + 1, issues);
  else out.set(key, { value, at });
}

/** A start time: an ISO-8601 instant (the span JSON, Phoenix's REST API), or a Unix time in ms (pandas' `to_json`, its default `date_format="epoch"`) or s. */
/**
 * A span's time: an ISO 8601 text, or a count since 1970 in the unit its size says — seconds
 * (~1.7e9 today), milliseconds (~1.7e12), microseconds (~1.7e15) or nanoseconds (~1.7e18, the
 * OpenTelemetry SDK's own `start_time`, as VeADK's trace dump writes it).
 */
function timeMs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v < 1e11 ? v * 1000 : v < 1e14 ? v : v < 1e17 ? v / 1000 : v / 1e6;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}[T ]/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The span objects of a chunk: the chunk itself, or the spans of a Phoenix REST page (`{"data": [span, …], "next_cursor"}`). */
function spanObjects(v: Obj): { span: Obj; at: Path }[] {
  if (Array.isArray(v.data) && !('attributes' in v)) return v.data.flatMap((s, i) => (isObject(s) ? [{ span: s, at: ['data', i] as Path }] : []));
  return [{ span: v, at: [] }];
}

/** Whether a span object is an OpenInference span: its kind among its attributes (flattened or nested), or as Phoenix's `span_kind` column. */
function isOpenInferenceSpan(s: Obj): boolean {
  if (typeof s.span_kind === 'string' || typeof s[`attributes.${KIND}`] === 'string') return true;
  const a = s.attributes;
  if (!isObject(a)) return false;
  if (KIND in a) return true;
  const oi = a.openinference;
  return isObject(oi) && isObject(oi.span) && 'kind' in oi.span;
}

const isSpanObject = (s: Obj): boolean => (isObject(s.attributes) && ('context' in s || 'name' in s)) || Object.keys(s).some((k) => k.startsWith('attributes.'));

function spansIn(chunks: readonly Chunk[], file: string, errors: InputError[]): Span[] {
  const out: Span[] = [];
  for (const c of chunks) {
    const issues: OtlpIssue[] = [];
    if ('resourceSpans' in c.value) {
      for (const s of spansOf(c.value, issues)) {
        const raw = s.path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], c.value) as Obj;
        const attrs = new Map<string, Attr>();
        (Array.isArray(raw.attributes) ? raw.attributes : []).forEach((a: unknown, i: number) => {
          if (!isObject(a) || typeof a.key !== 'string') return;
          const v = s.attributes.get(a.key);
          const at: Path = [...s.path, 'attributes', i, 'value'];
          if (isObject(v) || Array.isArray(v)) flatten(v, a.key, at, attrs, 0, issues);
          else attrs.set(a.key, { value: v, at });
        });
        out.push({
          chunk: c,
          at: s.path,
          attrs,
          startMs: Number(s.startNs / 1_000_000n),
          id: s.spanId,
          trace: s.traceId,
          ...(s.parentSpanId !== '' && { parent: s.parentSpanId }),
          name: s.name,
        });
      }
    } else
      for (const { span, at } of spanObjects(c.value)) {
        const attrs = new Map<string, Attr>();
        const a = span.attributes;
        if (isObject(a)) for (const [k, v] of Object.entries(a)) flatten(v, k, [...at, 'attributes', k], attrs, 0, issues);
        // Phoenix's dataframe (`df.to_json(orient="records")`): one column per attribute, `attributes.` before its key.
        for (const [k, v] of Object.entries(span)) if (k.startsWith('attributes.') && v !== null) flatten(v, k.slice(11), [...at, k], attrs, 0, issues);
        if (!isObject(a) && !attrs.size) issues.push({ path: [...at, 'attributes'], message: 'a span needs its `attributes` object', fix: FIX });
        // Phoenix keeps the span kind as a column of its own (`span_kind`), not among the attributes.
        if (!attrs.has(KIND) && typeof span.span_kind === 'string') attrs.set(KIND, { value: span.span_kind, at: [...at, 'span_kind'] });
        const start = span.start_time;
        const startMs = timeMs(start);
        const ctx = span.context;
        const id = String((isObject(ctx) ? ctx.span_id : undefined) ?? span['context.span_id'] ?? span.span_id ?? '');
        const trace = String((isObject(ctx) ? ctx.trace_id : undefined) ?? span['context.trace_id'] ?? span.trace_id ?? '');
        const parent = typeof span.parent_id === 'string' && span.parent_id !== '' ? span.parent_id : undefined;
        out.push({
          chunk: c,
          at,
          attrs,
          ...(startMs !== undefined && { startMs }),
          ...(start != null && startMs === undefined && { badStart: [...at, 'start_time'] }),
          id,
          trace,
          ...(parent !== undefined && { parent }),
          name: typeof span.name === 'string' ? span.name : '',
        });
      }
    for (const i of issues) errors.push({ pos: chunkPos(c, i.path, file), message: i.message, fix: i.fix });
  }
  return out;
}

/** One hop of a span's parent chain: the nearest span above it of some kind, and the span just below that one on the way up. */
interface Above {
  found: Span;
  via: Span;
}

/**
 * For a span, the nearest span above it that `is` picks, and the span just below that one (what it
 * was started under), following `parent` as far as the export holds the chain: a parent it lacks
 * (a partial export) or a cycle ends it, and nothing above is guessed. Memoised along the way, so a
 * whole export costs one walk of each chain.
 */
function nearestAbove(parentOf: (s: Span) => Span | undefined, is: (s: Span) => boolean): (s: Span) => Above | undefined {
  const memo = new Map<Span, Above | null>();
  return (s) => {
    const path: Span[] = [];
    const seen = new Set<Span>();
    let x = s;
    let hit: Above | null = null;
    for (;;) {
      const known = memo.get(x);
      if (known !== undefined) {
        hit = known;
        break;
      }
      seen.add(x);
      path.push(x);
      const p = parentOf(x);
      if (!p || seen.has(p)) break;
      if (is(p)) {
        hit = { found: p, via: x };
        break;
      }
      x = p;
    }
    // Every span passed on the way (none of them picked, but perhaps the first) has the same answer.
    for (const y of path) memo.set(y, hit);
    return hit ?? undefined;
  };
}

/** A sub-agent's run (see the header): its conversation, and the run that started it (absent: the session's own conversation). */
interface Run {
  conversation: Conversation;
  parent?: Run;
}

/** How a sub-agent's conversation is named: the agent, and the span of its caller it ran under. */
export const SUB_AGENT = 'sub-agent run (agent, span)';

/** The sub-agent run each LLM span belongs to, undefined for the session's own conversation (see the header). */
function subAgentRuns(all: readonly Span[]): (llm: Span) => Run | undefined {
  const key = (trace: string, id: string) => `${trace}\u0000${id}`;
  const byId = new Map<string, Span>();
  for (const s of all) if (s.id !== '' && !byId.has(key(s.trace, s.id))) byId.set(key(s.trace, s.id), s);
  const parentOf = (s: Span) => (s.parent === undefined ? undefined : byId.get(key(s.trace, s.parent)));
  const agentAbove = nearestAbove(parentOf, (s) => s.attrs.get(KIND)?.value === 'AGENT');
  // The agents that call the model: the nearest AGENT span above an LLM span. One that only holds other agents (openai-agents'
  // root span of each trace) is not one, so the agents below it are not its sub-agents.
  const calling = new Set<Span>();
  for (const s of all) {
    const a = s.attrs.get(KIND)?.value === 'LLM' ? agentAbove(s) : undefined;
    if (a) calling.add(a.found);
  }
  const callerAbove = nearestAbove(parentOf, (s) => calling.has(s));
  // The outermost TOOL span from a span up to the calling agent above it (not included): the tool call a sub-agent ran under.
  // Called once per sub-agent span, over a chain of a few spans: a plain walk up.
  const toolUnder = (s: Span): Span | undefined => {
    const seen = new Set<Span>();
    let top: Span | undefined;
    for (let x: Span | undefined = s; x && !seen.has(x) && (x === s || !calling.has(x)); x = parentOf(x)) {
      seen.add(x);
      if (x.attrs.get(KIND)?.value === 'TOOL') top = x;
    }
    return top;
  };
  const runs = new Map<Span, Run | undefined>();
  const byRun = new Map<string, Run>();
  const shown = new Map<string, string>();
  const runOf = (agent: Span): Run | undefined => {
    // The agents above, each with its caller, up to one already read (iterative: the nesting may be deep).
    const chain: { agent: Span; above?: Above }[] = [];
    const seen = new Set<Span>();
    for (let a: Span | undefined = agent; a && !runs.has(a) && !seen.has(a); ) {
      seen.add(a);
      const above = callerAbove(a);
      chain.push({ agent: a, ...(above && { above }) });
      a = above?.found;
    }
    for (const { agent: a, above } of chain.reverse()) {
      if (!above) {
        runs.set(a, undefined);
        continue;
      }
      const name = str(a.attrs.get('agent.name')) || a.name || 'agent';
      // One run per agent name and what it was started under — its caller's tool call, else the span just below its caller: the
      // steps of one agent (LangGraph's `agent` node, an AGENT span per model call) are one conversation, two calls of the same
      // sub-agent (two `call_subagent`, two `execute_tool` of one model response) two.
      const via = toolUnder(a) ?? above.via;
      const k = `${key(via.trace, via.id)}\u0000${name}`;
      let run = byRun.get(k);
      if (!run) {
        let label = `${name} ${via.id}`;
        if (shown.has(label) && shown.get(label) !== k) label += ` in trace ${via.trace}`;
        shown.set(label, k);
        const parent = runs.get(above.found);
        run = { conversation: { by: SUB_AGENT, key: label }, ...(parent && { parent }) };
        byRun.set(k, run);
      }
      runs.set(a, run);
    }
    return runs.get(agent);
  };
  return (llm) => {
    const a = agentAbove(llm)?.found;
    return a && runOf(a);
  };
}

/** A whole number of tokens, or an error at the attribute. */
function count(span: Span, key: string, file: string, errors: InputError[]): number | undefined {
  const a = span.attrs.get(key);
  if (!a) return undefined;
  if (typeof a.value === 'number' && Number.isInteger(a.value) && a.value >= 0) return a.value;
  errors.push({
    pos: chunkPos(span.chunk, a.at, file),
    message: `\`${key}\` must be a whole number of tokens (0 or more), got ${JSON.stringify(a.value)?.slice(0, 80)}`,
    fix: 'record it as an integer attribute, as the instrumentation does',
  });
  return undefined;
}

/** The measured usage of a span (see the header), or why there is none. */
function usageOf(span: Span, file: string, errors: InputError[]): { measured?: MeasuredUsage; note?: string } {
  const before = errors.length;
  const prompt = count(span, OI_USAGE.prompt, file, errors);
  const read = count(span, OI_USAGE.cacheRead, file, errors);
  const write = count(span, OI_USAGE.cacheWrite, file, errors);
  const output = count(span, OI_USAGE.completion, file, errors);
  if (errors.length > before) return {};
  const detail = read !== undefined || write !== undefined;
  if (prompt === undefined) {
    if (detail)
      errors.push({
        pos: chunkPos(span.chunk, span.attrs.get(read !== undefined ? OI_USAGE.cacheRead : OI_USAGE.cacheWrite)!.at, file),
        message: `this span has a cache token count but no \`${OI_USAGE.prompt}\``,
        fix: `record ${OI_USAGE.prompt} with its details, or none of the token counts`,
      });
    return {};
  }
  if (!detail) return { note: AMBIGUOUS_USAGE };
  if ((read ?? 0) + (write ?? 0) > prompt) {
    errors.push({
      pos: chunkPos(span.chunk, span.attrs.get(OI_USAGE.prompt)!.at, file),
      message: `\`${OI_USAGE.prompt}\` (${prompt}) is less than the cache read + write tokens (${(read ?? 0) + (write ?? 0)}): it cannot be the whole prompt the details are part of`,
      fix: `record the whole prompt in ${OI_USAGE.prompt} (uncached, read and written tokens: the count the details are part of), or leave the details out`,
    });
    return {};
  }
  return { measured: measuredFrom(prompt, read, write, output) };
}

/** Attributes under a prefix, by their numeric index, in index order; a gap is an error. */
function indexed(span: Span, re: RegExp, what: string, file: string, errors: InputError[]): Map<number, Map<string, Attr>> {
  const by = new Map<number, Map<string, Attr>>();
  for (const [k, a] of span.attrs) {
    const m = re.exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    if (!by.has(i)) by.set(i, new Map());
    by.get(i)!.set(m[2] ?? '', a);
  }
  const sorted = new Map([...by].sort((x, y) => x[0] - y[0]));
  let n = 0;
  for (const [i, fields] of sorted) {
    if (i !== n) {
      errors.push({
        pos: chunkPos(span.chunk, [...fields.values()][0]!.at, file),
        message: `${what} ${i} is recorded but ${what} ${n} is not: a flattened list is numbered from 0 without gaps`,
        fix: FIX,
      });
      return new Map();
    }
    n++;
  }
  return sorted;
}

const str = (a: Attr | undefined): string | undefined => (a && typeof a.value === 'string' ? a.value : undefined);

/** A tool call's arguments: the JSON they are, else the text as recorded. */
function args(a: Attr | undefined): unknown {
  const text = str(a);
  if (text === undefined) return undefined;
  const parsed = jsonAttribute(text);
  return 'value' in parsed ? parsed.value : text;
}

/** One input message → a GenAI message `{role, parts}`, with where each part came from. */
function message(span: Span, i: number, fields: Map<string, Attr>, file: string, errors: InputError[]): { msg: Obj; from: Path[]; roleAt: Path } | undefined {
  const first = [...fields.values()][0]!.at;
  const role = str(fields.get('role'));
  if (!role) {
    errors.push({ pos: chunkPos(span.chunk, fields.get('role')?.at ?? first, file), message: `\`llm.input_messages.${i}.message.role\` is missing or not text`, fix: FIX });
    return undefined;
  }
  const parts: Obj[] = [];
  const from: Path[] = [];
  const content = fields.get('content');
  const callId = str(fields.get('tool_call_id'));
  const name = str(fields.get('name'));
  if (role === 'tool' && content && content.value !== null) {
    parts.push({ type: 'tool_call_response', ...(callId !== undefined && { id: callId }), ...(name !== undefined && { name }), response: content.value });
    from.push(content.at);
  } else if (content && content.value !== null && content.value !== undefined) {
    if (typeof content.value !== 'string') {
      errors.push({ pos: chunkPos(span.chunk, content.at, file), message: `\`llm.input_messages.${i}.message.content\` must be text`, fix: FIX });
      return undefined;
    }
    parts.push({ type: 'text', content: content.value });
    from.push(content.at);
  }
  const sub = new Map<string, Map<number, Map<string, Attr>>>();
  for (const [k, a] of fields) {
    const m = PART.exec(k);
    if (!m) continue;
    const list = sub.get(m[1]!) ?? new Map<number, Map<string, Attr>>();
    sub.set(m[1]!, list);
    const j = Number(m[2]);
    if (!list.has(j)) list.set(j, new Map());
    list.get(j)!.set(m[3]!, a);
  }
  for (const kind of ['contents', 'tool_calls'] as const) {
    for (const [, f] of [...(sub.get(kind) ?? new Map<number, Map<string, Attr>>())].sort((x, y) => x[0] - y[0])) {
      const at = [...f.values()][0]!.at;
      if (kind === 'contents') {
        const type = str(f.get('message_content.type')) ?? 'text';
        const text = str(f.get('message_content.text'));
        if (type === 'text' || type === 'reasoning') parts.push({ type, content: text ?? '' });
        else if (type === 'image') parts.push({ type: 'uri', modality: 'image', uri: str(f.get('message_content.image.image.url')) ?? '' });
        else if (type === 'tool_use')
          parts.push({
            type: 'tool_call',
            ...(str(f.get('tool_call.id')) && { id: str(f.get('tool_call.id')) }),
            name: str(f.get('tool_call.function.name')) ?? '',
            arguments: args(f.get('tool_call.function.arguments')) ?? null,
          });
        else parts.push({ type, ...(text !== undefined && { content: text }) });
        from.push(f.get('message_content.text')?.at ?? at);
      } else {
        parts.push({
          type: 'tool_call',
          ...(str(f.get('tool_call.id')) && { id: str(f.get('tool_call.id')) }),
          name: str(f.get('tool_call.function.name')) ?? '',
          arguments: args(f.get('tool_call.function.arguments')) ?? null,
        });
        from.push(at);
      }
    }
  }
  return { msg: { role, parts }, from, roleAt: fields.get('role')!.at };
}

/** A tool's JSON schema → a GenAI tool definition (`{type: "function", name, description, parameters}`). */
function tool(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const f = isObject(schema.function) ? schema.function : undefined;
  if (f)
    return { type: 'function', name: f.name, ...(f.description !== undefined && { description: f.description }), ...(f.parameters !== undefined && { parameters: f.parameters }) };
  if ('input_schema' in schema && typeof schema.name === 'string')
    return { type: 'function', name: schema.name, ...(schema.description !== undefined && { description: schema.description }), parameters: schema.input_schema };
  return schema;
}

/** What a request rebuilt from a span's flattened attributes does not record. */
export const BODY_UNRECORDED =
  'the request body as sent (its messages and tools are rebuilt from the span’s flattened attributes; the request parameters in `llm.invocation_parameters` are not carried over)';

/** Keyword arguments of the Python SDKs' `create` that are request options, not body fields (`extra_body`'s fields are merged into the body, as the SDKs send them). */
const SDK_OPTIONS = new Set(['extra_headers', 'extra_query', 'extra_body', 'timeout', 'betas']);

/**
 * The request body a span records whole in `input.value` (see the header: the Anthropic and OpenAI
 * instrumentations), in its provider's format: a JSON object (`input.mime_type`
 * `application/json`) that names its model and that a provider adapter reads as its body (detect.ts),
 * narrowed to the span's provider (`llm.provider`, else `llm.system`, as the adapters name theirs).
 * Anything else there — a chain's input, a prompt string, the Responses API's `input` alone, a
 * redacted value — is not a body, and the span is read from its flattened attributes.
 */
function recordedBody(span: Span): { body: Obj; format: RequestFormat; at: Path } | undefined {
  const v = span.attrs.get('input.value');
  if (!v || typeof v.value !== 'string' || str(span.attrs.get('input.mime_type')) !== 'application/json') return undefined;
  const parsed = jsonAttribute(v.value);
  if (!('value' in parsed) || !isObject(parsed.value)) return undefined;
  const { extra_body: extra, ...rest } = parsed.value;
  const body: Obj = { ...Object.fromEntries(Object.entries(rest).filter(([k]) => !SDK_OPTIONS.has(k))), ...(isObject(extra) ? extra : {}) };
  if (typeof body.model !== 'string' || body.model === '') return undefined;
  const fits = candidates(body);
  if ('problem' in fits) return undefined;
  const provider = str(span.attrs.get('llm.provider')) ?? str(span.attrs.get('llm.system'));
  const named = provider ? formatsOfProvider(provider.toLowerCase()) : undefined;
  const allowed = named ? fits.filter((f) => named.includes(f)) : fits;
  if (!allowed.length) return undefined;
  return { body, format: tieBreak(allowed, [body]), at: v.at };
}

function modelOf(span: Span): string | undefined {
  const req = str(span.attrs.get('llm.request.model_name'));
  if (req) return req;
  const params = str(span.attrs.get('llm.invocation_parameters'));
  if (params) {
    const p = jsonAttribute(params);
    if ('value' in p && isObject(p.value) && typeof p.value.model === 'string' && p.value.model !== '') return p.value.model;
  }
  const name = str(span.attrs.get('llm.model_name'));
  return name || undefined;
}

export const openinference: Capture = {
  id: 'openinference',
  title: 'OpenInference spans export',
  // Each request says what it lacks: none where the span records its body (`input.value`), else the body and its markers.
  missing: [],

  detect(chunks) {
    if (chunks.every((c) => 'resourceSpans' in c.value)) {
      const spans = chunks.flatMap((c) => spansOf(c.value, []));
      return spans.some((s) => s.attributes.has(KIND)) && !spans.some((s) => s.attributes.has('gen_ai.input.messages'));
    }
    const spans = chunks.map((c) => spanObjects(c.value).map((x) => x.span));
    return spans.every((list) => list.length > 0 && list.every(isSpanObject)) && spans.some((list) => list.some(isOpenInferenceSpan));
  },

  requests(chunks, file, errors, leftOut) {
    const all = spansIn(chunks, file, errors);
    const spans = all.filter((s) => s.attrs.get(KIND)?.value === 'LLM');
    const recorded = new Map(spans.map((s) => [s, recordedBody(s)]));
    const withMessages = new Set(spans.filter((s) => [...s.attrs.keys()].some((k) => MESSAGE.test(k))));
    // Bodies as sent where every call records its own, in one format (a scenario shows one provider's requests); else every call rebuilt.
    const calls = spans.filter((s) => recorded.get(s) || withMessages.has(s));
    const formats = new Set(calls.map((s) => recorded.get(s)?.format));
    const whole = calls.length > 0 && formats.size === 1 && !formats.has(undefined);
    const llm = whole ? calls : spans.filter((s) => withMessages.has(s));
    const requested = new Set(llm);
    const lineOf = (s: Span) => chunkPos(s.chunk, s.at, file).line;
    for (const s of all) {
      const kind = s.attrs.get(KIND)?.value;
      if (kind !== 'LLM') leftOut.add(typeof kind === 'string' ? `${kind} spans` : 'spans without a span kind', 'not model calls: only LLM spans record a request', lineOf(s));
    }
    if (!llm.length && !errors.length) {
      errors.push({
        pos: { file, line: chunks[0]?.line ?? 1, col: 1 },
        message: `no LLM span records its input messages (\`llm.input_messages.*\`; ${spans.length} LLM span${spans.length === 1 ? '' : 's'} read)`,
        fix: 'turn off OPENINFERENCE_HIDE_INPUTS / OPENINFERENCE_HIDE_INPUT_MESSAGES in the instrumentation, so LLM spans record their input messages',
      });
    }
    const timed = llm.filter((s) => s.startMs !== undefined).length;
    if (timed && timed < llm.length) {
      const s = llm.find((x) => x.startMs === undefined)!;
      errors.push({
        pos: chunkPos(s.chunk, s.badStart ?? s.at, file),
        message: s.badStart ? '`start_time` is not an ISO-8601 instant' : 'this span has no `start_time`, but others have',
        fix: 'give every span its start time as recorded, e.g. "2026-12-01T10:15:00.000Z"',
      });
      return [];
    }
    llm.sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const runOf = subAgentRuns(all);
    /** The conversation a call belongs to — its session's, or a sub-agent run's in it (see the header), when the session is named — and the one that run was started from. */
    const placeOf = (span: Span): { conversation?: Conversation; parent?: Conversation } => {
      const session = str(span.attrs.get('session.id'));
      const user = str(span.attrs.get('user.id'));
      const main: Conversation | undefined = session ? { by: 'session.id', key: session } : user ? { by: 'user.id', key: user } : undefined;
      const run = main && runOf(span);
      const conversation = run?.conversation ?? main;
      const parent = run && (run.parent?.conversation ?? main);
      return { ...(conversation && { conversation }), ...(parent && { parent }) };
    };
    // Model calls made, with nothing to rebuild them from: said on their conversation's page too.
    for (const s of spans)
      if (!requested.has(s)) {
        const { conversation } = placeOf(s);
        leftOut.add(
          'LLM spans without `llm.input_messages`',
          'model calls recorded without their input: nothing to rebuild them from',
          lineOf(s),
          1,
          conversation ? { conversation } : {},
        );
      }
    const out: CapturedRequest[] = [];
    for (const span of llm) {
      const { conversation, parent } = placeOf(span);
      const c = span.chunk;
      const sent = whole && recorded.get(span);
      if (sent) {
        const before = errors.length;
        const usage = usageOf(span, file, errors);
        if (errors.length > before) continue;
        out.push({
          chunk: c,
          at: span.at,
          offset: out.length + 1,
          body: sent.body,
          format: sent.format,
          ...(span.startMs !== undefined && { timestampMs: span.startMs }),
          ...(usage.measured && { measured: usage.measured }),
          ...(usage.note && { note: usage.note }),
          ...(conversation && { conversation }),
          ...(parent && { parent }),
          assembled: true,
          // A path inside the body is inside `input.value`'s JSON text: the attribute is where it is.
          origin: () => ({ chunk: c, at: sent.at }),
        });
        continue;
      }
      const before = errors.length;
      const model = modelOf(span);
      if (!model)
        errors.push({
          pos: chunkPos(span.chunk, span.at, file),
          message: 'this LLM span names no model (`llm.request.model_name`, `llm.invocation_parameters`’ `model` or `llm.model_name`)',
          fix: 'record the model on LLM spans (llm.model_name)',
        });
      const messages: Obj[] = [];
      const from: Path[][] = [];
      const roles: Path[] = [];
      for (const [i, fields] of indexed(span, MESSAGE, 'input message', file, errors)) {
        const m = message(span, i, fields, file, errors);
        if (!m) continue;
        messages.push(m.msg);
        from.push(m.from);
        roles.push(m.roleAt);
      }
      const tools: unknown[] = [];
      const toolAt: Path[] = [];
      for (const [i, fields] of indexed(span, TOOL, 'tool', file, errors)) {
        const a = fields.get('')!;
        const parsed = typeof a.value === 'string' ? jsonAttribute(a.value) : { value: a.value };
        if ('problem' in parsed) {
          errors.push({
            pos: chunkPos(span.chunk, a.at, file),
            message: `\`llm.tools.${i}.tool.json_schema\`: ${parsed.problem}`,
            fix: 'record the tool’s JSON schema as JSON text',
          });
          continue;
        }
        tools.push(tool(parsed.value));
        toolAt.push(a.at);
      }
      const usage = usageOf(span, file, errors);
      if (errors.length > before || !model) continue;
      out.push({
        chunk: c,
        at: span.at,
        offset: out.length + 1,
        body: { model, input_messages: messages, ...(tools.length && { tool_definitions: tools }) },
        format: 'otel-genai',
        unrecorded: [BODY_UNRECORDED, MARKERS_UNRECORDED],
        ...(span.startMs !== undefined && { timestampMs: span.startMs }),
        ...(usage.measured && { measured: usage.measured }),
        ...(usage.note && { note: usage.note }),
        ...(conversation && { conversation }),
        ...(parent && { parent }),
        messages,
        assembled: true,
        origin: (path) => {
          const [field, i, , k] = path;
          if (typeof i !== 'number') return undefined;
          if (field === 'input_messages') {
            const at = typeof k === 'number' ? from[i]?.[k] : roles[i];
            return at && { chunk: c, at };
          }
          if (field === 'tool_definitions') return toolAt[i] && { chunk: c, at: toolAt[i]! };
          return undefined;
        },
      });
    }
    return out;
  },
};
