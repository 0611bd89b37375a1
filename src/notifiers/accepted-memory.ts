// Which alerts a receiver has already accepted, for the notifiers that send one request per alert (PagerDuty,
// Opsgenie). A retry of a digest then sends only what is left, so a digest larger than one attempt can carry (pacing,
// a 429 halfway, the send timeout) still makes progress instead of starting over each time. In memory and bounded:
// after a restart the first requests are sent again, which the services' dedup_key / alias make harmless.
import type { Alert } from '../rules/alert/alert.js';
import { notificationAlerts, type Notification, type SendReceipt } from './notifier.js';

export interface AcceptedMemory {
  has(alertId: string): boolean;
  add(alertId: string): void;
  /**
   * Sends, in order, each alert of the notification the receiver has not accepted yet, remembering each one it
   * accepts; a send that throws stops there (the retry starts at that alert). Answers the last receipt.
   */
  sendEach(
    notification: Notification,
    send: (alert: Alert) => Promise<SendReceipt | undefined>,
  ): Promise<SendReceipt | undefined>;
}

export function createAcceptedMemory(max = 10_000): AcceptedMemory {
  const ids = new Set<string>();
  const add = (id: string) => {
    ids.delete(id);
    ids.add(id);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (ids.size > max) ids.delete(ids.values().next().value as string);
  };
  return {
    has: (id) => ids.has(id),
    add,
    async sendEach(notification, send) {
      let receipt: SendReceipt | undefined;
      for (const alert of notificationAlerts(notification)) {
        if (ids.has(alert.id)) continue;
        receipt = await send(alert);
        add(alert.id);
      }
      return receipt;
    },
  };
}
