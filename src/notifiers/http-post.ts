// One JSON POST with undici, classified: the shared transport of the webhook and Alertmanager notifiers.
// Redirects are not followed (undici's request() never does): a 3xx is reported, not chased to another origin.
import { request } from 'undici';
import { NotifyError } from './notifier.js';
import { checkHttpStatus, networkError } from './http-status.js';
import type { Pacer } from '../delivery/pacer.js';

export interface HttpPostOptions {
  /** Names the receiver in errors; never the URL (it may carry a token). */
  readonly what: string;
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly now: () => number;
  /** The receiver's pacer (one per URL): its Retry-After pauses every notifier sending there, and only those. */
  readonly pacer?: Pacer;
  /** Cap on the receiver's Retry-After (notifier key max_retry_after). */
  readonly maxRetryAfterMs?: number;
}

export async function httpPost(options: HttpPostOptions): Promise<void> {
  await options.pacer?.wait(options.signal);
  let response;
  try {
    response = await request(options.url, {
      method: 'POST',
      body: options.body,
      headers: { 'content-type': 'application/json', ...options.headers },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: options.signal,
    });
    await response.body.dump();
  } catch (err) {
    throw networkError(options.what, err);
  }
  const retryAfter = response.headers['retry-after'];
  try {
    checkHttpStatus(
      options.what,
      response.statusCode,
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      options.now(),
      options.maxRetryAfterMs,
    );
  } catch (err) {
    if (err instanceof NotifyError && err.retryAfterMs)
      options.pacer?.pause(err.retryAfterMs, err.askedRetryAfterMs);
    throw err;
  }
}
