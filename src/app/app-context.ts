// The state the app's lifecycle steps share (create-app.ts, app-start.ts, app-reload.ts): what was built once per
// process, the running runtime, HTTP server and file watcher, and what the reload queue needs.
import type { StatusSampler } from '../status/status-sampler.js';
import type { Writable } from 'node:stream';
import type { HttpServerOptions, RunningHttpServer } from '../observability/http-server.js';
import { createAccountResolution, type AccountResolution } from './account-resolution.js';
import type { RuleFileCache } from '../rules/load/load-rules.js';
import type { Loaded } from './load-all.js';
import type { Fingerprint } from './reload-fingerprint.js';
import type { ReloadWatcher } from './reload-watcher.js';
import { createResolvedAccountsRepo } from '../tail/resolve/resolved-accounts-repo.js';
import { buildChannels } from './runtime.js';
import type { Runtime, Shared } from './runtime-parts.js';
import type { Channel } from '../delivery/channels.js';
import { guardChannels } from './leader-guard.js';
import { dryRunChannels } from '../delivery/dry-run-channels.js';
import { buildShared, type Secrets } from './shared.js';
import type { StateGuard } from '../state/state-guard.js';
import type { StateStore } from '../state/store.js';
import type { Metrics } from '../observability/metrics.js';
import type { Leadership } from './leadership.js';

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
  /** A store opened by the caller (openConfiguredStore: PostgreSQL opens asynchronously); default: SQLite. */
  readonly store?: StateStore;
  /** Metrics made by the caller together with that store. */
  readonly metrics?: Metrics;
  /** ha: this replica's role under the lease (cli/run/run-replica.ts); absent, the app is the only replica. */
  readonly ha?: AppHa;
  /**
   * `run --dry-run`: notifiers only log what they would send (delivery/dry-run-channels.ts) and the HTTP server
   * takes a free port, so a dry run can sit beside the real daemon. The caller passes an in-memory store.
   */
  readonly dryRun?: boolean;
  /** Serves the app's HTTP handlers (default: its own server; a replica keeps one across its apps). */
  readonly startHttp?: (options: HttpServerOptions) => Promise<RunningHttpServer>;
}

/** A replica under the lease: a standby never starts the runtime; a leader sends only while it leads. */
export interface AppHa {
  readonly leadership: Leadership;
  readonly standby: boolean;
  /** A standby app that replaces another on a fresh snapshot (every ha.standby_refresh): started and stopped at debug. */
  readonly refresh?: boolean;
}

export interface AppContext {
  readonly options: AppOptions;
  readonly shared: Shared;
  readonly secrets: Secrets;
  readonly resolution: AccountResolution;
  /** The config as loaded (before account resolution). */
  loaded: Loaded;
  runtime: Runtime | undefined;
  http: RunningHttpServer | undefined;
  watcher: { readonly key: string; readonly watcher: ReloadWatcher } | undefined;
  /** What the loaded config was read from; undefined: unknown, the next file event reloads. */
  fingerprint: Fingerprint | undefined;
  open: boolean;
  /** Parsed rule files of the last load from disk: a reload parses only the files that changed. */
  readonly ruleCache: RuleFileCache;
  /** The reload queue: one reload (or account resolution) at a time. */
  reloading: Promise<boolean>;
  guard: StateGuard | undefined;
  /** The status page's chart samples (status-sampler.ts), from the HTTP server's start on. */
  sampler?: StatusSampler;
  lost: Promise<void> | undefined;
  readonly failure: Promise<Error>;
  fail(error: Error): void;
}

export function createAppContext(options: AppOptions): AppContext {
  const { shared, secrets } = buildShared(options);
  const { log, metrics, store, clock } = shared;
  let fail = (_error: Error) => undefined as void;
  const failure = new Promise<Error>((resolve) => (fail = resolve));
  const persisted = createResolvedAccountsRepo(store);
  return {
    ...{ options, shared, secrets, failure, fail },
    resolution: createAccountResolution({ log, metrics, clock, persisted }),
    loaded: options.loaded,
    ...{ runtime: undefined, http: undefined, watcher: undefined, fingerprint: undefined },
    open: true,
    ruleCache: new Map(),
    reloading: Promise.resolve(true),
    ...{ guard: undefined, lost: undefined },
  };
}

/**
 * The notifiers of `loaded`; under ha every send first checks that this replica still leads (leader-guard.ts)
 * and that its store was not fenced (a newer token refused a write: another replica delivers now).
 */
export function channelsFor(ctx: AppContext, loaded: Loaded): Map<string, Channel> {
  const real = buildChannels(ctx.shared, loaded);
  const built = ctx.options.dryRun ? dryRunChannels(real, ctx.shared.log) : real;
  const ha = ctx.options.ha;
  const { store } = ctx.shared;
  return ha ? guardChannels(built, () => ha.leadership.leading() && store.check() === undefined) : built;
}
