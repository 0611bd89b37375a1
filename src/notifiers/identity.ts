// Stable identities for receivers to dedupe on: the same alerts always give the same key, so a repeat caused by
// a crash between "sent" and "recorded" is recognisably the same message.
import { createHash } from 'node:crypto';
import { notificationAlerts, type Notification } from './notifier.js';

export function idempotencyKey(notification: Notification): string {
  const ids = notificationAlerts(notification).map((a) => a.id);
  return createHash('sha256')
    .update([...ids].sort().join('\n'))
    .digest('hex')
    .slice(0, 32);
}

/** RFC 5322 Message-ID for a notification: `<key@domain>`. */
export function messageId(notification: Notification, domain: string): string {
  return `<${idempotencyKey(notification)}@${domain}>`;
}

/** Message-ID of the alert's thread (its stable key), so firing and resolved mails group together. */
export function threadId(alertKey: string, domain: string): string {
  return `<${createHash('sha256').update(alertKey).digest('hex').slice(0, 32)}@${domain}>`;
}
