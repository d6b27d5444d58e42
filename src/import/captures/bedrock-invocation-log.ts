/**
 * Amazon Bedrock model-invocation logs: the JSON records Bedrock writes to S3 or
 * CloudWatch Logs when model invocation logging is on — one record per call: `schemaType:
 * "ModelInvocationLog"`, `timestamp`, `operation` (Converse, ConverseStream, InvokeModel,
 * InvokeModelWithResponseStream), `modelId` (an inference profile, a model id or an ARN), `input`
 * (`inputBodyJson`: the request body — a Converse request, or for Claude an Anthropic Messages body
 * with `anthropic_version`; `inputTokenCount`) and `output` (`outputBodyJson`: the response, with
 * its `usage`; `outputTokenCount`). Record shape: docs.aws.amazon.com/bedrock/latest/userguide/model-invocation-logging.html
 * (read 2026-12-06 in records quoted by public repositories; their fixtures were read, not copied).
 *
 * Each record becomes the request its body is, in the bedrock-converse format with the record's
 * `modelId` added (the body does not carry it: Bedrock takes it in the URL), billed by the response's
 * `usage`. Left out, and said: a record whose body went to S3 as a large-data object (no
 * `inputBodyJson`), a body that is neither a Converse request nor a Claude Messages body (another
 * model's InvokeModel body), a streamed response (its usage is spread over events: not read).
 */
import { isObject, type Chunk } from '../read.ts';
import type { InputError } from '../../scenarios/errors.ts';
import type { LeftOutTally } from '../left-out.ts';
import type { Capture, CapturedRequest } from './types.ts';

const OPERATIONS = new Set(['Converse', 'ConverseStream', 'InvokeModel', 'InvokeModelWithResponseStream']);

type Obj = Record<string, unknown>;

/** `inputBodyJson` as an object: some writers store it as a JSON string. */
function bodyOf(v: unknown): Obj | undefined {
  if (isObject(v)) return v;
  if (typeof v !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export const bedrockInvocationLog: Capture = {
  id: 'bedrock-invocation-log',
  title: 'Amazon Bedrock model-invocation log',
  format: 'bedrock-converse',
  missing: [],
  detect: (chunks) => chunks.every((c) => c.value.schemaType === 'ModelInvocationLog'),
  requests(chunks: readonly Chunk[], file: string, errors: InputError[], leftOut: LeftOutTally): CapturedRequest[] {
    const out: CapturedRequest[] = [];
    for (const c of chunks) {
      const r = c.value;
      if (typeof r.operation !== 'string' || !OPERATIONS.has(r.operation)) {
        leftOut.add(`\`${String(r.operation)}\` records`, 'not a model call this import reads (Converse, ConverseStream, InvokeModel, InvokeModelWithResponseStream)', c.line);
        continue;
      }
      if (typeof r.modelId !== 'string' || r.modelId === '') {
        errors.push({
          pos: { file, line: c.line, col: 1 },
          message: 'this invocation log record has no `modelId`',
          fix: 'import the records as Bedrock wrote them (each names its modelId)',
        });
        continue;
      }
      const input = isObject(r.input) ? r.input : {};
      const body = bodyOf(input.inputBodyJson);
      if (!body) {
        leftOut.add(
          'records without an `inputBodyJson`',
          'the body was delivered to S3 as a large-data object (inputBodyS3Path) or text delivery is off: download the object, or turn on text data delivery',
          c.line,
        );
        continue;
      }
      if (!Array.isArray(body.messages)) {
        leftOut.add('records of a non-chat body', 'neither a Converse request nor a Claude Messages body (another model family’s InvokeModel body)', c.line);
        continue;
      }
      const output = isObject(r.output) ? r.output : {};
      const response = bodyOf(output.outputBodyJson);
      const usage = response && isObject(response.usage) ? response.usage : undefined;
      const streamed = r.operation.endsWith('Stream');
      const ms = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : Number.NaN;
      out.push({
        chunk: c,
        at: ['input', 'inputBodyJson'],
        offset: c.line,
        body: { ...body, modelId: r.modelId },
        ...(Number.isFinite(ms) && { timestampMs: ms }),
        ...(usage && { usage: { value: usage, at: ['output', 'outputBodyJson', 'usage'] } }),
        assembled: true,
        ...(!usage && { note: streamed ? 'a streamed response: its usage is spread over the stream’s events, not read' : 'the record carries no response usage' }),
      });
    }
    return out;
  },
};
