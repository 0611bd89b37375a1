// One JSON POST with undici that hands back the answer (status, Retry-After, a bounded body) for the notifiers
// that must read the receiver's own error body to classify it (Discord's and Telegram's `retry_after`, Slack
// codes). A request that gets no HTTP answer is classified here (networkError); the caller classifies the rest.
// Redirects are not followed (undici's request() never does).
import { request } from 'undici';
import { checkHttpStatus, networkError } from './http-status.js';
import { NotifyError } from './notifier.js';
import { redact } from './redact.js';
import type { Pacer } from './notifier-kind.js';

/** How much of a receiver's answer is read: error bodies are short; anything longer is cut, never buffered whole. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface HttpExchangeOptions {
  /** Names the receiver in errors; never the URL (it may carry a token). */
  readonly what: string;
  readonly url: string;
  readonly body: string;
  readonly headers?: Record<string, string>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** The receiver's pacer: waited for before the request. */
  readonly pacer?: Pacer;
}

export interface HttpAnswer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  /** The first MAX_ANSWER_BYTES of the body, as text. */
  readonly body: string;
}

export async function httpExchange(options: HttpExchangeOptions): Promise<HttpAnswer> {
  await options.pacer?.wait(options.signal);
  try {
    const response = await request(options.url, {
      method: 'POST',
      body: options.body,
      headers: { 'content-type': 'application/json', ...options.headers },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: options.signal,
    });
    const retryAfter = response.headers['retry-after'];
    return {
      status: response.statusCode,
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      body: await boundedText(response.body),
    };
  } catch (err) {
    throw networkError(options.what, err);
  }
}

async function boundedText(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_ANSWER_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}

/** The answer's body as a JSON object, or undefined (not JSON, cut, or not an object): read tolerantly. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface CheckAnswerOptions {
  readonly now: () => number;
  readonly maxRetryAfterMs: number;
  /** Paused for every notifier on this receiver when it asks for a wait. */
  readonly pacer?: Pacer;
  /** A wait the receiver gave in its body (seconds), preferred to the Retry-After header. */
  readonly retryAfterSeconds?: unknown;
  /** What the receiver said, already reduced to safe words (safeWords): appended to the message. */
  readonly said?: string;
  /** Overrides the classification of a status the service documents differently (e.g. Telegram's 400s). */
  readonly advice?: string;
}

/** Throws the classified NotifyError for a non-2xx answer (checkHttpStatus), pausing the receiver on a wait. */
export function checkAnswer(what: string, answer: HttpAnswer, options: CheckAnswerOptions): void {
  const seconds = options.retryAfterSeconds;
  const retryAfter =
    typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
      ? String(seconds)
      : answer.retryAfter;
  try {
    checkHttpStatus(what, answer.status, retryAfter, options.now(), options.maxRetryAfterMs);
  } catch (err) {
    if (!(err instanceof NotifyError)) throw err;
    if (err.retryAfterMs) options.pacer?.pause(err.retryAfterMs, err.askedRetryAfterMs);
    const message = options.advice
      ? `${what} answered HTTP ${answer.status}: ${options.advice}`
      : err.message;
    throw new NotifyError(options.said ? `${message} (${options.said})` : message, err);
  }
}

/**
 * A receiver's error text reduced to what is safe to show: letters, digits, spaces and a little punctuation, at
 * most `max` characters, the notifier's secrets removed first. Error bodies can echo what was sent (a memo, a URL with its token): anything else goes.
 */
export function safeWords(text: unknown, secrets: readonly string[], max = 80): string | undefined {
  if (typeof text !== 'string' && typeof text !== 'number') return undefined;
  // Secrets go first, on the text as received (afterwards a cut or a replaced character could hide one).
  const words = redact(String(text), secrets)
    .replace(/[^A-Za-z0-9 _.,:'()-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!words) return undefined;
  return words.length > max ? `${words.slice(0, max)}…` : words;
}
