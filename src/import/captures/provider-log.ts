/**
 * A provider's own log of the calls it served (an adapter's `log`, src/providers/: Bedrock's
 * model-invocation logs) as a capture: one JSON record per line, each read by the adapter into
 * the call it records — its body, time and billed usage — or into something left out (printed with
 * why), or a problem located in the record. The requests are in that adapter's format. One
 * capture per logging provider, named by its log's `id` (`--format`), with no change here when a
 * provider adds a log.
 */
import type { ProviderId as RequestFormat } from '../../providers/registry.ts';
import type { ProviderAdapter, ProviderLog } from '../../providers/types.ts';
import type { InputError } from '../../scenarios/errors.ts';
import type { LeftOutTally } from '../left-out.ts';
import { chunkPos, type Chunk } from '../read.ts';
import type { Capture, CapturedRequest } from './types.ts';

export function providerLogCapture(adapter: ProviderAdapter & { log: ProviderLog }): Capture {
  const { log } = adapter;
  return {
    id: log.id,
    title: log.title,
    format: adapter.id as RequestFormat,
    missing: [],
    detect: (chunks) => chunks.every((c) => log.isRecord(c.value)),
    requests(chunks: readonly Chunk[], file: string, errors: InputError[], leftOut: LeftOutTally): CapturedRequest[] {
      const out: CapturedRequest[] = [];
      for (const c of chunks) {
        const r = log.read(c.value);
        if ('leftOut' in r) {
          leftOut.add(r.leftOut.what, r.leftOut.why, c.line);
          continue;
        }
        if ('problem' in r) {
          errors.push({ pos: chunkPos(c, r.problem.path, file), message: r.problem.message, fix: r.problem.fix });
          continue;
        }
        const { call } = r;
        out.push({
          chunk: c,
          at: call.at,
          offset: c.line,
          body: call.body,
          ...(call.timestampMs !== undefined && { timestampMs: call.timestampMs }),
          ...(call.usage && { usage: { value: call.usage.value, at: call.usage.at } }),
          ...(call.note !== undefined && { note: call.note }),
          assembled: true,
        });
      }
      return out;
    },
  };
}
