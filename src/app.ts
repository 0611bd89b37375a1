// The composition root (docs/architecture.md): builds the logger, metrics, state store, outbox and HTTP server once,
// and a runtime (clients, notifiers, delivery worker, tailer, timers) per configuration. start() begins polling,
// reload() swaps the runtime for a new config and rule set, stop() shuts down gracefully: polling stops, the
// outbox is flushed within the grace period, the state store is closed.
//
// Every state change is committed in a store transaction as it happens, so "persist state" on shutdown is
// closing the database; a crash loses nothing that was acknowledged.
import type { Writable } from 'node:stream';
import { formatIssue } from './config/config-error.js';
import { startHttpServer, type RunningHttpServer } from './observability/http-server.js';
import type { Logger } from './observability/logger.js';
import { forgetRemovedRules, type Metrics } from './observability/metrics.js';
import type { StateStore } from './state/store.js';
import { loadAll, type Loaded } from './app/load-all.js';
import { readinessChecks } from './app/readiness.js';
import { guardStateStore, type StateGuard } from './app/state-guard.js';
import { rescueState } from './app/state-rescue.js';
import { watchForReload, type ReloadWatcher } from './app/reload-watcher.js';
import { buildChannels, startRuntime, type Runtime } from './app/runtime.js';
import { buildShared } from './app/shared.js';
import { createAccountResolution } from './app/account-resolution.js';
import { createResolvedAccountsRepo } from './app/resolved-accounts-repo.js';
import { createQuarantine, type Quarantine } from './tail/quarantine.js';
import { apiAcks, apiSilences, statusPage } from './app/status-inputs.js';
import { configSilences } from './status/status-silence.js';
import { createApiRouter } from './api/api-router.js';
import { guardChannels } from './app/leader-guard.js';
import { startLeadership, type Leadership } from './app/leadership.js';
import { leaseFor } from './app/lease-for.js';
import { standbyApi } from './app/standby-api.js';
import { standbyReadiness } from './app/standby-readiness.js';

export interface AppOptions {
  readonly loaded: Loaded;
  /** Where the logs go (JSON lines). */
  readonly logDestination: Writable;
  /** Where the console notifier prints. */
  readonly stdout: Writable;
  /** The config file, for reloads from disk (SIGHUP, file watch). */
  readonly configPath?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Overrides log.level (the demo keeps the terminal for alerts). */
  readonly logLevel?: string;
  readonly clock?: () => number;
  readonly random?: () => number;
  /** Recorded as the owner of the state dir (main.ts: process.pid). */
  readonly pid?: number;
  /** How often the state file is checked (default 1 s; it is also checked whenever /readyz is asked). */
  readonly stateCheckIntervalMs?: number;
  /** ha: makes this replica's lease (default lease-for.ts, on the state database). */
  readonly replicaLease?: typeof leaseFor;
}

export interface App {
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly store: StateStore;
  /** The HTTP server's URL once started (/metrics, /healthz, /readyz). */
  httpUrl(): string | undefined;
  /** Settles when the first poll has read a page from the query service. */
  firstPoll(): Promise<void>;
  start(): Promise<void>;
  /** Replaces config and rules; throws (keeping the old ones running) when the new notifiers cannot be built. */
  reload(loaded: Loaded): Promise<void>;
  /** Re-reads the config file and its rules; an invalid one is logged issue by issue and not applied. */
  reloadFromDisk(): Promise<boolean>;
  stop(options?: { readonly graceMs?: number }): Promise<void>;
  /**
   * Settles when the daemon cannot go on (its state dir was deleted or replaced), after it stopped polling and
   * delivered or reported what was pending: the caller exits non-zero.
   */
  failure(): Promise<Error>;
}

// One closure on purpose (longer than 60 lines): start, reload and stop share the runtime, the HTTP server and the
// file watcher, and each method is a few steps over them.
export function createApp(options: AppOptions): App {
  let loaded = options.loaded;
  const { shared, secrets } = buildShared(options);
  const { log, metrics, store, clock } = shared;
  let runtime: Runtime | undefined;
  let http: RunningHttpServer | undefined;
  let watcher: ReloadWatcher | undefined;
  let open = true;
  let reloading = Promise.resolve(true);
  let guard: StateGuard | undefined;
  let lost: Promise<void> | undefined;
  let fail = (_error: Error) => undefined as void;
  const failure = new Promise<Error>((resolve) => (fail = resolve));
  let leadership: Leadership | undefined; // ha: the runtime runs only while this replica leads
  const mayRun = () => !leadership || leadership.elected();
  const maySend = () => !leadership || leadership.leading();
  const channelsFor = (l: Loaded) => guardChannels(buildChannels(shared, l), maySend);
  const persisted = createResolvedAccountsRepo(store);
  const resolution = createAccountResolution({ log, metrics, clock, persisted });

  function markLoaded(ok: boolean): void {
    metrics.configReloadSuccess.set(ok ? 1 : 0);
    if (ok) metrics.configReloadTime.set(Math.floor(clock() / 1000));
  }

  function watch(): void {
    watcher?.close();
    watcher = undefined;
    if (!options.configPath || !loaded.config.daemon.watch_files) return;
    const paths = [options.configPath, ...loaded.rulePaths];
    watcher = watchForReload({ paths, onChange: () => void app.reloadFromDisk(), log });
  }

  // Stop claiming progress: polling stops at once; what is pending is delivered within the shutdown grace (the
  // open database is intact, only unreachable by the next start), then the state is copied back or the
  // undelivered alerts are named, and the caller exits non-zero so that the orchestrator restarts the daemon.
  async function stateLost(reason: string): Promise<void> {
    watcher?.close();
    await stopRuntime(loaded.config.daemon.shutdown_grace);
    const outcome = await rescueState(store, shared.outbox, log);
    fail(new Error(`the state store was lost: ${reason}; polling stopped; ${outcome}`));
  }

  // Accounts by EVM address or alias that the query service did not know yet: once one resolves, the runtime is
  // swapped for one that tails it (docs/tailing.md, "Accounts named by EVM address or alias").
  function retryResolution(): void {
    reloading = reloading.then(resolvePending, resolvePending);
  }

  async function resolvePending(): Promise<boolean> {
    if (lost || !runtime) return true;
    const before = resolution.pending().length;
    const applied = await resolution.apply(loaded, false);
    if (lost || !runtime) return true;
    if (resolution.pending().length < before) {
      const channels = channelsFor(applied);
      await runtime.stop();
      shared.engines.replace(applied.ruleSet);
      runtime = startRuntime(shared, applied, channels);
      log.info({ accounts: applied.accounts.length }, 'resolved accounts added to the tail');
    }
    resolution.scheduleRetry(loaded, retryResolution);
    return true;
  }

  async function becomeLeader(): Promise<void> {
    if (lost || runtime || !open || !mayRun()) return;
    const applied = await resolution.apply(loaded, true);
    shared.engines.replace(applied.ruleSet);
    runtime = startRuntime(shared, applied, channelsFor(applied));
    metrics.leader.set(1);
    resolution.scheduleRetry(loaded, retryResolution);
  }

  // Queued with reloads, so that a reload and an election never start two runtimes.
  function startLeading(): Promise<unknown> {
    return (reloading = reloading.then(becomeLeader).then(() => true));
  }

  /** Without graceMs (a lost lease), no pending send is started: only those in flight finish. */
  async function stopRuntime(graceMs?: number): Promise<void> {
    const current = runtime;
    runtime = undefined;
    await current?.stop(graceMs);
  }

  async function reloadNow(): Promise<boolean> {
    const result = loadAll(options.configPath ?? '', { env: options.env ?? {} });
    if (!result.ok) {
      for (const issue of result.issues) log.error({ issue: formatIssue(issue) }, 'config reload rejected');
      markLoaded(false);
      return false;
    }
    try {
      await app.reload(result.loaded);
      return true;
    } catch (err) {
      log.error({ err }, 'config reload rejected');
      markLoaded(false);
      return false;
    }
  }

  const app: App = {
    log,
    metrics,
    store,
    httpUrl: () => http?.url,
    firstPoll: () => shared.health.firstPoll,
    async start() {
      const { http: listen, self_monitoring } = loaded.config;
      const checks = () =>
        readinessChecks({
          configLoaded: () => true,
          stateOpen: () => open,
          stateProblem: () => guard?.check(),
          health: () => shared.health,
          boundMs: () => self_monitoring.query_service_down_after,
          clock,
          delivery: () => ({
            lastPassAt: runtime?.worker.lastPassAt(),
            pauses: shared.pauses.list(),
            notifiers: Object.keys(loaded.config.notifiers),
            pausedAfterMs: loaded.config.self_monitoring.delivery_paused_after,
          }),
        });
      const readiness = () => standbyReadiness(checks(), leadership);
      http = await startHttpServer({
        host: listen.host,
        port: listen.port,
        registry: metrics.registry,
        readiness,
        views: { '/quarantine': quarantineView(createQuarantine(store, clock)) },
        statusPage: statusPage({
          ...{ shared, loaded: () => loaded, runtime: () => runtime, readiness },
          silences: () => [
            ...configSilences(loaded.config.silences),
            ...apiSilences(shared.controls.silences),
          ],
          acks: () => apiAcks(shared.controls.acks),
        }),
        api: standbyApi(
          createApiRouter({
            ...shared.controls,
            http: () => loaded.config.http,
            readiness,
            reload: () => app.reloadFromDisk(),
            ...{ clock, log, metrics },
          }),
          () => leadership,
        ),
      });
      if (loaded.config.ha.enabled) {
        const replica = (options.replicaLease ?? leaseFor)(loaded.config, options.env ?? {}, log);
        const ends = { lead: startLeading, abdicate: () => stopRuntime(), onLost: fail };
        leadership = startLeadership({ ...replica, ...ends, log, metrics });
      } else await becomeLeader();
      guard = guardStateStore({
        ...{ store, log, metrics },
        intervalMs: options.stateCheckIntervalMs ?? 1000,
        onLost: (reason) => void (lost = stateLost(reason)),
      });
      markLoaded(true);
      watch();
      log.info(
        { accounts: loaded.accounts.length, rules: loaded.ruleSet.rules.length, http: http.url },
        'started',
      );
    },
    async reload(next) {
      if (lost) throw new Error('the state store was lost: not reloading');
      const channels = channelsFor(next);
      if (
        next.config.state.dir !== loaded.config.state.dir ||
        next.config.http.port !== loaded.config.http.port
      )
        log.warn('state.dir and http changes take effect on restart only');
      // Resolved before the old runtime stops, so it keeps tailing while the lookups run.
      const applied = await resolution.apply(next, true);
      await runtime?.stop();
      // The state may have been lost while the old runtime stopped: then there is nothing to start on.
      if (lost) throw new Error('the state store was lost: not reloading');
      loaded = next;
      secrets.set(next.config);
      shared.controls.apply(next.config);
      log.level = options.logLevel ?? next.config.log.level;
      shared.engines.replace(applied.ruleSet);
      await forgetRemovedRules(metrics, new Set(next.ruleSet.rules.map((r) => r.id)));
      shared.ruleActivity.keepOnly(new Set(next.ruleSet.rules.map((r) => r.id)));
      // A standby keeps the new config for when it is elected.
      if (mayRun()) runtime = startRuntime(shared, applied, channels);
      resolution.scheduleRetry(next, retryResolution);
      markLoaded(true);
      watch();
      log.info({ accounts: next.accounts.length, rules: next.ruleSet.rules.length }, 'config reloaded');
    },
    reloadFromDisk() {
      // One reload at a time: a burst of file events or signals queues behind the one running.
      reloading = reloading.then(reloadNow, reloadNow);
      return reloading;
    },
    async stop(stopOptions = {}) {
      watcher?.close();
      resolution.close();
      guard?.close();
      await lost;
      await reloading.catch(() => undefined);
      await stopRuntime(stopOptions.graceMs ?? loaded.config.daemon.shutdown_grace);
      // Drained while still holding the lease; releasing it lets a standby take over at once.
      await leadership?.stop();
      await http?.close();
      if (open) store.close();
      open = false;
      log.info('stopped');
    },
    failure: () => failure,
  };
  return app;
}

/** GET /quarantine: the records the daemon could not read, oldest first, as `quarantine ls --json` shows them. */
function quarantineView(quarantine: Quarantine): () => unknown {
  return () => ({ total: quarantine.count(), records: quarantine.list(1000) });
}
