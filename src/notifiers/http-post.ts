// One JSON POST with undici, classified: the shared transport of the webhook, Alertmanager, PagerDuty and Opsgenie
// notifiers. Redirects are not followed (undici's request() never does): a 3xx is reported, not chased to another
// origin. The answer's body is read up to a bound (a receiver cannot make us buffer megabytes) and only ever shown
// through `explain`, neutralised, capped and with the notifier's secrets redacted.
import { request } from 'undici';
import { NotifyError, type SendReceipt } from './notifier.js';
import { checkHttpStatus, networkError } from './http-status.js';
import type { Pacer } from './notifier-kind.js';
import { receiverSaid } from './receiver-said.js';

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
  /** A 429 without a (readable) Retry-After waits this long, when the service documents a pause (PagerDuty). */
  readonly defaultRetryAfterMs?: number;
  /**
   * What the receiver said in a failed answer, from its documented error body (PagerDuty `errors`, Opsgenie
   * `message`); appended to the error message after neutralising, capping and redacting `secrets`.
   */
  readonly explain?: (body: string) => string | undefined;
  /** What to do about a failed answer, in the service's own terms (`check routing_key`), after the advice. */
  readonly hint?: (status: number) => string | undefined;
  /** Values never shown, even when the receiver echoes them (the notifier's secrets). */
  readonly secrets?: readonly string[];
}

/** Bytes of an answer's body kept: enough for any documented error body, never a receiver's megabytes. */
const ANSWER_BYTES = 4096;

export async function httpPost(options: HttpPostOptions): Promise<SendReceipt> {
  await options.pacer?.wait(options.signal);
  let response;
  let text: string;
  try {
    response = await request(options.url, {
      method: 'POST',
      body: options.body,
      headers: { 'content-type': 'application/json', ...options.headers },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: options.signal,
    });
    text = await boundedText(response.body);
  } catch (err) {
    throw networkError(options.what, err);
  }
  const retryAfter = firstHeader(response.headers['retry-after']);
  const secrets = options.secrets ?? [];
  try {
    checkHttpStatus(
      options.what,
      response.statusCode,
      retryAfter ?? defaultRetryAfter(response.statusCode, options.defaultRetryAfterMs),
      options.now(),
      options.maxRetryAfterMs,
    );
  } catch (err) {
    if (!(err instanceof NotifyError)) throw err;
    if (err.retryAfterMs) options.pacer?.pause(err.retryAfterMs, err.askedRetryAfterMs);
    const said = options.explain?.(text);
    const hint = options.hint?.(response.statusCode);
    const message = `${err.message}${said ? ` (the receiver said: ${receiverSaid(said, secrets)})` : ''}`;
    throw said || hint ? new NotifyError(hint ? `${message}; ${hint}` : message, err) : err;
  }
  return { status: response.statusCode, answer: receiverSaid(text, secrets) };
}

async function boundedText(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= ANSWER_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString('utf8');
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function defaultRetryAfter(status: number, ms: number | undefined): string | undefined {
  return status === 429 && ms !== undefined ? String(ms / 1000) : undefined;
}
