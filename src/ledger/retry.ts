// Retry policy of the query client: what is retried, how long to wait, and Retry-After.
import { RequestDeadlineError } from './errors.js';

export interface RetryPolicy {
  /** Attempts per request including the first; the retry budget. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  /** Cap on one wait, also applied to Retry-After so a hostile header cannot park a tailer for hours. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 30_000 };

/**
 * `malformed`: a 200 whose body is truncated or not the expected JSON; retried like a reset mid-body.
 * `deadline`: the attempt outlived ledger.timeouts.total (e.g. a body trickled a byte at a time).
 */
export type RetryReason = 'rate-limited' | 'server' | 'timeout' | 'deadline' | 'reset' | 'malformed';
export type NetworkReason = 'timeout' | 'deadline' | 'reset';

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const RESET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Network errors worth another attempt; anything else (including our own typed errors) is not. */
export function classifyNetworkError(err: unknown): NetworkReason | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof RequestDeadlineError) return 'deadline';
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (TIMEOUT_CODES.has(code)) return 'timeout';
    if (RESET_CODES.has(code)) return 'reset';
  }
  return undefined;
}

export function retryReasonForStatus(status: number): RetryReason | undefined {
  if (status === 429) return 'rate-limited';
  return status >= 500 && status <= 599 ? 'server' : undefined;
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base·2^(retry-1))]. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(random() * ceiling);
}

/** Retry-After as delta-seconds or an HTTP-date, in milliseconds from `now`; undefined when absent or bad. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, /.test(text)) return undefined; // an HTTP-date starts with the day name
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before the next attempt: Retry-After when the server sent one, else jittered backoff; capped. */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): number {
  const delay = retryAfterMs ?? backoffDelay(retry, policy, random);
  return Math.min(delay, policy.maxDelayMs);
}
