// Watches that the open state database is still the one at state.dir. SQLite keeps writing to a deleted file
// without an error, so a daemon whose state dir was removed would go on advancing cursors and marking alerts
// sent in a file that the next start never sees. The guard checks on a timer and whenever readiness is asked,
// and on the first problem reports it once (onLost): the daemon then stops claiming progress (docs/operations.md).
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { StateStore } from '../state/store.js';

export interface StateGuardOptions {
  readonly store: StateStore;
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly intervalMs: number;
  readonly onLost: (reason: string) => void;
}

export interface StateGuard {
  /**
   * Checks now; the problem (this one or the first one seen), or undefined while the state is sound. A backend
   * that retries (StateStore.lagging: PostgreSQL out of disk or unreachable) is reported too, for readiness,
   * without counting as lost: it clears once the backend is back.
   */
  check(): string | undefined;
  close(): void;
}

export function guardStateStore(options: StateGuardOptions): StateGuard {
  const { store, log, metrics } = options;
  let lost: string | undefined;
  metrics.stateStoreHealthy.set(1);
  const check = (): string | undefined => {
    if (lost !== undefined || !store.db.open) return lost;
    lost = store.check();
    if (lost === undefined) return store.lagging?.();
    metrics.stateStoreHealthy.set(0);
    log.error({ reason: lost, path: store.path }, 'state store lost');
    options.onLost(lost);
    return lost;
  };
  const timer = setInterval(check, options.intervalMs);
  return { check, close: () => clearInterval(timer) };
}
