// The one retry loop of the query client: budget → request → classify → wait → again, with metrics and a
// static log line per retry. 429 (Retry-After honoured), 5xx, resets, timeouts and total deadlines are retried
// up to the policy's attempts; other statuses surface `_status.messages` as LedgerHttpError.
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics.js';
import { LedgerHttpError, LedgerNetworkError, MalformedResponseError } from './errors.js';
import { sendHttp, type HttpResponse, type HttpSettings } from './http.js';
import type { RequestBudget } from './request-budget.js';
import {
  classifyNetworkError,
  parseRetryAfter,
  retryDelay,
  retryReasonForStatus,
  type RetryPolicy,
  type RetryReason,
} from './retry.js';
import { ErrorBody } from '@ledger-sentinel/ledger-model/schema';

export type LedgerMetrics = Pick<
  Metrics,
  | 'requests'
  | 'requestErrors'
  | 'requestDuration'
  | 'retries'
  | 'budgetWait'
  | 'pages'
  | 'invalidRecords'
  | 'degradedFields'
>;

export interface RequestContext {
  readonly http: HttpSettings;
  readonly budget: RequestBudget;
  readonly retry: RetryPolicy;
  readonly log: Logger | undefined;
  readonly metrics: LedgerMetrics | undefined;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly clock: () => number;
  readonly random: () => number;
}

export interface GetOptions {
  readonly signal?: AbortSignal;
  readonly priority?: number;
}

type Outcome<T> =
  { done: true; value: T } | { done: false; reason: RetryReason; retryAfterMs?: number; error: Error };

/**
 * GETs `path` and parses the body of a 200, retrying what is worth retrying. The body is parsed inside the
 * retry loop: a 200 that `parse` rejects with a
 * MalformedResponseError (truncated, not JSON, not the expected shape) is retried like a connection reset
 * mid-body. A lying or flaky service then costs a retry instead of failing the whole poll.
 */
export async function getParsed<T>(
  ctx: RequestContext,
  endpoint: string,
  path: string,
  opts: GetOptions,
  parse: (text: string) => T,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const waited = await ctx.budget.acquire({ priority: opts.priority, signal: opts.signal });
    ctx.metrics?.budgetWait.observe(waited / 1000);
    const response = await attemptOnce(ctx, endpoint, path, opts.signal);
    const outcome = response.done ? parseBody(response.value, parse) : response;
    if (outcome.done) return outcome.value;
    if (attempt >= ctx.retry.maxAttempts) throw outcome.error;
    const delayMs = retryDelay(attempt, outcome.retryAfterMs, ctx.retry, ctx.random);
    ctx.metrics?.retries.inc({ endpoint, reason: outcome.reason });
    ctx.log?.warn(
      { endpoint, path, attempt, reason: outcome.reason, delayMs },
      'ledger request will be retried',
    );
    await ctx.sleep(delayMs, opts.signal);
  }
}

function parseBody<T>(text: string, parse: (text: string) => T): Outcome<T> {
  try {
    return { done: true, value: parse(text) };
  } catch (err) {
    if (err instanceof MalformedResponseError) return { done: false, reason: 'malformed', error: err };
    throw err;
  }
}

async function attemptOnce(
  ctx: RequestContext,
  endpoint: string,
  path: string,
  signal: AbortSignal | undefined,
): Promise<Outcome<string>> {
  // Elapsed time on the monotonic clock: a wall-clock step during a request makes no negative duration.
  const started = performance.now();
  let response: HttpResponse;
  try {
    response = await sendHttp(ctx.http, { method: 'GET', path, signal });
  } catch (err) {
    ctx.metrics?.requests.inc({ endpoint, status: 'error' });
    const reason = signal?.aborted ? undefined : classifyNetworkError(err);
    ctx.metrics?.requestErrors.inc({ endpoint, reason: reason ?? (signal?.aborted ? 'aborted' : 'other') });
    if (reason === undefined) throw err;
    return { done: false, reason, error: new LedgerNetworkError(reason, path, { cause: err }) };
  } finally {
    ctx.metrics?.requestDuration.observe({ endpoint }, (performance.now() - started) / 1000);
  }
  ctx.metrics?.requests.inc({ endpoint, status: String(response.status) });
  if (response.status === 200) return { done: true, value: response.text };
  const error = new LedgerHttpError(response.status, errorMessages(response.text), path);
  const reason = retryReasonForStatus(response.status);
  if (reason === undefined) throw error;
  const header = response.headers['retry-after'];
  const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, ctx.clock());
  return { done: false, reason, retryAfterMs, error };
}

/** The `_status.messages[].message` texts, or none when the body is not the service's error body. */
export function errorMessages(text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = ErrorBody.safeParse(body);
  return parsed.success ? parsed.data._status.messages.map((m) => m.message) : [];
}
