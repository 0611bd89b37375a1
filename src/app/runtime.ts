// Everything a config and a rule set decide: clients, notifiers, the delivery worker, the tailer, the tick and
// self-monitoring timers. The runtime lives from start to stop; a reload swaps only the parts whose config
// changed (reload-plan.ts, docs/operations.md "Reload"), so the poll loop, the delivery worker and the tick
// schedule go on. The state store, the outbox, the metrics, the logger and the HTTP server outlive it
// (shared.ts, app-context.ts); the shapes are in runtime-parts.ts.
import { createChannels, type Channel } from '../delivery/channels.js';
import { createQuarantine, type Quarantine } from '../tail/quarantine/quarantine-store.js';
import { createRouteMutes } from '../delivery/route-mute.js';
import { startHeartbeat } from './heartbeat-timer.js';
import { startDelivery, type Delivery } from './delivery.js';
import type { Runtime, RuntimeParts, Shared, TailPartDeps } from './runtime-parts.js';
import type { Loaded } from './load-all.js';
import { planReload, type ReloadPlan } from '../config-file/reload-plan.js';
import { startTailPart } from './runtime-tail.js';
import { monitorTimer, selfMonitorFor, tickTimer } from './runtime-timers.js';

/** Builds the notifiers first: a notifier that cannot be created fails here, before anything is replaced. */
export function buildChannels(shared: Shared, loaded: Loaded): Map<string, Channel> {
  const { clock: now, sleep, log: logger, stdout, store } = shared;
  return createChannels(loaded.config.notifiers, { now, sleep, logger, stdout, store });
}

export function startRuntime(shared: Shared, loaded: Loaded, channels: Map<string, Channel>): Runtime {
  const map = new Map(channels);
  const quarantine = createQuarantine(shared.store, shared.clock);
  // The worker's first pass runs while `parts` is being built: route mutes read the config through this.
  const built: { parts?: RuntimeParts } = {};
  const current = () => (built.parts?.loaded ?? loaded).config;
  // The closures below read `parts` when they run (polls, ticks, checks), never while it is being built.
  const parts: RuntimeParts = {
    loaded,
    channels: map,
    quarantine,
    delivery: deliveryFor(shared, loaded, map, current),
    tail: startTailPart(
      shared,
      loaded,
      tailDeps(() => parts, quarantine),
    ),
    tick: tickTimer(shared, () => parts, loaded.config.daemon.tick_interval),
    monitor: undefined,
    checks: monitorTimer(shared, () => parts, loaded.config.self_monitoring.check_interval),
  };
  built.parts = parts;
  parts.monitor = selfMonitorFor(shared, parts);
  parts.heartbeat = startHeartbeat(shared, () => parts);
  return {
    get worker() {
      return parts.delivery.worker;
    },
    get tailer() {
      return parts.tail.tailer;
    },
    update: (next, fresh) => updateParts(shared, parts, next, fresh),
    async stop(graceMs) {
      clearInterval(parts.tick);
      clearInterval(parts.checks);
      parts.heartbeat?.stop();
      await parts.tail.stop();
      await parts.delivery.stop(graceMs);
    },
  };
}

async function updateParts(
  shared: Shared,
  parts: RuntimeParts,
  next: Loaded,
  fresh: Map<string, Channel>,
): Promise<ReloadPlan> {
  const plan = planReload(parts.loaded, next);
  const before = parts.loaded.config;
  parts.loaded = next; // routes, notifier names and accounts are read through it from here on
  for (const name of plan.notifiers) {
    const channel = fresh.get(name);
    if (channel) parts.channels.set(name, channel);
    else parts.channels.delete(name);
  }
  if (plan.delivery) {
    // Config silences are fixed in a worker: it drains (sends in flight finish) and a new one takes over.
    await parts.delivery.stop();
    parts.delivery = deliveryFor(shared, next, parts.channels, () => parts.loaded.config);
  }
  if (plan.rules) swapRules(shared, next, plan.incompatibleRules);
  if (plan.tail) {
    await parts.tail.stop();
    parts.tail = startTailPart(
      shared,
      next,
      tailDeps(() => parts, parts.quarantine),
    );
  } else if (plan.accounts) parts.tail.swapAccounts(next);
  if (plan.tick) {
    clearInterval(parts.tick);
    parts.tick = tickTimer(shared, () => parts, next.config.daemon.tick_interval);
  }
  if (plan.selfMonitoring) parts.monitor = selfMonitorFor(shared, parts);
  if (parts.heartbeat?.key !== JSON.stringify(next.config.heartbeat)) {
    parts.heartbeat?.stop();
    parts.heartbeat = startHeartbeat(shared, () => parts);
  }
  if (before.self_monitoring.check_interval !== next.config.self_monitoring.check_interval) {
    clearInterval(parts.checks);
    parts.checks = monitorTimer(shared, () => parts, next.config.self_monitoring.check_interval);
  }
  return plan;
}

/**
 * The engine is rebuilt from the stored alert state, so every rule kept by id keeps its windows, absence
 * baselines and firing episodes; a changed rule that now groups differently or has another kind of window
 * starts afresh (its stored groups are dropped).
 */
function swapRules(shared: Shared, next: Loaded, incompatible: readonly string[]): void {
  const { store, repo, outbox, engines } = shared;
  if (incompatible.length > 0) {
    const keys = repo.keysOf(incompatible);
    store.transaction(() => {
      repo.apply({ upserts: [], deletes: keys });
      outbox.firing.forget(keys);
    });
  }
  engines.replace(next.ruleSet);
}

function tailDeps(parts: () => RuntimeParts, quarantine: Quarantine): TailPartDeps {
  return {
    routes: () => parts().loaded.config.routes,
    poke: () => parts().delivery.worker.poke(),
    quarantine,
  };
}

function deliveryFor(
  shared: Shared,
  loaded: Loaded,
  channels: Map<string, Channel>,
  current: () => Loaded['config'],
): Delivery {
  const { log, metrics, outbox, clock: now, sleep, random, pauses } = shared;
  const silences = loaded.config.silences;
  const suppression = shared.controls.suppression;
  return startDelivery({
    outbox,
    channels,
    silences,
    now,
    sleep,
    random,
    logger: log,
    metrics,
    pauses,
    suppression,
    mutes: createRouteMutes(
      () => current().routes,
      () => current().time_intervals,
    ),
    durable: () => shared.store.durable(),
  });
}
