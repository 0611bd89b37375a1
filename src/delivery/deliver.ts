// The one retry stage for every notifier (alertmanager notify/retry_stage.go): one attempt, then a decision.
// Notifiers only classify (NotifyError.retryable); here live backoff with jitter, Retry-After, the deadline,
// the dead-letter decision, the metrics and the log lines. The delivery worker persists the decision in the
// outbox and comes back when the next attempt is due, so a retry survives a restart and never blocks other
// channels.
//
// A Retry-After is capped (max_retry_after) and only ever postpones: a delivery is dead-lettered for a retryable
// failure only once it is older than its deadline when an attempt fails, never because the next attempt would
// come after the deadline. A deferred send (the receiver is paused; nothing went out) is not an attempt at all.
import { linkSignal } from '../ledger/linked-signal.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { DEFAULT_MAX_RETRY_AFTER_MS } from '../notifiers/http-status.js';
import { NotifyError, notificationAlerts, type Notification, type Notifier } from '../notifiers/notifier.js';

export interface RetryPolicy {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** From the enqueue of a delivery; a failed attempt after it dead-letters the delivery instead of retrying. */
  readonly deadlineMs: number;
  /** Cap on a receiver's Retry-After (max_retry_after), applied again here whatever the notifier did. */
  readonly maxRetryAfterMs?: number;
  /** Bound of one send, pacing included: a send still running after it is abandoned and retried. */
  readonly sendTimeoutMs?: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 300_000,
  deadlineMs: 3_600_000,
};

export interface DeliverDeps {
  readonly now: () => number;
  /** [0, 1); injected so jitter is deterministic in tests. */
  readonly random: () => number;
  readonly logger: Logger;
  readonly metrics: Pick<Metrics, 'notifications' | 'deliveryLatency' | 'deadLetters'>;
  /** A signal that aborts after ms (default AbortSignal.timeout); injected so tests decide when a send is late. */
  readonly timeout?: (ms: number) => AbortSignal;
}

export interface AttemptState {
  /** Failed attempts so far. */
  readonly attempts: number;
  /** When the newest delivery in the notification was enqueued: the group is dead only once every row is. */
  readonly newestAt: number;
}

export type DeliveryOutcome =
  | { readonly kind: 'sent' }
  | { readonly kind: 'retry'; readonly at: number; readonly reason: string; readonly pause?: Pause }
  | { readonly kind: 'defer'; readonly at: number; readonly reason: string; readonly pause?: Pause }
  | { readonly kind: 'dead'; readonly reason: string };

/** The receiver asked for a pause (Retry-After): how long it asked, and how long we wait (capped). */
export interface Pause {
  readonly askedMs: number;
  readonly waitMs: number;
}

export async function deliver(
  notifier: Notifier,
  notification: Notification,
  state: AttemptState,
  policy: RetryPolicy,
  deps: DeliverDeps,
  signal: AbortSignal,
): Promise<DeliveryOutcome> {
  const alerts = notificationAlerts(notification);
  const log = deps.logger.child({ component: 'deliver', notifier: notifier.name, kind: notifier.kind });
  const fields = { alertIds: alerts.map((a) => a.id), rule: alerts[0]?.ruleId, attempt: state.attempts + 1 };
  try {
    await boundedSend(notifier, notification, policy, deps, signal);
  } catch (thrown) {
    if (signal.aborted) return { kind: 'retry', at: deps.now(), reason: 'aborted' };
    return failed(asNotifyError(thrown), {
      notifier,
      state,
      policy,
      deps,
      log,
      fields,
      alerts: alerts.length,
    });
  }
  const now = deps.now();
  deps.metrics.notifications.inc({ notifier: notifier.name, outcome: 'sent', reason: '' });
  for (const alert of alerts) {
    const consensusMs = consensusMillis(alert.records[0]?.consensusTimestamp);
    if (consensusMs !== undefined)
      deps.metrics.deliveryLatency.observe({ notifier: notifier.name }, (now - consensusMs) / 1000);
  }
  log.info(fields, 'notification sent');
  return { kind: 'sent' };
}

interface FailureContext {
  readonly notifier: Notifier;
  readonly state: AttemptState;
  readonly policy: RetryPolicy;
  readonly deps: DeliverDeps;
  readonly log: Logger;
  readonly fields: Record<string, unknown>;
  /** Alerts in the notification: each is a delivery given up if it is dead-lettered. */
  readonly alerts: number;
}

function failed(err: NotifyError, ctx: FailureContext): DeliveryOutcome {
  const { notifier, state, policy, deps, log, fields } = ctx;
  const now = deps.now();
  const cap = policy.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const waitMs = err.retryAfterMs === undefined ? undefined : Math.min(Math.max(0, err.retryAfterMs), cap);
  const pause = waitMs === undefined ? undefined : { askedMs: err.askedRetryAfterMs ?? waitMs, waitMs };
  const labels = { notifier: notifier.name, reason: err.reason };
  if (err.deferred && err.retryable) {
    deps.metrics.notifications.inc({ ...labels, outcome: 'deferred' });
    log.debug({ ...fields, reason: err.reason, retryInMs: waitMs }, 'notification postponed');
    return { kind: 'defer', at: now + (waitMs ?? 0), reason: err.reason, ...(pause ? { pause } : {}) };
  }
  if (err.retryable && now < state.newestAt + policy.deadlineMs) {
    const delay = Math.max(backoffMs(state.attempts, policy, deps.random), waitMs ?? 0);
    deps.metrics.notifications.inc({ ...labels, outcome: 'retry' });
    log.warn(
      { ...fields, err: errorFields(err), retryInMs: delay, retryAfterMs: pause?.askedMs },
      'notification failed, will retry',
    );
    return { kind: 'retry', at: now + delay, reason: err.reason, ...(pause ? { pause } : {}) };
  }
  const reason = err.retryable ? `deadline exceeded (${err.reason})` : `permanent (${err.reason})`;
  deps.metrics.notifications.inc({ ...labels, outcome: 'dead' });
  // Deliveries given up, one per alert: a digest of 8 dead-lettered alerts is 8 dead letters, not 1.
  deps.metrics.deadLetters.inc({ notifier: notifier.name }, Math.max(1, ctx.alerts));
  log.error({ ...fields, err: errorFields(err), reason }, 'notification dead-lettered');
  return { kind: 'dead', reason };
}

/**
 * The send, bounded by its own timeout and by the caller's abort: a notifier that ignores its signal (nodemailer
 * has none) or a receiver that drips its answer cannot hold the channel's lane, nor a drain past its grace. What
 * is still running then is abandoned; the retry may reach the receiver twice, which idempotency keys and
 * Message-IDs make recognisable.
 */
async function boundedSend(
  notifier: Notifier,
  notification: Notification,
  policy: RetryPolicy,
  deps: DeliverDeps,
  signal: AbortSignal,
): Promise<void> {
  const limitMs = policy.sendTimeoutMs;
  const late = limitMs === undefined ? undefined : (deps.timeout ?? AbortSignal.timeout)(limitMs);
  // signal is the worker's and outlives every send: linked, not AbortSignal.any (ledger/linked-signal.ts).
  const link = linkSignal([signal, late]);
  const both = link.signal;
  let onAbort: (() => void) | undefined;
  const cut = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(
        signal.aborted
          ? new NotifyError(`send to notifier "${notifier.name}" aborted`, {
              retryable: true,
              reason: 'aborted',
            })
          : new NotifyError(
              `notifier "${notifier.name}" did not finish a send within ${Math.round((limitMs ?? 0) / 1000)} s (its timeout plus pacing); will retry`,
              { retryable: true, reason: 'send_timeout' },
            ),
      );
    if (both.aborted) onAbort();
    else both.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([notifier.send(notification, both), cut]);
  } finally {
    if (onAbort) both.removeEventListener('abort', onAbort);
    link.dispose();
    cut.catch(() => undefined);
  }
}

/** Exponential backoff with equal jitter: half the step fixed, half random, capped. */
export function backoffMs(attempts: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempts, 30));
  return Math.round(step / 2 + (random() * step) / 2);
}

/** Anything that is not a NotifyError is a bug in a notifier: permanent, and its text is not trusted. */
function asNotifyError(thrown: unknown): NotifyError {
  if (thrown instanceof NotifyError) return thrown;
  const name = thrown instanceof Error ? thrown.name : typeof thrown;
  return new NotifyError(`notifier failed unexpectedly (${name})`, { retryable: false, reason: 'internal' });
}

/** Only our own fields: a NotifyError's message is built from codes, never from upstream text. */
function errorFields(err: NotifyError) {
  return { message: err.message, reason: err.reason, retryable: err.retryable };
}

function consensusMillis(timestamp: string | undefined): number | undefined {
  if (!timestamp || !/^\d+(\.\d+)?$/.test(timestamp)) return undefined;
  return Number(timestamp) * 1000;
}
