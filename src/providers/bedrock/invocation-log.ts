/**
 * Amazon Bedrock model-invocation logs: the JSON records Bedrock writes to S3 or CloudWatch Logs
 * when model invocation logging is on — one record per call: `schemaType: "ModelInvocationLog"`,
 * `timestamp`, `operation` (Converse, ConverseStream, InvokeModel, InvokeModelWithResponseStream),
 * `modelId` (an inference profile, a model id or an ARN), `input` (`inputBodyJson`: the request
 * body — a Converse request, or for Claude an Anthropic Messages body with `anthropic_version`;
 * `inputTokenCount`) and `output` (`outputBodyJson`: the response, with its `usage`;
 * `outputTokenCount`). Record shape: docs.aws.amazon.com/bedrock/latest/userguide/model-invocation-logging.html
 * (read 2026-12-06 in records quoted by public repositories; their fixtures were read, not copied).
 *
 * Each record is the call its body is, in the bedrock-converse format with the record's `modelId`
 * added (the body does not carry it: Bedrock takes it in the URL), billed by the response's `usage`.
 * Left out, and said: a record of another operation, a record whose body went to S3 as a
 * large-data object (no `inputBodyJson`), a body that is neither a Converse request nor a Claude
 * Messages body (another model's InvokeModel body). A streamed response's usage is spread over its
 * events: not read, and the request says so. The import reads the log through the adapter's `log`
 * (src/import/captures/provider-log.ts).
 */
import { isObject, type Obj } from '../shared/normalise.ts';
import type { ProviderLog } from '../types.ts';

const OPERATIONS = new Set(['Converse', 'ConverseStream', 'InvokeModel', 'InvokeModelWithResponseStream']);

/** `inputBodyJson` / `outputBodyJson` as an object: some writers store it as a JSON string. */
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

export const bedrockInvocationLog: ProviderLog = {
  id: 'bedrock-invocation-log',
  title: 'Amazon Bedrock model-invocation log',
  isRecord: (r) => r.schemaType === 'ModelInvocationLog',
  read(r) {
    if (typeof r.operation !== 'string' || !OPERATIONS.has(r.operation))
      return {
        leftOut: { what: `\`${String(r.operation)}\` records`, why: 'not a model call this import reads (Converse, ConverseStream, InvokeModel, InvokeModelWithResponseStream)' },
      };
    if (typeof r.modelId !== 'string' || r.modelId === '')
      return { problem: { path: [], message: 'this invocation log record has no `modelId`', fix: 'import the records as Bedrock wrote them (each names its modelId)' } };
    const input = isObject(r.input) ? r.input : {};
    const body = bodyOf(input.inputBodyJson);
    if (!body)
      return {
        leftOut: {
          what: 'records without an `inputBodyJson`',
          why: 'the body was delivered to S3 as a large-data object (inputBodyS3Path) or text delivery is off: download the object, or turn on text data delivery',
        },
      };
    if (!Array.isArray(body.messages))
      return { leftOut: { what: 'records of a non-chat body', why: 'neither a Converse request nor a Claude Messages body (another model family’s InvokeModel body)' } };
    const output = isObject(r.output) ? r.output : {};
    const response = bodyOf(output.outputBodyJson);
    const usage = response && isObject(response.usage) ? response.usage : undefined;
    const ms = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : Number.NaN;
    return {
      call: {
        body: { ...body, modelId: r.modelId },
        at: ['input', 'inputBodyJson'],
        ...(Number.isFinite(ms) && { timestampMs: ms }),
        ...(usage
          ? { usage: { value: usage, at: ['output', 'outputBodyJson', 'usage'] } }
          : { note: r.operation.endsWith('Stream') ? 'a streamed response: its usage is spread over the stream’s events, not read' : 'the record carries no response usage' }),
      },
    };
  },
};
