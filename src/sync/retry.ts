/**
 * Retries with exponential backoff (and jitter) for the target operations of a sync. Only transient
 * failures are retried — network errors, timeouts, throttling, HTTP 5xx/429 — so a wrong bucket or
 * rejected credentials fail at once with the server's message instead of after a minute of waiting.
 * The AWS SDK's own retries are switched off (maxAttempts 1) so this is the one policy, for every
 * target alike.
 *
 * Why not p-retry: the loop is the small part; what matters here is the transient classification
 * (AWS SDK metadata, errno codes) and an injectable `sleep`, which the interruption tests use to
 * run a 5-attempt backoff without real waits — p-retry takes neither.
 */

export interface RetryOptions {
  /** Total attempts, including the first. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Called before each wait; for the log line. */
  onRetry?: (info: { what: string; attempt: number; delayMs: number; error: unknown }) => void;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 5, baseDelayMs: 250, maxDelayMs: 8_000 };

export class RetryExhaustedError extends Error {
  override name = 'RetryExhaustedError';
  readonly attempts: number;
  constructor(what: string, attempts: number, cause: unknown) {
    super(`${what} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${messageOf(cause)}`, { cause });
    this.attempts = attempts;
  }
}

/** Runs `op`, retrying transient failures. Any final failure is a RetryExhaustedError (cause = last error). */
export async function withRetry<T>(what: string, op: () => Promise<T>, options: Partial<RetryOptions> = {}): Promise<T> {
  const o = { ...DEFAULT_RETRY, ...options };
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (error) {
      if (attempt >= o.attempts || !isTransient(error)) throw new RetryExhaustedError(what, attempt, error);
      const delayMs = backoffDelay(attempt, o.baseDelayMs, o.maxDelayMs);
      o.onRetry?.({ what, attempt, delayMs, error });
      await sleep(delayMs);
    }
  }
}

/** base·2^(attempt-1), capped, with "equal jitter" (between half and all of it). */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'InternalError',
  'ServiceUnavailable',
  'NetworkingError',
  'AbortError',
]);
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EBUSY',
  'EAGAIN',
  'EMFILE',
  'ENFILE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Is this failure worth another try? Looks at SDK metadata, HTTP status, error names and errno codes. */
export function isTransient(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const e = error as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; $retryable?: unknown; $metadata?: { httpStatusCode?: unknown } };
  if (e.$retryable) return true;
  const status = e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && (status >= 500 || status === 429 || status === 408)) return true;
  if (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && /socket hang up|ECONNRESET|EPIPE/.test(e.message)) return true;
  return isTransient(e.cause, depth + 1);
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { Code?: unknown; code?: unknown }).Code ?? (error as { code?: unknown }).code;
    const status = (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
    const detail = [typeof code === 'string' && code !== error.name && !error.message.includes(code) ? code : '', typeof status === 'number' ? `HTTP ${status}` : '']
      .filter(Boolean)
      .join(', ');
    return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message || '(no message)'}${detail ? ` (${detail})` : ''}`;
  }
  return String(error);
}
