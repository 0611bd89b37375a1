// The notifier contract (docs/architecture.md): a notifier formats and sends one notification and classifies a failure by
// throwing NotifyError. It never retries; deliver.ts owns retries, backoff, deadline, metrics and the log line.
import type { Alert } from '../rules/alert/alert.js';

/** One alert, or a digest of several alerts of one rule for one channel (storm control). */
export type Notification =
  | { readonly kind: 'single'; readonly alert: Alert }
  | { readonly kind: 'digest'; readonly ruleId: string; readonly alerts: readonly Alert[] };

export interface Notifier {
  /** The configured name (`ops-slack`): the channel alerts are routed to. */
  readonly name: string;
  readonly kind: string;
  /**
   * Resolves when the receiver accepted the notification (with what it answered, where the notifier knows it:
   * `ledger-sentinel notify test` prints it); throws NotifyError otherwise.
   */
  send(notification: Notification, signal: AbortSignal): Promise<SendReceipt | void>;
}

/** What a receiver answered to an accepted notification: status and a short body, secrets already redacted. */
export interface SendReceipt {
  readonly status?: number;
  /** At most a few hundred characters, neutralised (no control characters) and without the notifier's secrets. */
  readonly answer?: string;
}

export interface NotifyErrorOptions {
  readonly retryable: boolean;
  /** The receiver asked us to wait (Retry-After, already capped by max_retry_after); the retry waits this long. */
  readonly retryAfterMs?: number;
  /** The Retry-After the receiver asked for before the cap, for logs and the self-monitoring alert. */
  readonly askedRetryAfterMs?: number;
  /**
   * Nothing was sent (the receiver is paused by an earlier Retry-After): the delivery is postponed to
   * retryAfterMs from now without counting as an attempt, and never dead-lettered for it.
   */
  readonly deferred?: boolean;
  /** Short machine-readable reason for metrics and logs: `http_429`, `http_500`, `network`, `smtp_451`… */
  readonly reason: string;
}

/**
 * A classified delivery failure. Messages are written by the notifier from status codes and error codes only,
 * never from URLs, request options or upstream error text, so they cannot carry a secret.
 */
export class NotifyError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly askedRetryAfterMs: number | undefined;
  readonly deferred: boolean;
  readonly reason: string;

  constructor(message: string, options: NotifyErrorOptions) {
    super(message);
    this.name = 'NotifyError';
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.askedRetryAfterMs = options.askedRetryAfterMs ?? options.retryAfterMs;
    this.deferred = options.deferred ?? false;
    this.reason = options.reason;
  }
}

/** The alerts a notification carries, in order. */
export function notificationAlerts(notification: Notification): readonly Alert[] {
  return notification.kind === 'single' ? [notification.alert] : notification.alerts;
}
