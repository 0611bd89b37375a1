// The runtime's timers: the rule tick (absence windows, drained windows) and the self-monitoring checks. Each
// reads the runtime's current parts when it fires, so a reload never resets their schedule; only a new
// interval (daemon.tick_interval, self_monitoring.check_interval) restarts one.
import type { Alert } from '../rules/alert/alert.js';
import { countAlerts, emitAlerts } from '../pipeline/emit-alerts.js';
import { escalateOnTick } from './escalate-on-tick.js';
import { tickRules } from '../pipeline/tick-rules.js';
import { MAX_QUARANTINE_ALERTS } from '../self-monitor/quarantine-conditions.js';
import type { RuntimeParts, Shared } from './runtime-parts.js';
import { createSelfMonitor, type SelfMonitor, type SelfMonitorState } from '../self-monitor/self-monitor.js';

export function tickTimer(shared: Shared, parts: () => RuntimeParts, intervalMs: number): NodeJS.Timeout {
  return setInterval(() => {
    tickEngine(shared, parts());
    escalateOnTick(shared, parts());
  }, intervalMs);
}

export function monitorTimer(shared: Shared, parts: () => RuntimeParts, intervalMs: number): NodeJS.Timeout {
  const check = () =>
    void parts()
      .monitor?.check()
      .catch((err: unknown) => shared.log.error({ err }, 'self-monitoring check failed'));
  return setInterval(check, intervalMs);
}

/** The built-in checks over the current config; undefined when self_monitoring is disabled. */
export function selfMonitorFor(shared: Shared, parts: RuntimeParts): SelfMonitor | undefined {
  const { config, accounts } = parts.loaded;
  const { health, metrics, clock, startedAt, log, selfMonitor: state, store, outbox } = shared;
  // Disabled, its firing alerts would never resolve: they are no longer kept alive in Alertmanager either.
  if (!config.self_monitoring.enabled) {
    outbox.firing.forget([...state.firing.keys()]);
    return undefined;
  }
  const { quarantine } = parts;
  const routes = () => parts.loaded.config.routes;
  const emit = (alerts: readonly Alert[], next: SelfMonitorState) => {
    store.transaction(() => {
      emitAlerts({ outbox, routes }, alerts);
      shared.selfMonitorRepo.save(next);
    });
    countAlerts(metrics, alerts);
    if (alerts.length > 0) parts.delivery.worker.poke();
  };
  return createSelfMonitor({
    ...{ config: config.self_monitoring, notifiers: Object.keys(config.notifiers), health, accounts },
    staleness: () => parts.tail.tailer.streamStaleness(),
    ...{ metrics, pauses: () => shared.pauses.list(), clock, startedAt, emit, state },
    quarantined: () => ({ records: quarantine.list(MAX_QUARANTINE_ALERTS), total: quarantine.count() }),
    unresolved: parts.loaded.unresolved ?? [],
    log: log.child({ component: 'self-monitoring' }),
  });
}

/** Time-based windows (absence) in their own transaction: alert state and outbox together (pipeline/tick-rules.ts). */
function tickEngine(shared: Shared, parts: RuntimeParts): void {
  const { store, repo, outbox, metrics, engines, log } = shared;
  const routes = () => parts.loaded.config.routes;
  try {
    // Windows and throttles drain by the ledger's time (the tail's head), never past now: a wall clock that
    // jumps ahead does not forget every throttle (docs/tailing.md, "Clock steps").
    tickRules({ store, repo, outbox, metrics, engines, routes }, shared.clock(), parts.tail.tailer.head.head);
    parts.delivery.worker.poke();
  } catch (err) {
    log.error({ err }, 'rule tick failed');
  }
}
