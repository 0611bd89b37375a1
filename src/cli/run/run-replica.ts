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
import { switchableHttp } from '../../observability/switchable-http.js';

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

// Longer than 60 lines on purpose: the role switches share the current app, the lease and the failure.
export function createReplica(options: ReplicaOptions): Replica {
  const { log } = options;
  const replica: ReplicaLease = (options.replicaLease ?? leaseFor)(
    options.loaded.config,
    options.env ?? {},
    log,
  );
  let current: App | undefined;
  /** The store of the current app: abandoned at once when the lease is lost (see abdicate). */
  let currentStore: StateStore | undefined;
  let leadership: Leadership | undefined;
  let stopping = false;
  let switching: Promise<void> = Promise.resolve();
  let fail = (_error: Error) => undefined as void;
  const failure = new Promise<Error>((resolve) => (fail = resolve));
  // A standby tries the lease at least twice per poll interval, so that a takeover after a crash adds at most
  // half a poll interval to the lease's expiry (docs/reliability.md, "Failover").
  const { ha, tail } = options.loaded.config;
  const standbyIntervalMs = Math.max(100, Math.min(1000, ha.lease_ttl / 3, tail.poll_interval / 2));
  // One server for both roles: the port stays bound while the standby app gives way to the leader app.
  const http = switchableHttp();

  function appFor(store: StateStore, standby: boolean): App {
    const { env, pid, configPath, logDestination, stdout, metrics } = options;
    // A new leader reads the config as it is now on disk (a standby may have been reloaded meanwhile).
    const fresh = configPath ? loadAll(configPath, { env: env ?? {} }) : undefined;
    const loaded = fresh?.ok ? fresh.loaded : options.loaded;
    const ha = { leadership: leadership!, standby };
    const startHttp = http.start;
    return createApp({ loaded, configPath, env, pid, logDestination, stdout, store, metrics, ha, startHttp });
  }

  async function run(standby: boolean): Promise<void> {
    const fence = standby ? undefined : () => replica.lease.token();
    const store = await options.openStore(fence);
    if (stopping || (!standby && !leadership?.elected())) return void (await store.close());
    const app = appFor(store, standby);
    current = app;
    currentStore = store;
    void app.failure().then((err) => {
      if (current !== app) return;
      if (!standby) leadership?.fenced(err);
      fail(err);
    });
    await app.start();
  }

  function queue(step: () => Promise<void>): Promise<void> {
    switching = switching.then(step).catch((err: unknown) => {
      log.error({ err }, 'switching the replica role failed; exiting so that it restarts as a standby');
      fail(err instanceof Error ? err : new Error(String(err)));
    });
    return switching;
  }

  async function lead(token: bigint): Promise<void> {
    await queue(async () => {
      if (stopping) return;
      const standby = current;
      current = undefined;
      await standby?.stop({ graceMs: 0 });
      await run(false);
      log.info(
        { token: token.toString(), holder: replica.lease.holder },
        'leader elected: tailing and delivering',
      );
    });
  }

  async function abdicate(): Promise<void> {
    const app = current;
    current = undefined;
    // A step waiting for its batch to reach the database (durable()) must not hold the stop up: the lease is
    // gone, so that batch may never commit (the fence refuses it) and the database may be out of reach.
    currentStore?.abandon?.(new Error('leadership lost: this replica no longer writes the shared state'));
    // No grace: the lease is gone, so nothing more may be sent (the channels refuse anyway, leader-guard.ts).
    await app?.stop({ graceMs: 0 });
  }

  return {
    async start() {
      // The standby app starts first (queued ahead of any election), with the leadership it reports.
      const standby = queue(() => run(true));
      leadership = startLeadership({
        ...replica,
        ...{ log, metrics: options.metrics, intervalMs: options.intervalMs, standbyIntervalMs },
        lead,
        abdicate,
        onLost: fail,
      });
      await standby;
    },
    async stop(stopOptions = {}) {
      stopping = true;
      await switching;
      // Drained while still holding the lease; releasing it then lets a standby take over at once.
      const app = current;
      current = undefined;
      await app?.stop(stopOptions);
      await leadership?.stop();
      await http.close();
    },
    reloadFromDisk: () => current?.reloadFromDisk() ?? Promise.resolve(false),
    failure: () => failure,
    app: () => current,
    leadership: () => leadership,
  };
}
