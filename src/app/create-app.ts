// The composition root (docs/architecture.md): builds the logger, metrics, state store, outbox and HTTP server once,
// and a runtime (clients, notifiers, delivery worker, tailer, timers) from the configuration. start() begins
// polling, reload() swaps the parts of the runtime that a new config and rule set change (app/app-reload.ts),
// stop() shuts down gracefully: polling stops, the outbox is flushed within the grace period, the state store
// is closed.
//
// Every state change is committed in a store transaction as it happens, so "persist state" on shutdown is
// closing the database; a crash loses nothing that was acknowledged.
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { StateStore } from '../state/store.js';
import { createAppContext, type AppOptions } from './app-context.js';
import { applyReload, reloadFromDisk } from './app-reload.js';
import { startApp, stopApp } from './app-start.js';
import type { Loaded } from './load-all.js';

export type { AppOptions } from './app-context.js';

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

export function createApp(options: AppOptions): App {
  const ctx = createAppContext(options);
  const { log, metrics, store, health } = ctx.shared;
  // One stop: a lost lease (abdicate) and the process's own stop may both ask; the second waits for the first.
  let stopping: Promise<void> | undefined;
  const app: App = {
    log,
    metrics,
    store,
    httpUrl: () => ctx.http?.url,
    firstPoll: () => health.firstPoll,
    start: () => startApp(ctx, () => app.reloadFromDisk()),
    reload: (next) => applyReload(ctx, next),
    // One reload at a time: a burst of signals queues behind the one running.
    reloadFromDisk: () => reloadFromDisk(ctx),
    stop: (stopOptions = {}) => (stopping ??= stopApp(ctx, stopOptions.graceMs)),
    failure: () => ctx.failure,
  };
  return app;
}
