// Everything a config and a rule set decide: clients, notifiers, the delivery worker, the tailer, the tick and
// self-monitoring timers. A reload stops one runtime and starts the next; the state store, the outbox, the
// metrics, the logger and the HTTP server outlive it (app.ts).
import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createCallTraces } from '../enrich/call-trace.js';
import { createContractVerification } from '../enrich/verification.js';
import { createChannels, type Channel } from '../notifiers/channels.js';
import type { DeliveryWorker } from '../notifiers/delivery-worker.js';
import type { Outbox } from '../notifiers/outbox.js';
import type { PauseBoard } from '../notifiers/pause-board.js';
import type { RuntimeControls } from './runtime-controls.js';
import type { Route } from '../notifiers/schema.js';
import type { LedgerClient } from '../ledger/client.js';
import type { RecordHandler } from '../tail/record-handler.js';
import type { Metrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert.js';
import type { RuleStateRepo } from '../rules/state-repo.js';
import type { StateStore } from '../state/store.js';
import { clientTailSource } from '../tail/client-source.js';
import type { FutureSighting } from '../tail/future-records.js';
import { createTailer, type Tailer } from '../tail/tailer.js';
import { createQuarantine, type Quarantine } from '../tail/quarantine.js';
import { MAX_QUARANTINE_ALERTS } from './quarantine-conditions.js';
import { ledgerClientFor, verifyClientFor } from './clients.js';
import { startDelivery } from './delivery.js';
import { countAlerts, emitAlerts } from './emit-alerts.js';
import type { EngineHolder } from './engine-holder.js';
import type { Loaded } from './load-all.js';
import { createPipelineHandler } from './pipeline.js';
import { createSelfMonitor, type SelfMonitorState } from './self-monitor.js';
import type { SelfMonitorRepo } from './self-monitor-repo.js';
import { runTailLoop, type TailHealth } from './tail-loop.js';
import { verifyFor } from './verify-adapter.js';
import type { RuleActivity } from '../status/rule-activity.js';

/** What outlives a reload. */
export interface Shared {
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly store: StateStore;
  readonly repo: RuleStateRepo;
  readonly outbox: Outbox;
  readonly engines: EngineHolder;
  readonly health: TailHealth;
  readonly stdout: Writable;
  readonly clock: () => number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly startedAt: number;
  readonly selfMonitor: SelfMonitorState;
  readonly selfMonitorRepo: SelfMonitorRepo;
  /** Notifiers paused by a receiver's Retry-After; kept across reloads so a pause's age is not reset. */
  readonly pauses: PauseBoard;
  /** Matches per rule since start, for the status page. */
  readonly ruleActivity: RuleActivity;
  /** API silences, acks and inhibition rules (notifiers/suppression.ts), kept across reloads. */
  readonly controls: RuntimeControls;
}

export interface Runtime {
  readonly worker: DeliveryWorker;
  /** The status page reads the streams' staleness, the head and the strategy from it. */
  readonly tailer: Tailer;
  /** Stops polling and timers; with graceMs, sends what is pending for at most that long first. */
  stop(graceMs?: number): Promise<void>;
}

/** Builds the notifiers first: a notifier that cannot be created fails here, before anything is replaced. */
export function buildChannels(shared: Shared, loaded: Loaded): Map<string, Channel> {
  const { clock: now, sleep, log: logger, stdout } = shared;
  return createChannels(loaded.config.notifiers, { now, sleep, logger, stdout });
}

export function startRuntime(shared: Shared, loaded: Loaded, channels: Map<string, Channel>): Runtime {
  const { config } = loaded;
  const { log, metrics, store, outbox } = shared;
  const routes = () => config.routes;
  const client = ledgerClientFor(config, log, metrics);
  const verifyClient = verifyClientFor(config, log, metrics);
  const { clock: now, sleep, random } = shared;
  const silences = config.silences;
  const { pauses } = shared;
  const delivery = startDelivery({
    outbox,
    channels,
    silences,
    now,
    sleep,
    random,
    logger: log,
    metrics,
    pauses,
    suppression: shared.controls.suppression,
    durable: () => shared.store.durable(),
  });
  const worker = delivery.worker;
  const handler = createPipelineHandler({
    engines: shared.engines,
    repo: shared.repo,
    traces: createCallTraces({ listActions: (id) => client.listActions(id, { order: 'asc', limit: 100 }) }),
    verification: createContractVerification({ verify: verifyFor(verifyClient, config) }),
    outbox,
    routes,
    metrics,
    onAlerts: () => worker.poke(),
    onMatches: (counts) => shared.ruleActivity.matched(counts),
  });
  const controller = new AbortController();
  const quarantine = createQuarantine(store, shared.clock);
  const tailer = tailerFor(shared, loaded, client, handler, quarantine);
  const tailLoop = startTailLoop(shared, loaded, tailer, controller.signal);
  const tick = setInterval(() => tickEngine(shared, routes, worker), config.daemon.tick_interval);
  const emit = (alerts: readonly Alert[], state: SelfMonitorState) => {
    store.transaction(() => {
      emitAlerts({ outbox, routes }, alerts);
      shared.selfMonitorRepo.save(state);
    });
    countAlerts(metrics, alerts);
    if (alerts.length > 0) worker.poke();
  };
  const checks = startSelfMonitoring(shared, loaded, tailer, emit, quarantine);
  return {
    worker,
    tailer,
    async stop(graceMs) {
      controller.abort();
      clearInterval(tick);
      if (checks) clearInterval(checks);
      await tailLoop;
      await delivery.stop(graceMs);
      await client.close();
      await verifyClient?.close();
    },
  };
}

function tailerFor(
  shared: Shared,
  loaded: Loaded,
  client: LedgerClient,
  handler: RecordHandler<unknown>,
  quarantine: Quarantine,
): Tailer {
  const { store, metrics, log, clock, random } = shared;
  const source = clientTailSource(client);
  const { accounts, config } = loaded;
  const options = {
    store,
    source,
    handler,
    accounts,
    config: config.tail,
    metrics,
    logger: log,
    clock,
    random,
    quarantine,
    onFutureRecord: (sighting: FutureSighting) => (shared.health.lastFuture = sighting),
  };
  // Series for the 50 stalest streams (docs/metrics.md); self-monitoring reads every stream from the tailer.
  return createTailer({ ...options, stalenessTop: 50 });
}

function startTailLoop(shared: Shared, loaded: Loaded, tailer: Tailer, signal: AbortSignal): Promise<void> {
  const { log, clock, random, sleep } = shared;
  const { tail } = loaded.config;
  const loop = { tailer, health: shared.health, pollIntervalMs: tail.poll_interval, jitter: tail.jitter };
  return runTailLoop({ ...loop, clock, random, sleep, log: log.child({ component: 'tail-loop' }) }, signal);
}

function startSelfMonitoring(
  shared: Shared,
  loaded: Loaded,
  tailer: Tailer,
  emit: (alerts: readonly Alert[], state: SelfMonitorState) => void,
  quarantine: Quarantine,
): NodeJS.Timeout | undefined {
  const { config, accounts } = loaded;
  const { health, metrics, clock, startedAt, log, selfMonitor: state } = shared;
  // Disabled, its firing alerts would never resolve: they are no longer kept alive in Alertmanager either.
  if (!config.self_monitoring.enabled) {
    shared.outbox.firing.forget([...state.firing.keys()]);
    return undefined;
  }
  const staleness = () => tailer.streamStaleness();
  const quarantined = () => ({ records: quarantine.list(MAX_QUARANTINE_ALERTS), total: quarantine.count() });
  const monitor = createSelfMonitor({
    ...{
      config: config.self_monitoring,
      notifiers: Object.keys(config.notifiers),
      health,
      accounts,
      staleness,
      metrics,
      pauses: () => shared.pauses.list(),
      clock,
      startedAt,
      emit,
      state,
      quarantined,
      unresolved: loaded.unresolved ?? [],
    },
    log: log.child({ component: 'self-monitoring' }),
  });
  const check = () =>
    void monitor.check().catch((err: unknown) => log.error({ err }, 'self-monitoring check failed'));
  return setInterval(check, config.self_monitoring.check_interval);
}

/** Time-based windows (absence) in their own transaction: alert state and outbox together. */
function tickEngine(shared: Shared, routes: () => readonly Route[], worker: DeliveryWorker): void {
  const { store, repo, outbox, metrics, engines, log } = shared;
  try {
    const engine = engines.current();
    const alerts = store.transaction(() => {
      const fired = engine.tick(shared.clock());
      emitAlerts({ outbox, routes }, fired);
      const changes = engine.takeChanges();
      repo.apply(changes);
      outbox.firing.forget(changes.deletes);
      return fired;
    });
    countAlerts(metrics, alerts);
    worker.poke();
  } catch (err) {
    engines.invalidate();
    log.error({ err }, 'rule tick failed');
  }
}
