// `run` with ha.enabled: one replica under the PostgreSQL lease (docs/architecture.md, "High availability"). The
// lease elector lives here, outside the app. A standby runs the app in standby mode on a snapshot of the shared
// state that never replicates a write (HTTP, /readyz naming the leader, /metrics, the status page, the read API).
// On election the standby app stops and a leader app starts on a store opened AFTER the lease acquisition
// committed, so its working set holds every batch the previous leader committed; every batch it replicates
// carries this replica's fencing token. Losing the lease, or a write refused by the fence, ends leadership: the
// replica fails and the process exits non-zero so that the orchestrator restarts it as a clean standby.
import type { Writable } from 'node:stream';
import { createApp, type App } from '../../app/create-app.js';
import { leaseFor, type ReplicaLease } from '../../app/lease-for.js';
import { startLeadership, type Leadership } from '../../app/leadership.js';
import { loadAll, type Loaded } from '../../app/load-all.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { StateStore } from '../../state/store.js';
import { switchableHttp, type SwitchableHttp } from '../../observability/switchable-http.js';

export interface ReplicaOptions {
  readonly loaded: Loaded;
  readonly configPath?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly pid?: number;
  readonly logDestination: Writable;
  readonly stdout: Writable;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** Opens the state: a fenced store for a leader (fence given), a snapshot that never replicates for a standby. */
  readonly openStore: (fence: (() => bigint | undefined) | undefined) => Promise<StateStore>;
  /** Makes the lease (default lease-for.ts, on state.postgres). */
  readonly replicaLease?: typeof leaseFor;
  /** Renew interval of the lease (default ttl/3). */
  readonly intervalMs?: number;
}

/** What run.ts drives: the same lifecycle as an App, with the app of the current role inside. */
export interface Replica {
  start(): Promise<void>;
  stop(options?: { readonly graceMs?: number }): Promise<void>;
  reloadFromDisk(): Promise<boolean>;
  failure(): Promise<Error>;
  /** The app of the current role (standby or leader), undefined while switching. */
  app(): App | undefined;
  readonly leadership: () => Leadership | undefined;
}

/**
 * The replica's state, as one named structure: what it was built with, the lease, the app of the current role,
 * the role switch in flight and the failure that ends the process. The role switches (run, lead, abdicate) are
 * functions that take it; they share the current app, the lease and the failure.
 */
interface ReplicaState {
  readonly options: ReplicaOptions;
  readonly replica: ReplicaLease;
  /** Acquire attempts of a standby. */
  readonly standbyIntervalMs: number;
  /** One server for both roles: the port stays bound while the standby app gives way to the leader app. */
  readonly http: SwitchableHttp;
  /** Resolves the replica's failure (at most the first one counts). */
  readonly fail: (error: Error) => void;
  readonly failure: Promise<Error>;
  /** The app of the current role; undefined while switching. */
  current: App | undefined;
  /** The store of the current app: abandoned at once when the lease is lost (see abdicate). */
  currentStore: StateStore | undefined;
  /** Set by start(). */
  leadership: Leadership | undefined;
  /** stop() was called: no role switch starts an app any more. */
  stopping: boolean;
  /** The role switches, one at a time in order (the standby start, snapshot refreshes, then an election). */
  switching: Promise<void>;
  /** The next refresh of the standby's snapshot (ha.standby_refresh). */
  refreshTimer: NodeJS.Timeout | undefined;
  /** Elected once: the current app is (or is becoming) the leader's, or none after a loss; never refreshed again. */
  led: boolean;
  /** The last refresh failed: the next failure is not logged again, the next success is (once per outage). */
  refreshFailing: boolean;
}

function createReplicaState(options: ReplicaOptions): ReplicaState {
  const replica = (options.replicaLease ?? leaseFor)(options.loaded.config, options.env ?? {}, options.log);
  let fail = (_error: Error) => undefined as void;
  const failure = new Promise<Error>((resolve) => (fail = resolve));
  // A standby tries the lease at least twice per poll interval, so that a takeover after a crash adds at most
  // half a poll interval to the lease's expiry (docs/reliability.md, "Failover").
  const { ha, tail } = options.loaded.config;
  const standbyIntervalMs = Math.max(100, Math.min(1000, ha.lease_ttl / 3, tail.poll_interval / 2));
  return {
    options,
    replica,
    standbyIntervalMs,
    http: switchableHttp(),
    fail,
    failure,
    current: undefined,
    currentStore: undefined,
    leadership: undefined,
    stopping: false,
    switching: Promise.resolve(),
    refreshTimer: undefined,
    led: false,
    refreshFailing: false,
  };
}

function appFor(state: ReplicaState, store: StateStore, standby: boolean, refresh = false): App {
  const { env, pid, configPath, logDestination, stdout, metrics } = state.options;
  // A new leader reads the config as it is now on disk (a standby may have been reloaded meanwhile).
  const fresh = configPath ? loadAll(configPath, { env: env ?? {} }) : undefined;
  const loaded = fresh?.ok ? fresh.loaded : state.options.loaded;
  const ha = { leadership: state.leadership!, standby, refresh };
  const startHttp = state.http.start;
  return createApp({ loaded, configPath, env, pid, logDestination, stdout, store, metrics, ha, startHttp });
}

async function run(state: ReplicaState, standby: boolean): Promise<void> {
  const fence = standby ? undefined : () => state.replica.lease.token();
  const store = await state.options.openStore(fence);
  if (state.stopping || (!standby && !state.leadership?.elected())) return void (await store.close());
  const app = appFor(state, store, standby);
  state.current = app;
  state.currentStore = store;
  watchFailure(state, app, standby);
  await app.start();
}

/** The app of the current role failing fails the replica (a leader's as a write refused by the fence). */
function watchFailure(state: ReplicaState, app: App, standby: boolean): void {
  void app.failure().then((err) => {
    if (state.current !== app) return;
    if (!standby) state.leadership?.fenced(err);
    state.fail(err);
  });
}

function queue(state: ReplicaState, step: () => Promise<void>): Promise<void> {
  state.switching = state.switching.then(step).catch((err: unknown) => {
    state.options.log.error(
      { err },
      'switching the replica role failed; exiting so that it restarts as a standby',
    );
    state.fail(err instanceof Error ? err : new Error(String(err)));
  });
  return state.switching;
}

async function lead(state: ReplicaState, token: bigint): Promise<void> {
  // Set before queueing: a refresh queued or running now must not touch the app of this role (nor, after a
  // loss, the leader app that is being stopped).
  state.led = true;
  await queue(state, async () => {
    if (state.stopping) return;
    const standby = state.current;
    state.current = undefined;
    await standby?.stop({ graceMs: 0 });
    await run(state, false);
    state.options.log.info(
      { token: token.toString(), holder: state.replica.lease.holder },
      'leader elected: tailing and delivering',
    );
  });
}

async function abdicate(state: ReplicaState): Promise<void> {
  const app = state.current;
  state.current = undefined;
  // A step waiting for its batch to reach the database (durable()) must not hold the stop up: the lease is
  // gone, so that batch may never commit (the fence refuses it) and the database may be out of reach.
  state.currentStore?.abandon?.(new Error('leadership lost: this replica no longer writes the shared state'));
  // No grace: the lease is gone, so nothing more may be sent (the channels refuse anyway, leader-guard.ts).
  await app?.stop({ graceMs: 0 });
}

function scheduleRefresh(state: ReplicaState): void {
  // A replica never goes back to standby (a lost lease ends the process), so refreshes end with the election.
  if (state.stopping || state.led) return;
  state.refreshTimer = setTimeout(() => {
    void queue(state, () => refreshStandby(state)).then(() => scheduleRefresh(state));
  }, state.options.loaded.config.ha.standby_refresh);
  state.refreshTimer.unref?.();
}

/**
 * Replaces the standby app by one on a fresh snapshot of the shared state, behind the same HTTP server: the new
 * app starts serving, then the old one stops (it never tails nor delivers, so two standby apps for a moment is
 * harmless). Queued like the role switches, so an election waits for it and finds the new standby app to stop. A
 * snapshot that cannot be loaded (the database down) keeps the old one.
 */
async function refreshStandby(state: ReplicaState): Promise<void> {
  const { log } = state.options;
  const old = state.current;
  if (state.stopping || state.led || old === undefined) return;
  let store: StateStore;
  try {
    store = await state.options.openStore(undefined);
  } catch (err) {
    if (!state.refreshFailing)
      log.warn({ err }, 'standby snapshot refresh failed: serving the previous snapshot');
    state.refreshFailing = true;
    return;
  }
  if (state.refreshFailing) log.info({}, 'standby snapshot refreshed again after failures');
  state.refreshFailing = false;
  if (state.stopping || state.led || state.current !== old) return void (await store.close());
  const app = appFor(state, store, true, true);
  state.current = app;
  state.currentStore = store;
  watchFailure(state, app, true);
  await app.start();
  await old.stop({ graceMs: 0 });
}

async function startReplica(state: ReplicaState): Promise<void> {
  const { log, metrics, intervalMs } = state.options;
  // The standby app starts first (queued ahead of any election), with the leadership it reports.
  const standby = queue(state, () => run(state, true));
  state.leadership = startLeadership({
    ...state.replica,
    ...{ log, metrics, intervalMs, standbyIntervalMs: state.standbyIntervalMs },
    lead: (token) => lead(state, token),
    abdicate: () => abdicate(state),
    onLost: state.fail,
  });
  await standby;
  scheduleRefresh(state);
}

async function stopReplica(state: ReplicaState, stopOptions: { readonly graceMs?: number }): Promise<void> {
  state.stopping = true;
  clearTimeout(state.refreshTimer);
  await state.switching;
  // Drained while still holding the lease; releasing it then lets a standby take over at once.
  const app = state.current;
  state.current = undefined;
  await app?.stop(stopOptions);
  await state.leadership?.stop();
  await state.http.close();
}

export function createReplica(options: ReplicaOptions): Replica {
  const state = createReplicaState(options);
  return {
    start: () => startReplica(state),
    stop: (stopOptions = {}) => stopReplica(state, stopOptions),
    reloadFromDisk: () => state.current?.reloadFromDisk() ?? Promise.resolve(false),
    failure: () => state.failure,
    app: () => state.current,
    leadership: () => state.leadership,
  };
}
