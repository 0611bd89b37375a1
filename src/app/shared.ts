// What outlives a reload, built once per process: the logger (scrubbing the config's secrets from every line,
// the current config's after a reload), the metrics, the state store and what lives in it.
import type { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { DestinationStream } from 'pino';
import { Config } from '../config-file/schema.js';
import { collectSecrets } from '../config/secret.js';
import { createOutbox } from '../delivery/outbox.js';
import { createLogger, redactSecrets } from '../observability/logger.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { createRuleStateRepo } from '../rules/alert-state/state-repo.js';
import { openStateStore, type StateStore } from '../state/store.js';
import { VERSION } from '../version.js';
import { createEngineHolder } from '../pipeline/engine-holder.js';
import type { Loaded } from './load-all.js';
import type { Shared } from './runtime-parts.js';
import { createSelfMonitorRepo } from '../self-monitor/self-monitor-repo.js';
import { createTailHealth } from '../tail/loop/daemon-loop.js';
import { createPauseBoard } from '../delivery/pause-board.js';
import { createRuleActivity } from '../status/rule-activity.js';
import { createClockWatch } from '../tail/head/clock-watch.js';
import { createRuntimeControls } from './runtime-controls.js';

export interface SharedOptions {
  readonly loaded: Loaded;
  readonly logDestination: Writable;
  readonly stdout: Writable;
  readonly logLevel?: string;
  /** The wall clock, ms since the epoch (default Date.now). */
  readonly clock?: () => number;
  /**
   * The monotonic clock, ms (default performance.now, or `clock` when only that is injected: a simulated clock
   * then drives both, and no step is ever seen between them).
   */
  readonly monotonic?: () => number;
  readonly random?: () => number;
  /** Recorded as the owner of the state dir. */
  readonly pid?: number;
  /** A store opened by the caller (the PostgreSQL backend opens asynchronously); default: SQLite in state.dir. */
  readonly store?: StateStore;
  /** Metrics made by the caller (the PostgreSQL store records into them from its open on). */
  readonly metrics?: Metrics;
}

export interface Secrets {
  /** Scrubs the secrets of this config from now on. */
  set(config: Config): void;
}

export function buildShared(options: SharedOptions): { shared: Shared; secrets: Secrets } {
  const { config, ruleSet } = options.loaded;
  let values = collectSecrets(Config, config);
  const destination: DestinationStream = {
    write: (line: string) => void options.logDestination.write(redactSecrets(line, values)),
  };
  const log = createLogger({ level: options.logLevel ?? config.log.level, destination });
  const metrics = options.metrics ?? createMetrics({ processMetrics: true, version: VERSION });
  const health = createTailHealth();
  const wall = options.clock ?? Date.now;
  // The daemon's `now`: the wall clock, never going back; a step either way is logged, counted and alerted on.
  const watch = createClockWatch({
    wall,
    monotonic: options.monotonic ?? (options.clock ? wall : undefined),
    log: log.child({ component: 'clock' }),
    metrics,
    onStep: (step) => (health.lastClockStep = step),
  });
  const clock = () => watch.now();
  const store =
    options.store ??
    openStateStore({
      dir: config.state.dir,
      pid: options.pid,
      clock,
      replayableSync: config.state.sqlite.synchronous,
    });
  const repo = createRuleStateRepo(store);
  const selfMonitorRepo = createSelfMonitorRepo(store);
  const outbox = createOutbox(store, clock);
  const shared: Shared = {
    log,
    metrics,
    store,
    repo,
    outbox,
    engines: createEngineHolder(ruleSet, repo),
    health,
    stdout: options.stdout,
    clock,
    monotonic: watch.monotonic,
    random: options.random ?? Math.random,
    sleep: (ms, signal) => delay(ms, undefined, { signal }),
    startedAt: clock(),
    selfMonitor: selfMonitorRepo.load(),
    selfMonitorRepo,
    pauses: createPauseBoard(),
    ruleActivity: createRuleActivity(clock),
    controls: createRuntimeControls({ store, metrics, clock, config }),
  };
  return { shared, secrets: { set: (next) => (values = collectSecrets(Config, next)) } };
}
