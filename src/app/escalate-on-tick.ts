// The escalation check (delivery/escalate.ts) on the daemon's tick: bounded per tick, in its own transaction,
// and only where the tick runs (the leader, in HA).
import { escalateDue } from '../delivery/escalate.js';
import type { RuntimeParts, Shared } from './runtime-parts.js';

export function escalateOnTick(shared: Shared, parts: RuntimeParts): void {
  const { store, outbox, metrics, clock, log } = shared;
  try {
    const sent = escalateDue({
      store,
      outbox,
      acks: shared.controls.acks,
      now: clock,
      metrics,
      log: log.child({ component: 'escalation' }),
    });
    if (sent > 0) parts.delivery.worker.poke();
  } catch (err) {
    log.error({ err }, 'escalation check failed; it runs again on the next tick');
  }
}
