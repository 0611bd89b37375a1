// /readyz: ready to alert means the config is loaded, the state store is open, the first poll has read a page,
// the query service answered within the staleness bound (self_monitoring.query_service_down_after), and the
// delivery worker is running and has at least one notifier its receiver has not paused for long.
import type { ChannelPause } from '../delivery/pause-board.js';
import type { ReadinessCheck } from '../observability/http-server.js';
import type { CapacityView } from '../tail/health/capacity-watch.js';
import type { TailHealth } from '../tail/loop/daemon-loop.js';

export interface DeliveryReadiness {
  /** When the delivery worker last ran a pass (it runs one at least every few seconds). */
  readonly lastPassAt: number | undefined;
  readonly pauses: readonly ChannelPause[];
  readonly notifiers: readonly string[];
  /** self_monitoring.delivery_paused_after: a pause this long counts. */
  readonly pausedAfterMs: number;
}

/** A worker that has not run a pass for this long is stuck (it wakes at least every 5 s). */
const WORKER_STUCK_MS = 60_000;

export interface ReadinessInputs {
  readonly configLoaded: () => boolean;
  readonly stateOpen: () => boolean;
  /** Why the open state is no longer the one at state.dir (deleted, replaced, read-only), or undefined. */
  readonly stateProblem?: () => string | undefined;
  readonly health: () => TailHealth;
  readonly boundMs: () => number;
  readonly clock: () => number;
  readonly delivery?: () => DeliveryReadiness;
}

export function readinessChecks(inputs: ReadinessInputs): Record<string, ReadinessCheck> {
  const health = inputs.health();
  const last = health.lastReachableAt;
  const age = last === undefined ? undefined : inputs.clock() - last;
  return {
    ...(inputs.delivery ? { delivery: deliveryCheck(inputs.delivery(), inputs.clock()) } : {}),
    config: inputs.configLoaded()
      ? { ok: true, message: 'loaded' }
      : { ok: false, message: 'the configuration is not loaded' },
    state: stateCheck(inputs),
    ...(health.capacity ? { capacity: capacityCheck(health.capacity) } : {}),
    poll:
      health.firstPollAt !== undefined
        ? { ok: true, message: 'first poll done' }
        : { ok: false, message: 'no poll has completed yet' },
    query_service:
      age !== undefined && age <= inputs.boundMs()
        ? { ok: true, message: `answered ${Math.round(age / 1000)} s ago` }
        : {
            ok: false,
            message: age === undefined ? 'not reached yet' : `no answer for ${Math.round(age / 1000)} s`,
          },
  };
}

function stateCheck(inputs: ReadinessInputs): ReadinessCheck {
  if (!inputs.stateOpen()) return { ok: false, message: 'the state store is closed' };
  const problem = inputs.stateProblem?.();
  return problem === undefined ? { ok: true, message: 'open' } : { ok: false, message: problem };
}

export function deliveryCheck(delivery: DeliveryReadiness, now: number): ReadinessCheck {
  const idle = delivery.lastPassAt === undefined ? 0 : now - delivery.lastPassAt;
  if (idle > WORKER_STUCK_MS)
    return { ok: false, message: `the delivery worker has not run for ${Math.round(idle / 1000)} s` };
  const configured = new Set(delivery.notifiers);
  const long = delivery.pauses.filter(
    (p) => configured.has(p.channel) && now - p.since >= delivery.pausedAfterMs,
  );
  if (long.length === 0) return { ok: true, message: 'delivering' };
  const list = long
    .map(
      (p) =>
        `${p.channel} (Retry-After ${Math.round(p.askedMs / 1000)} s, for ${Math.round((now - p.since) / 1000)} s)`,
    )
    .join(', ');
  return long.length >= configured.size
    ? { ok: false, message: `every notifier is paused by its receiver: ${list}` }
    : { ok: true, message: `delivering; paused by the receiver: ${list}` };
}

/** Informational: a budget too small for the ledger's rate makes alerts late, not the daemon unready. */
export function capacityCheck(c: CapacityView): ReadinessCheck {
  const figures =
    `demand ${c.demandRps.toFixed(1)} req/s of a ${c.budgetRps} req/s budget ` +
    `(ratio ${c.ratio.toFixed(2)}, ${Math.round(c.tps)} TPS, ${c.strategy})`;
  return {
    ok: true,
    message: c.exceeded ? `exceeded: ${figures}; staleness will grow (sentinel-capacity-exceeded)` : figures,
  };
}
