// The one retry stage for every notifier (alertmanager notify/retry_stage.go): one attempt, then a decision.
// Notifiers only classify (NotifyError.retryable); here live backoff with jitter, Retry-After, the deadline,
// the dead-letter decision, the metrics and the log lines. The delivery worker persists the decision in the
// outbox and comes back when the next attempt is due, so a retry survives a restart and never blocks other
// channels.
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { NotifyError, notificationAlerts, type Notification, type Notifier } from './notifier.js';

export interface RetryPolicy {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** From the first enqueue; after it the delivery is dead-lettered instead of retried. */
  readonly deadlineMs: number;
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
}

export interface AttemptState {
  /** Failed attempts so far. */
  readonly attempts: number;
  /** When the oldest alert in the notification was enqueued for this channel. */
  readonly firstAt: number;
}

export type DeliveryOutcome =
  | { readonly kind: 'sent' }
  | { readonly kind: 'retry'; readonly at: number; readonly reason: string }
  | { readonly kind: 'dead'; readonly reason: string };

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
    await notifier.send(notification, signal);
  } catch (thrown) {
    const err = asNotifyError(thrown);
    const now = deps.now();
    const delay = Math.max(backoffMs(state.attempts, policy, deps.random), err.retryAfterMs ?? 0);
    const labels = { notifier: notifier.name, reason: err.reason };
    if (signal.aborted) return { kind: 'retry', at: now, reason: 'aborted' };
    if (err.retryable && now + delay <= state.firstAt + policy.deadlineMs) {
      deps.metrics.notifications.inc({ ...labels, outcome: 'retry' });
      log.warn({ ...fields, err: errorFields(err), retryInMs: delay }, 'notification failed, will retry');
      return { kind: 'retry', at: now + delay, reason: err.reason };
    }
    const reason = err.retryable ? `deadline exceeded (${err.reason})` : `permanent (${err.reason})`;
    deps.metrics.notifications.inc({ ...labels, outcome: 'dead' });
    deps.metrics.deadLetters.inc({ notifier: notifier.name });
    log.error({ ...fields, err: errorFields(err), reason }, 'notification dead-lettered');
    return { kind: 'dead', reason };
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
