// The one classification of HTTP outcomes (alertmanager notify/util.go): 2xx ok; 429, 5xx retryable; other
// 4xx permanent (a bad payload or a revoked webhook will not get better by retrying).
import { NotifyError } from './notifier.js';

/** Throws the NotifyError for a non-2xx status; returns for 2xx. `what` names the receiver, never its URL. */
export function checkHttpStatus(what: string, status: number, retryAfter?: string | null, nowMs = 0): void {
  if (status >= 200 && status < 300) return;
  const retryable = status === 429 || status >= 500 || status === 408;
  const retryAfterMs = retryable ? parseRetryAfter(retryAfter, nowMs) : undefined;
  throw new NotifyError(
    `${what} answered HTTP ${status}${retryable ? '' : ' (permanent; check the notifier config)'}`,
    {
      retryable,
      retryAfterMs,
      reason: `http_${status}`,
    },
  );
}

/** Retry-After as seconds (`120`) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** A request that got no HTTP answer (refused, reset, timeout, DNS): retryable, with only the error code kept. */
export function networkError(what: string, err: unknown): NotifyError {
  const code = errorCode(err);
  return new NotifyError(`${what} could not be reached (${code})`, { retryable: true, reason: 'network' });
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
