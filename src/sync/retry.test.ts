// Tests for retry.ts: transient failures are retried with growing delays, permanent ones are not.
import { describe, expect, it } from 'vitest';
import { backoffDelay, isTransient, RetryExhaustedError, withRetry } from './retry.ts';

const instant = { baseDelayMs: 100, maxDelayMs: 1000, sleep: async () => {} };

function failing(times: number, error: unknown) {
  let calls = 0;
  const op = async () => {
    calls++;
    if (calls <= times) throw error;
    return 'ok';
  };
  return { op, calls: () => calls };
}

describe('withRetry', () => {
  it('retries transient failures until success, reporting each wait', async () => {
    const f = failing(2, Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    const waits: number[] = [];
    await expect(withRetry('put x', f.op, { ...instant, attempts: 5, onRetry: (i) => waits.push(i.delayMs) })).resolves.toBe('ok');
    expect(f.calls()).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it('gives up after the last attempt with the cause', async () => {
    const cause = Object.assign(new Error('service down'), { $metadata: { httpStatusCode: 503 } });
    const f = failing(10, cause);
    const err = await withRetry('put x', f.op, { ...instant, attempts: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryExhaustedError);
    expect((err as Error).message).toBe('put x failed after 3 attempts: service down (HTTP 503)');
    expect((err as Error).cause).toBe(cause);
    expect(f.calls()).toBe(3);
  });

  it('does not retry permanent failures', async () => {
    const f = failing(10, Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }));
    await expect(withRetry('put x', f.op, { ...instant, attempts: 5 })).rejects.toThrow('put x failed after 1 attempt: AccessDenied: Access Denied (HTTP 403)');
    expect(f.calls()).toBe(1);
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt up to the cap, jittered between half and all of it', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, 100, 1000, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([1, 2, 3].map((a) => backoffDelay(a, 100, 1000, () => 0))).toEqual([50, 100, 200]);
  });
});

describe('isTransient', () => {
  it.each([
    [{ $retryable: {} }, true],
    [{ $metadata: { httpStatusCode: 500 } }, true],
    [{ $metadata: { httpStatusCode: 503 } }, true],
    [{ $metadata: { httpStatusCode: 429 } }, true],
    [{ name: 'SlowDown' }, true],
    [{ name: 'TimeoutError' }, true],
    [{ code: 'ETIMEDOUT' }, true],
    [new Error('socket hang up'), true],
    [new Error('wrapped', { cause: { code: 'EPIPE' } }), true],
    [{ $metadata: { httpStatusCode: 403 }, name: 'AccessDenied' }, false],
    [{ $metadata: { httpStatusCode: 404 }, name: 'NoSuchBucket' }, false],
    [{ name: 'CredentialsProviderError' }, false],
    [{ code: 'ENOSPC' }, false],
    ['a string', false],
  ])('%o → %s', (error, expected) => {
    expect(isTransient(error)).toBe(expected);
  });
});
