// The delivery worker for one runtime, with a clean hand-over at stop. DeliveryWorker.stop() aborts sends in
// flight (they stay pending and are sent again: a duplicate when the receiver had already accepted), and
// flush() on a running worker can race its loop and send a row twice. So stop() here: (1) parks any new send
// of the loop, (2) waits for the sends in flight to finish, (3) stops the loop (only parked sends are aborted,
// and they were never sent), (4) drains the outbox with a fresh, non-looping worker within the grace period.
import { once, EventEmitter } from 'node:events';
import type { Channel } from '../notifiers/channels.js';
import {
  createDeliveryWorker,
  type DeliveryWorker,
  type DeliveryWorkerOptions,
} from '../notifiers/delivery-worker.js';
import { NotifyError, type Notifier } from '../notifiers/notifier.js';

export interface Delivery {
  readonly worker: DeliveryWorker;
  /** With graceMs, pending deliveries are sent for at most that long; without, they wait for the next start. */
  stop(graceMs?: number): Promise<void>;
}

export function startDelivery(options: DeliveryWorkerOptions): Delivery {
  const gate = { closing: false, inFlight: 0, events: new EventEmitter() };
  const channels = new Map([...options.channels].map(([name, channel]) => [name, gated(channel, gate)]));
  const worker = createDeliveryWorker({ ...options, channels });
  void worker.start();
  return {
    worker,
    async stop(graceMs) {
      gate.closing = true;
      while (gate.inFlight > 0) await once(gate.events, 'idle');
      await worker.stop();
      if (graceMs !== undefined) await createDeliveryWorker(options).flush(graceMs);
    },
  };
}

interface Gate {
  closing: boolean;
  inFlight: number;
  readonly events: EventEmitter;
}

function gated(channel: Channel, gate: Gate): Channel {
  const inner = channel.notifier;
  const notifier: Notifier = {
    name: inner.name,
    kind: inner.kind,
    async send(notification, signal) {
      if (gate.closing) {
        if (!signal.aborted) await once(signal, 'abort').catch(() => undefined);
        throw new NotifyError('shutting down', { retryable: true, reason: 'shutdown' });
      }
      gate.inFlight += 1;
      try {
        await inner.send(notification, signal);
      } finally {
        gate.inFlight -= 1;
        if (gate.inFlight === 0) gate.events.emit('idle');
      }
    },
  };
  return { ...channel, notifier };
}
