// The pipeline's time step: absence windows fire, drained count/sum windows resolve, stale groups are dropped.
// Like a page of records (pipeline.ts), it runs in one store.transaction: the alerts are routed and enqueued in
// the outbox together with the alert state behind them, and counted only once that transaction committed. The
// daemon's rule tick (app/runtime-timers.ts), the backtest and rule tests (offline/offline-pipeline.ts) all
// step the rules through here.
import type { Metrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert/alert.js';
import type { RuleStateRepo } from '../rules/alert-state/state-repo.js';
import type { StateStore } from '../state/store.js';
import { countAlerts, emitAlerts, type EmitDeps } from './emit-alerts.js';
import type { EngineHolder } from './engine-holder.js';

export interface TickDeps extends EmitDeps {
  readonly store: Pick<StateStore, 'transaction'>;
  readonly repo: RuleStateRepo;
  readonly engines: EngineHolder;
  readonly metrics: Pick<Metrics, 'alerts'>;
}

/**
 * Steps the rules to `nowMs` (`ledgerNs`: the tail's head, when known; windows and throttles drain by it, never
 * past now). Returns the alerts enqueued. On a failure the engine is reset to the committed state and the
 * error is thrown.
 */
export function tickRules(deps: TickDeps, nowMs: number, ledgerNs?: bigint): Alert[] {
  const { store, repo, outbox, engines } = deps;
  try {
    const engine = engines.current();
    const alerts = store.transaction(() => {
      const fired = engine.tick(nowMs, ledgerNs);
      emitAlerts(deps, fired);
      const changes = engine.takeChanges();
      repo.apply(changes);
      // State dropped without a resolve (a stale group) is no longer kept alive.
      outbox.firing.forget(changes.deletes);
      return fired;
    });
    countAlerts(deps.metrics, alerts);
    return alerts;
  } catch (err) {
    engines.invalidate();
    throw err;
  }
}
