/**
 * Amazon Bedrock calls in HTTP recordings (cassettes, HAR): the Runtime API's four chat operations,
 * `POST /model/{modelId}/converse`, `/converse-stream`, `/invoke` and `/invoke-with-response-stream`
 * (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html and
 * API_runtime_InvokeModel.html, "Request Syntax", read 2026-12-06), on any host (a gateway keeps the
 * path). The model is the path's `modelId`: a base model id (`anthropic.claude-sonnet-4-5-20250929-v1:0`),
 * an inference profile id (`global.…`, `us.…`) or either's ARN
 * (`arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.…-v1:0`; API_InferenceProfileSummary.html:
 * ids match `[a-zA-Z0-9-:.]+`, ARNs end `:(inference-profile|application-inference-profile)/<id>`).
 * So the id holds `:` and, as an ARN, `/`: the SDKs percent-encode it into one path segment
 * (`…-v1%3A0`, `…%2Fus.…`), a hand-written URL may not. The model is everything between `/model/` and
 * the operation, decoded. A streamed response is AWS's binary event stream
 * (`application/vnd.amazon.eventstream`), not server-sent events: its usage is not read.
 */
import { decodedSegment } from '../shared/url.ts';
import type { RecordedCalls } from '../types.ts';

const CALL = /\/model\/(.+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;

export const bedrockRecorded: RecordedCalls = {
  claims(url) {
    const m = CALL.exec(url.pathname);
    return m ? { model: decodedSegment(m[1]!) } : undefined;
  },
};
