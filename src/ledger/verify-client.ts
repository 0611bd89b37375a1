// Client of the verification service's POST /session/verify/etherscan (docs/ledger-api.md §18). Answers map to typed
// VerifyErrors; the API key is sent only in the body and is scrubbed from every message, log line and metric.
// Not retried here: a verification POST is a session mutation, so the caller decides (VerifyError.retryable).
import type { Logger } from 'pino';
import { Agent, type Dispatcher } from 'undici';
import { VERSION } from '../version.js';
import { InvalidParameterError, ResponseTooLargeError, VerifyError, type VerifyErrorKind } from './errors.js';
import { sendHttp, type ClientTimeouts, type HttpResponse, type HttpSettings } from './http.js';
import type { LedgerMetrics } from './ledger-request.js';
import { classifyNetworkError } from './retry.js';
import { VerificationResult } from '@ledger-sentinel/ledger-model/schema';

export interface VerifyClientOptions {
  /** e.g. https://sourcify.dev/server */
  readonly baseUrl: string;
  readonly dispatcher?: Dispatcher;
  /** totalMs: the whole attempt, a trickling body included; default 120 s (a verification can be slow). */
  readonly timeouts?: ClientTimeouts;
  readonly maxResponseBytes?: number;
  readonly logger?: Logger;
  readonly metrics?: Pick<LedgerMetrics, 'requests' | 'requestDuration'>;
  readonly clock?: () => number;
  readonly userAgent?: string;
}

export interface VerifyRequest {
  readonly address: string;
  /** Decimal chain id as a string ("295"); the service rejects a JSON number. */
  readonly chainId: string;
  readonly apiKey?: string;
}

export interface VerifyClient {
  verify(request: VerifyRequest, signal?: AbortSignal): Promise<VerificationResult>;
  close(): Promise<void>;
}

const ENDPOINT = 'verify';

export function createVerifyClient(options: VerifyClientOptions): VerifyClient {
  const url = new URL(options.baseUrl);
  const owned =
    options.dispatcher === undefined
      ? new Agent({ connect: { timeout: options.timeouts?.connectMs ?? 5_000 } })
      : undefined;
  const http: HttpSettings = {
    origin: url.origin,
    dispatcher: options.dispatcher ?? (owned as Agent),
    headersTimeoutMs: options.timeouts?.headersMs ?? 60_000,
    bodyTimeoutMs: options.timeouts?.bodyMs ?? 60_000,
    totalTimeoutMs: options.timeouts?.totalMs ?? 120_000,
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
    userAgent: options.userAgent ?? `ledger-sentinel/${VERSION}`,
  };
  const path = `${url.pathname.replace(/\/+$/, '')}/session/verify/etherscan`;
  const log = options.logger?.child({ component: 'verify-client' });
  const clock = options.clock ?? Date.now;

  async function verify(request: VerifyRequest, signal?: AbortSignal): Promise<VerificationResult> {
    const body = JSON.stringify(checkRequest(request));
    const scrub = (text: string) => redact(text, request.apiKey);
    const started = clock();
    let response: HttpResponse;
    try {
      response = await sendHttp(http, { method: 'POST', path, body, signal });
    } catch (err) {
      options.metrics?.requests.inc({ endpoint: ENDPOINT, status: 'error' });
      throw networkError(err, signal, scrub);
    } finally {
      options.metrics?.requestDuration.observe({ endpoint: ENDPOINT }, (clock() - started) / 1000);
    }
    options.metrics?.requests.inc({ endpoint: ENDPOINT, status: String(response.status) });
    if (response.status !== 200) {
      const error = statusError(response, scrub);
      const fields = { status: response.status, kind: error.kind, address: request.address };
      // "Not verified" is an answer the alert reports, not a fault of ours or the service's.
      if (error.kind === 'not-verified') log?.info(fields, 'contract not verified');
      else log?.warn(fields, 'verification failed');
      throw error;
    }
    return parseResult(response.text);
  }

  return { verify, close: async () => void (await owned?.close()) };
}

function checkRequest(request: VerifyRequest): Record<string, string> {
  if (!/^(0x)?[0-9a-fA-F]{40}$/.test(request.address)) {
    throw new InvalidParameterError(
      'address',
      `expected a 20-byte hex address like 0x00000000000000000000000000000000000003e8, got "${request.address}"`,
    );
  }
  if (typeof request.chainId !== 'string' || !/^\d{1,19}$/.test(request.chainId)) {
    throw new InvalidParameterError(
      'chainId',
      `expected a decimal chain id as a string like "295", got ${JSON.stringify(request.chainId)}`,
    );
  }
  const body: Record<string, string> = { address: request.address, chainId: request.chainId };
  if (request.apiKey !== undefined && request.apiKey !== '') body.apiKey = request.apiKey;
  return body;
}

export function redact(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join('[redacted]');
}

const KINDS: Record<number, { kind: VerifyErrorKind; retryable: boolean }> = {
  400: { kind: 'bad-request', retryable: false },
  404: { kind: 'not-verified', retryable: false },
  413: { kind: 'too-large', retryable: false },
  429: { kind: 'rate-limited', retryable: true },
  502: { kind: 'upstream', retryable: true },
};

function statusError(response: HttpResponse, scrub: (text: string) => string): VerifyError {
  const { kind, retryable } =
    KINDS[response.status] ??
    (response.status >= 500
      ? { kind: 'server' as const, retryable: true }
      : { kind: 'bad-request' as const, retryable: false });
  const text = scrub(serviceMessage(response.text));
  return new VerifyError(
    kind,
    response.status,
    `verification service answered ${response.status}: ${text}`,
    retryable,
  );
}

/** `message` of either body shape ({error, message} or {message, errors}), else the plain text, shortened. */
function serviceMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string') return body.message;
    if (typeof body.error === 'string') return body.error;
  } catch {
    // a plain-text body, e.g. 500 "Cannot store session"
  }
  return text.trim().slice(0, 300) || 'no message';
}

function networkError(err: unknown, signal: AbortSignal | undefined, scrub: (t: string) => string): unknown {
  if (signal?.aborted) return signal.reason;
  if (err instanceof ResponseTooLargeError) return new VerifyError('too-large', null, err.message, false);
  if (err instanceof VerifyError || err instanceof InvalidParameterError) return err;
  const reason = classifyNetworkError(err) ?? 'failure';
  const detail = scrub(err instanceof Error ? err.message : String(err));
  return new VerifyError(
    'network',
    null,
    `verification request failed (${reason}): ${detail}`,
    reason !== 'failure',
  );
}

function parseResult(text: string): VerificationResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new VerifyError(
      'malformed',
      200,
      'verification service answered 200 with a body that is not JSON',
      false,
    );
  }
  const parsed = VerificationResult.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new VerifyError(
    'malformed',
    200,
    `unexpected verification result at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? ''}`,
    false,
  );
}
