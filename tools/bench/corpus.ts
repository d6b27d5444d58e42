/**
 * The synthetic scenario corpus for `npm run bench` (deterministic, seeded): N native-YAML scenario
 * files for the context-protocol fold, each with about E events and R requests and prompts of a
 * realistic size — a birth `sections:` batch and a project AGENTS.md of a few hundred words each,
 * user turns, assistant replies (some with a script fence), settlements, token-usage reports,
 * script runs whose developer results come back as agent-loop triggers, keyed re-adds, summary
 * updates, one ~4,000-token blob in every third scenario (a test log or source file, as a script
 * result or as a pasted file when that turn runs no script) — and annotations
 * on most requests, anchored to text the request is sure to contain (so the build's stale-anchor
 * check passes). Scenario i is the same whatever N is, so N = 100 holds N = 10's files.
 *
 * The files are returned as texts; the caller writes them to a temporary project, never to
 * scenarios/.
 */
import { stringify } from 'yaml';
import { formatElapsed } from '../../src/scenarios/time.ts';
import { blob, paragraph, prose, Rng, sentence, title } from './text.ts';

export interface CorpusOptions {
  /** Number of scenarios. */
  scenarios: number;
  /** Events per scenario (after `sections:` batches are expanded). Default 60. */
  events?: number;
  /** Requests per scenario. Default 6. */
  requests?: number;
  seed?: number;
}

export interface CorpusFile {
  /** File name inside scenarios/. */
  name: string;
  text: string;
}

export interface GeneratedCorpus {
  files: CorpusFile[];
  events: number;
  requests: number;
  annotations: number;
  /** Size of the scenario files in bytes. */
  bytes: number;
}

const MODEL = 'openai/gpt-5.6-terra';

interface EventEntry {
  off: number;
  t: string;
  type: string;
  payload: Record<string, unknown>;
  note?: string;
}

interface AnnotationEntry {
  request: string;
  find: string;
  comment: string;
}

/** One scenario: its YAML text and counts. */
function scenario(index: number, opts: Required<Omit<CorpusOptions, 'scenarios'>>): { name: string; text: string; events: number; requests: number; annotations: number } {
  const rng = new Rng((opts.seed * 1_000_003 + index * 7_919) >>> 0);
  const id = `bench-${String(index).padStart(4, '0')}`;
  const area = title(rng);
  const events: EventEntry[] = [];
  const annotations: AnnotationEntry[] = [];
  let expanded = 0;
  let off = 0;
  let ms = 0;
  const add = (type: string, payload: Record<string, unknown>, stepMs: number, note?: string, size = 1): number => {
    ms += stepMs;
    off += 1;
    const at = off;
    events.push({ off: at, t: formatElapsed(ms), type, payload, ...(note !== undefined && { note }) });
    off += size - 1;
    expanded += size;
    return at;
  };

  add('agent/created', { streamPath: `/agents/web/${id}`, createdBy: 'user:web' }, 0, 'the agent exists; nothing here reaches the prompt');
  add('agent/configured', { config: { llmRequestDebounceMs: 45_000 } }, 0);
  const sections = ['identity', 'reply-format', 'scripts', 'repo-workflow'].map((key) => ({ key, content: prose(rng, rng.int(150, 400)) }));
  off = 9;
  add('agents/context-added', { role: 'system', sections }, 0, `birth batch: ${sections.length} keyed sections, one atomic append`, sections.length);
  const agentsMd = add('agents/context-added', { role: 'system', key: 'project/agents-md', content: `Project AGENTS.md (rev 1):\n${prose(rng, rng.int(250, 450))}` }, 1_200);
  off = 19;

  const blobCycle = index % 3 === 0 ? rng.int(0, Math.max(0, opts.requests - 2)) : -1;
  // Fixed events per request cycle: trigger, request, usage, reply, settlement + 2 more (script run
  // requested/settled, whose result triggers the next cycle; or a keyed re-add + a summary update).
  // Token-usage filler pads the scenario to E events.
  const perCycle = 7;
  let filler = Math.max(0, opts.events - expanded - opts.requests * perCycle);
  let trigger: 'user' | { executionId: string; output: string; blob: boolean } = 'user';
  let rev = 1;
  for (let r = 0; r < opts.requests; r++) {
    let anchor: AnnotationEntry | undefined;
    if (trigger === 'user') {
      const ticket = `${area.toUpperCase()}-${index}-${r + 1}`;
      const content = `${sentence(rng, 6, 14).replace(/\.$/, '')} (ticket ${ticket}). ${sentence(rng, 6, 16)}`;
      add('agents/context-added', { role: 'user', content, actor: { type: 'user', origin: 'web' } }, rng.int(30_000, 600_000));
      anchor = { request: '', find: `ticket ${ticket}`, comment: 'the user turn that triggered this request — an external trigger' };
    } else {
      add(
        'agents/context-added',
        { role: 'developer', content: `Script result (${trigger.executionId}):\n${trigger.output}`, actor: { type: 'script', executionId: trigger.executionId } },
        0,
        trigger.blob ? 'a ~4,000-token script result: it stays in every later prompt' : undefined,
      );
      anchor = { request: '', find: `Script result (${trigger.executionId}):`, comment: 'a script result is an agent-loop trigger: no person asked for this request' };
    }
    const request = add('agent/llm-request-requested', { model: MODEL, contractVersion: '7.0.0' }, 300);
    if (rng.chance(0.85)) {
      anchor.request = `@${request}`;
      annotations.push(anchor);
      if (r === 0)
        annotations.push({ request: `@${request}`, find: '<section key="repo-workflow">', comment: 'the standing document: every later request starts with these bytes' });
    }
    add('agent/token-usage-reported', { inputTokens: rng.int(4_000, 40_000), outputTokens: rng.int(100, 1_500) }, 0);
    const script = r + 1 < opts.requests && rng.chance(0.5);
    const executionId = `exec-${rng.hex(6)}`;
    const code = `const run = await itx.workspace.exec("pnpm vitest run src/${area.toLowerCase()}", { cwd: "/repos/harbor" });\nreturn run.stdout;`;
    const reply = script ? `${paragraph(rng, 2)}\n\`\`\`ts\n${code}\n\`\`\`` : prose(rng, rng.int(40, 160));
    add('agents/context-added', { role: 'assistant', llmRequestOffset: request, content: reply }, rng.int(5_000, 90_000));
    add('agent/llm-request-settled', { requestOffset: request, result: { status: 'succeeded', text: reply } }, 0);
    if (script) {
      add('capability-host/script-run-requested', { executionId, code }, 0);
      const output = r === blobCycle ? blob(rng, 4_000) : sentence(rng, 8, 30);
      add('capability-host/script-run-settled', { executionId, settlement: { status: 'succeeded', result: { exitCode: 0, bytes: output.length } } }, rng.int(2_000, 60_000));
      trigger = { executionId, output, blob: output.length > 10_000 };
    } else {
      if (blobCycle === r) {
        // No script this turn: the blob arrives as a pasted document in the next user turn instead.
        add(
          'agents/context-added',
          { role: 'user', content: `Here is the current file:\n${blob(rng, 4_000)}`, actor: { type: 'user', origin: 'web' }, llmRequestPolicy: 'dont-trigger-request' },
          5_000,
          'a ~4,000-token paste that does not trigger a request by itself',
        );
      } else {
        rev++;
        add(
          'agents/context-added',
          { role: 'system', key: 'project/agents-md', content: `Project AGENTS.md (rev ${rev}):\n${prose(rng, rng.int(250, 450))}` },
          rng.int(10_000, 120_000),
          `AGENTS.md rev ${rev}: a sent key re-added — it supersedes @${agentsMd} at the tail`,
        );
      }
      add('agent/summary-updated', { summary: sentence(rng) }, 0);
      trigger = 'user';
    }
    for (let k = r === opts.requests - 1 ? filler : rng.chance(0.4) ? Math.min(1, filler) : 0; k > 0; k--) {
      add('agent/token-usage-reported', { inputTokens: rng.int(4_000, 40_000), outputTokens: rng.int(100, 1_500) }, 0);
      filler--;
    }
  }
  const doc = {
    id,
    title: `Bench ${index}: ${area.toLowerCase()} work over ${opts.requests} requests`,
    intro: `${paragraph(rng, 3)}\n\n${paragraph(rng, 2)}`,
    events,
    annotations,
  };
  const text = stringify(doc, { lineWidth: 0 });
  const requests = events.filter((e) => e.type === 'agent/llm-request-requested').length;
  return { name: `${id}.yaml`, text, events: expanded, requests, annotations: annotations.length };
}

export function generateCorpus(opts: CorpusOptions): GeneratedCorpus {
  const full = { events: opts.events ?? 60, requests: opts.requests ?? 6, seed: opts.seed ?? 1 };
  const files: CorpusFile[] = [];
  let events = 0;
  let requests = 0;
  let annotations = 0;
  let bytes = 0;
  for (let i = 0; i < opts.scenarios; i++) {
    const s = scenario(i, full);
    files.push({ name: s.name, text: s.text });
    events += s.events;
    requests += s.requests;
    annotations += s.annotations;
    bytes += Buffer.byteLength(s.text);
  }
  return { files, events, requests, annotations, bytes };
}
