// The delivery worker of one runtime. stop() drains it (DeliveryWorker.drain): sends in flight finish and are never
// sent twice. With a grace period (shutdown) what is pending is then sent within it; without one (a reload) the
// rest is left to the next runtime's worker, which keeps the group waits.
import {
  createDeliveryWorker,
  type DeliveryWorker,
  type DeliveryWorkerOptions,
} from '../delivery/delivery-worker.js';

export interface Delivery {
  readonly worker: DeliveryWorker;
  /** With graceMs, pending deliveries are sent for at most that long; without, they wait for the next start. */
  stop(graceMs?: number): Promise<void>;
}

export function startDelivery(options: DeliveryWorkerOptions): Delivery {
  const worker = createDeliveryWorker(options);
  void worker.start();
  return {
    worker,
    // A reload has no deadline of its own: the sends in flight are bounded by their notifiers' timeouts.
    stop: (graceMs) =>
      graceMs === undefined ? worker.drain(Infinity, { flush: false }) : worker.drain(graceMs),
  };
}
