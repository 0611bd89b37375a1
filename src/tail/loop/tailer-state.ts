// The tailer's state, as one named structure: what it was built with and what changes from round to round
// (the strategy in use, the round counter). The tailer's steps (start-tail.ts, round.ts,
// switch-strategy.ts, stream-staleness.ts) are functions that take it.
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { once } from '../../ledger/once.js';
import { Backoff } from './backoff.js';
import { type CapacityWatch, createCapacityWatch } from '../health/capacity-watch.js';
import { TailConfig } from '../tail-config.js';
import { FutureRecords } from '../head/future-records.js';
import { globalIndex, type GlobalIndex } from '../global/global-index.js';
import { createGlobalTail, type GlobalTail } from '../global/global-tail.js';
import { HeadTracker } from '../head/head-tracker.js';
import { createPollRunner, type PollRunner } from './poll-runner.js';
import { createQuarantine } from '../quarantine/quarantine-store.js';
import type { Strategy } from '../strategy/strategy-cost.js';
import { accountStreams } from '../streams/watch-streams.js';
import { type AccountStream } from '../streams/stream-kind.js';
import { STREAM_KINDS } from '../streams/stream-kinds.js';
import type { TailContext } from '../poll/poll-context.js';
import type { TailMetrics } from '../tail-metrics.js';
import { CursorStore } from '../cursor/cursor-store.js';
import type { TailerOptions } from '../tailer-types.js';

export interface TailerState {
  readonly config: TailConfig;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** Milliseconds, never going back: every elapsed time and timer (a wall-clock step stalls none of them). */
  readonly monotonic: () => number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log: Logger | undefined;
  readonly metrics: TailMetrics | undefined;
  /** How many of the stalest streams get their own staleness series. */
  readonly stalenessTop: number;
  /** What every poll needs: cursors, source, handler, head, future bound, quarantine. */
  readonly ctx: TailContext;
  /** One stream per watched account and source, in watch-list order. */
  readonly streams: readonly AccountStream[];
  /** The streams the global tail covers, by account id. */
  readonly index: GlobalIndex;
  readonly globalTail: GlobalTail;
  /** Per-stream backoff after failed polls. */
  readonly backoff: Backoff;
  /** The polls in flight, their concurrency slots and the tally since the last report. */
  readonly polls: PollRunner;
  /** Request demand against the budget, updated every round (health/capacity-watch.ts). */
  readonly capacity: CapacityWatch;
  /** The strategy in use; undefined until the first round has started the tail. */
  current: Strategy | undefined;
  /** Rounds started so far (auto strategy: reconsidered every tail.reevaluate_rounds). */
  rounds: number;
}

export function createTailerState(options: TailerOptions): TailerState {
  const config = options.config ?? TailConfig.parse(undefined);
  const clock = options.clock ?? Date.now;
  const monotonic = options.monotonic ?? options.clock ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const log = options.logger?.child({ component: 'tail' });
  const ctx = createTailContext(options, config, { clock, monotonic }, log);
  const streams = accountStreams(options.accounts, options.pushdown);
  const index = globalIndex(streams);
  const globalTail = createGlobalTail(ctx, index, {
    mode: config.global_mode,
    sweepIntervalMs: config.sweep_interval,
    clock,
    monotonic,
  });
  const backoff = new Backoff(config.poll_interval, config.max_backoff, random);
  const polls = createPollRunner({
    concurrency: config.concurrency,
    hardStopMs: 2 * config.max_poll_duration,
    backoff,
    kind: (key) => streamKind(streams, key),
    clock: monotonic,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(log ? { log } : {}),
  });
  return {
    config,
    clock,
    monotonic,
    random,
    sleep: options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal })),
    log,
    metrics: options.metrics,
    stalenessTop: options.stalenessTop ?? 10,
    ctx,
    streams,
    index,
    globalTail,
    backoff,
    polls,
    capacity: createCapacityWatch({ budgetRps: options.budgetRps, metrics: options.metrics, log }),
    current: undefined,
    rounds: 0,
  };
}

function createTailContext(
  options: TailerOptions,
  config: TailConfig,
  clocks: { readonly clock: () => number; readonly monotonic: () => number },
  log: Logger | undefined,
): TailContext {
  const { clock, monotonic } = clocks;
  const future = new FutureRecords({
    clock,
    maxClockSkewMs: config.max_clock_skew,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(log ? { log } : {}),
    ...(options.onFutureRecord ? { onSighting: options.onFutureRecord } : {}),
    ...(options.onHeadAhead ? { onAhead: options.onHeadAhead } : {}),
  });
  // Nothing moves state past this host's clock: a row dated ahead of it (an unwatched account's included)
  // cannot carry the head, and through it every account's `safe` cursor, past rows not yet written.
  const limit = () => future.settleLimit();
  return {
    state: new CursorStore(options.store, limit),
    source: options.source,
    handler: options.handler,
    head: new HeadTracker(limit, (ts) => future.ahead(ts)),
    future,
    overlapNs: BigInt(config.overlap) * 1_000_000n,
    pageLimit: options.pageLimit ?? 100,
    walk: { maxPages: config.max_pages_per_poll, maxDurationMs: config.max_poll_duration, clock: monotonic },
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(log ? { log } : {}),
    quarantine: options.quarantine ?? createQuarantine(options.store, clock),
    firstTime: once(),
  };
}

/** The stream kind's name for the poll failure metric: transactions, rewards or global. */
function streamKind(streams: readonly AccountStream[], key: string): string {
  const global = STREAM_KINDS.global;
  return key === global.key || key === global.sweepKey
    ? global.name
    : (streams.find((s) => s.key === key)?.kind.name ?? STREAM_KINDS.transactions.name);
}
