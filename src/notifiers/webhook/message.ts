// Alert → webhook JSON body and its signature (pure). The receiver verifies
// hex(HMAC-SHA256(key, `${timestamp}.${body}`)) against X-Sentinel-Signature and rejects old timestamps.
import { createHmac } from 'node:crypto';
import { idempotencyKey } from '../identity.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';

export const WEBHOOK_VERSION = 1;

export interface WebhookBody {
  readonly version: number;
  /** Stable per notification: the same alerts give the same key, so a resend is recognisable. */
  readonly idempotencyKey: string;
  readonly kind: Notification['kind'];
  readonly ruleId: string;
  readonly alerts: ReturnType<typeof notificationAlerts>;
}

export function webhookBody(notification: Notification): WebhookBody {
  // Shown text neutralised and capped like every medium; the key is computed from the alerts as they are.
  const alerts = notificationAlerts(presentNotification(notification));
  return {
    version: WEBHOOK_VERSION,
    idempotencyKey: idempotencyKey(notification),
    kind: notification.kind,
    ruleId: alerts[0]?.ruleId ?? '',
    alerts,
  };
}

/** `sha256=<hex>` over `${timestamp}.${body}` (timestamp in Unix seconds). */
export function webhookSignature(key: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function webhookHeaders(
  key: string,
  nowMs: number,
  body: string,
  idempotency: string,
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'x-sentinel-timestamp': String(timestamp),
    'x-sentinel-signature': webhookSignature(key, timestamp, body),
    'idempotency-key': idempotency,
  };
}
