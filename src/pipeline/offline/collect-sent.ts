// The delivery sink of an offline pipeline: a real outbox (so routing, the firing set and escalations are kept
// exactly as in the daemon) that also hands back every alert enqueued, in order: what the daemon would send.
import type { Outbox } from '../../delivery/outbox.js';
import type { Alert } from '../../rules/alert/alert.js';

export interface SentCollector {
  /** The outbox to give the pipeline. */
  readonly outbox: Outbox;
  /** The alerts enqueued since the last take, oldest first. */
  take(): Alert[];
}

export function collectSent(outbox: Outbox): SentCollector {
  let sent: Alert[] = [];
  return {
    outbox: {
      ...outbox,
      enqueue(alert, channels, options) {
        outbox.enqueue(alert, channels, options);
        // A copy for more receivers (an escalation) is the same alert sent again, not a new one.
        if (!options?.copy) sent.push(alert);
      },
    },
    take() {
      const taken = sent;
      sent = [];
      return taken;
    },
  };
}
