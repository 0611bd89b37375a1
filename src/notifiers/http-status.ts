// The one classification of HTTP outcomes (alertmanager notify/util.go): 2xx ok; 429, 408, 5xx retryable; other
// 4xx permanent (a bad payload or a revoked webhook will not get better by retrying); 3xx permanent too, because
// a receiver URL that redirects is a config to fix, and a redirect is never followed (it could lead the alert and
// its secrets to another origin). Every message says what happened and what to do, never the URL.
import { NotifyError } from './notifier.js';

/** The default and the largest cap on a receiver's Retry-After (notifier key `max_retry_after`). */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** Throws the NotifyError for a non-2xx status; returns for 2xx. `what` names the receiver, never its URL. */
export function checkHttpStatus(
  what: string,
  status: number,
  retryAfter?: string | null,
  nowMs = 0,
  maxRetryAfterMs = DEFAULT_MAX_RETRY_AFTER_MS,
): void {
  if (status >= 200 && status < 300) return;
  const retryable = status === 429 || status >= 500 || status === 408;
  const asked = retryable ? parseRetryAfter(retryAfter, nowMs) : undefined;
  throw new NotifyError(`${what} answered HTTP ${status}: ${statusAdvice(status)}`, {
    retryable,
    ...(asked === undefined
      ? {}
      : { retryAfterMs: Math.min(asked, maxRetryAfterMs), askedRetryAfterMs: asked }),
    reason: `http_${status}`,
  });
}

/** What a non-2xx status means for an alert receiver, and what the operator can do about it. */
export function statusAdvice(status: number): string {
  if (status === 429)
    return 'rate limited; the alert is retried after the Retry-After (capped by max_retry_after)';
  if (status === 408) return 'the receiver timed out reading the request; will retry';
  if (status >= 500 && status < 600) return 'the receiver failed (server error); will retry with backoff';
  if (status >= 300 && status < 400)
    return 'the receiver redirects, and redirects are not followed (permanent; set the final URL in the notifier config)';
  if (status === 401 || status === 403)
    return 'the receiver refused our credentials (permanent; check the URL token, bearer_token or signing_key)';
  if (status === 404 || status === 410)
    return 'no such receiver: the webhook was removed or the URL is wrong (permanent; check the notifier URL)';
  if (status === 413) return 'the receiver rejected the message size (permanent; lower group_max_listed)';
  if (status >= 400 && status < 500)
    return 'the receiver rejected the request (permanent; check the notifier config)';
  if (status >= 100 && status < 200)
    return 'unexpected informational status with no final answer (permanent; check the receiver)';
  return 'not a valid HTTP status (permanent; check that the URL points at the right receiver)';
}

/**
 * Retry-After as seconds (`120`, `1.5`) or an HTTP date, in ms. Tolerant: absent, empty or unreadable values
 * (and lists, negative numbers, dates that fail to parse) give undefined, so the backoff decides; a date in the
 * past gives 0; a huge value is clamped to 1 day here and capped further by the caller.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 64) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return clampMs(Number(trimmed) * 1000);
  // An HTTP date names a weekday and a month; this keeps Date.parse from reading numbers like "-5" or "3600, 60".
  if (!/^[A-Za-z]{3},? /.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : clampMs(date - nowMs);
}

const ONE_DAY_MS = 86_400_000;

function clampMs(ms: number): number {
  if (!Number.isFinite(ms)) return ONE_DAY_MS;
  return Math.min(ONE_DAY_MS, Math.max(0, Math.round(ms)));
}

/** A request that got no HTTP answer (refused, reset, timeout, DNS): retryable, with only the error code kept. */
export function networkError(what: string, err: unknown): NotifyError {
  const code = errorCode(err);
  return new NotifyError(`${what} could not be reached (${code}): ${networkAdvice(code)}`, {
    retryable: true,
    reason: 'network',
  });
}

function networkAdvice(code: string): string {
  if (code === 'TIMEOUT') return 'no answer within the notifier timeout; will retry';
  if (code === 'ECONNREFUSED') return 'nothing listens at that host and port; will retry';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve; will retry';
  return 'the connection failed before an HTTP answer; will retry';
}

/** The first `code` found on an error or its causes (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT, …). */
export function errorCode(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]+$/.test(code)) return code;
    if (current.name === 'AbortError' || current.name === 'TimeoutError') return 'TIMEOUT';
    current = current.cause;
  }
  return 'UNKNOWN';
}
