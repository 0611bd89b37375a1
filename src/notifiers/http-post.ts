// One JSON POST with undici, classified: the shared transport of the webhook and Alertmanager notifiers.
import { request } from 'undici';
import { checkHttpStatus, networkError } from './http-status.js';

export interface HttpPostOptions {
  /** Names the receiver in errors; never the URL (it may carry a token). */
  readonly what: string;
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly now: () => number;
}

export async function httpPost(options: HttpPostOptions): Promise<void> {
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
  checkHttpStatus(
    options.what,
    response.statusCode,
    Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
    options.now(),
  );
}
