// The tailer: polls the watch list in rounds (one poll per stream per round, so never two polls of the
// same account at once), per account or through the global tail, within bounded concurrency, and stops
// cleanly on an AbortSignal. Every request goes through the TailSource, i.e. the client's shared budget.
import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { timestampFromMillis } from '../ledger/timestamp.js';
import type { StateStore } from '../state/store.js';
import { pollAccountStream, type PollResult } from './account-tailer.js';
import { Backoff } from './backoff.js';
import { type Pushdown, TailConfig, startPosition } from './config.js';
import { ensureCursors, startGlobal, stopGlobal } from './cursors.js';
import { FutureRecords, type FutureSighting } from './future-records.js';
import { createGlobalTail, globalIndex } from './global-tailer.js';
import { HeadTracker } from './head-tracker.js';
import { probeHead, recentFrom } from './probe-head.js';
import type { RecordHandler } from './record-handler.js';
import { repairCursors } from './repair-cursors.js';
import { runPool } from './run-pool.js';
import { type StalenessSummary, type StreamStaleness, summarizeStaleness } from './staleness.js';
import { type Strategy, chooseStrategy, estimateCosts } from './strategy.js';
import { type AccountStream, GLOBAL_STREAM, accountStreams } from './streams.js';
import type { TailContext, TailMetrics } from './tail-context.js';
import type { TailSource } from './tail-source.js';
import { type Cursor, TailState } from './tail-state.js';
import type { WatchedAccount } from './watched-account.js';

export interface TailerOptions {
  readonly store: StateStore;
  readonly source: TailSource;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler has its own prepared type
  readonly handler: RecordHandler<any>;
  readonly accounts: readonly WatchedAccount[];
  /** The parsed `tail` section; defaults apply when absent. */
  readonly config?: TailConfig;
  /** Filters the caller has proven safe for every rule on the account (e.g. result=fail). */
  readonly pushdown?: (account: WatchedAccount) => Pushdown | undefined;
  readonly metrics?: TailMetrics;
  readonly logger?: Logger;
  /** Milliseconds since the epoch. */
  readonly clock?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random?: () => number;
  readonly pageLimit?: number;
  /** How many of the stalest streams get their own staleness series. */
  readonly stalenessTop?: number;
  /** Each record handed over with a timestamp beyond now + tail.max_clock_skew (self-monitoring). */
  readonly onFutureRecord?: (sighting: FutureSighting) => void;
}

export interface RoundReport {
  readonly strategy: Strategy;
  /** Pages read (= requests that succeeded), head probe included. */
  readonly pages: number;
  readonly delivered: number;
  readonly dropped: number;
  readonly failed: number;
}

export interface Tailer {
  /** One round: every stream that is not backing off, once. */
  round(signal: AbortSignal): Promise<RoundReport>;
  /** Rounds every poll_interval (± jitter) until the signal aborts; resolves then. */
  run(signal: AbortSignal): Promise<void>;
  strategy(): Strategy | undefined;
  staleness(): StalenessSummary;
  /** now − read cursor of every stream, computed on each call from the in-memory cursors: O(streams). */
  streamStaleness(): readonly StreamStaleness[];
  readonly head: HeadTracker;
  readonly future: FutureRecords;
}

// One closure on purpose: round(), run(), the strategy switch and the staleness summary share the tailer's
// mutable state (current strategy, round counter, backoff, head tracker); splitting it would thread that
// state through every helper. The per-stream work itself lives in account-tailer.ts and global-tailer.ts.
export function createTailer(options: TailerOptions): Tailer {
  const config = options.config ?? TailConfig.parse(undefined);
  const clock = options.clock ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  const log = options.logger?.child({ component: 'tail' });
  const future = new FutureRecords({
    clock,
    maxClockSkewMs: config.max_clock_skew,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(log ? { log } : {}),
    ...(options.onFutureRecord ? { onSighting: options.onFutureRecord } : {}),
  });
  const bound = () => future.bound();
  const head = new HeadTracker(bound);
  const ctx: TailContext = {
    state: new TailState(options.store, bound),
    source: options.source,
    handler: options.handler,
    head,
    future,
    overlapNs: BigInt(config.overlap) * 1_000_000n,
    pageLimit: options.pageLimit ?? 100,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(log ? { log } : {}),
  };
  const streams = accountStreams(options.accounts, options.pushdown);
  const index = globalIndex(streams);
  const globalTail = createGlobalTail(ctx, index, {
    mode: config.global_mode,
    sweepIntervalMs: config.sweep_interval,
    clock,
  });
  const backoff = new Backoff(config.poll_interval, config.max_backoff, random);
  let current: Strategy | undefined;
  let rounds = 0;

  /** Resolves with the pages the head probe read, or undefined when it did not probe. */
  async function start(signal: AbortSignal): Promise<number | undefined> {
    const position = startPosition(config);
    const probe = position === 'now' || config.strategy === 'auto';
    const nowNs = timestampFromMillis(clock());
    const pages = probe ? await probeHead(ctx, signal, nowNs) : undefined;
    // A cursor left beyond the bound (by a version without it, or a bad clock) restarts from the head.
    const repairTo = probe ? startCursor('now', nowNs) : { safe: nowNs, read: nowNs };
    repairCursors(ctx.state, future.bound(), repairTo, log);
    ensureCursors(ctx.state, streams, startCursor(position, nowNs));
    const resumedGlobal = ctx.state.cursor(GLOBAL_STREAM) !== undefined;
    switchTo(config.strategy === 'auto' ? (resumedGlobal ? 'global' : cheapest()) : config.strategy);
    return pages;
  }

  function startCursor(position: bigint | 'now', nowNs: bigint): Cursor {
    if (position !== 'now') return { safe: position, read: position };
    if (head.head !== undefined) return { safe: head.head, read: head.head };
    // No visible row: the service showed nothing after recentFrom(now), so whatever shows up later is new
    // and is read; for staleness the streams are read through now.
    return { safe: recentFrom(nowNs), read: nowNs };
  }

  function cheapest(): Strategy {
    return chooseStrategy(
      current,
      estimateCosts({
        coveredStreams: index.transactions.size + index.rewards.size,
        tps: head.tps,
        pollIntervalMs: config.poll_interval,
        globalMode: config.global_mode,
        sweepIntervalMs: config.sweep_interval,
        pageLimit: ctx.pageLimit,
      }),
    );
  }

  function switchTo(next: Strategy): void {
    if (next === current) return;
    if (next === 'global') startGlobal(ctx.state, streams);
    else stopGlobal(ctx.state, streams);
    if (current !== undefined) log?.info({ from: current, to: next }, 'tail strategy changed');
    current = next;
    options.metrics?.tailStrategy.set({ strategy: next }, 1);
    options.metrics?.tailStrategy.set({ strategy: next === 'global' ? 'per-account' : 'global' }, 0);
  }

  async function round(outer: AbortSignal): Promise<RoundReport> {
    // Each in-flight request listens on the signal; more than Node's default 10 is expected here.
    const signal = AbortSignal.any([outer]);
    setMaxListeners(config.concurrency * 4 + 10, signal);
    let probed: number | undefined;
    if (current === undefined) probed = await start(signal);
    else if (config.strategy === 'auto' && rounds % config.reevaluate_rounds === 0) switchTo(cheapest());
    rounds += 1;
    const strategy = current ?? 'per-account';
    const totals = { pages: probed ?? 0, delivered: 0, dropped: 0, failed: 0 };
    // Per-account polls and the settled global read both settle against a fresh head; the immediate global
    // read finds the head itself.
    const probes = strategy === 'per-account' || config.global_mode === 'settled';
    if (probes && probed === undefined)
      totals.pages += await probeHead(ctx, signal, timestampFromMillis(clock()));
    const jobs = pollJobs(strategy).map((job) => () => runJob(job.key, job.poll, totals, signal));
    await runPool(jobs, config.concurrency);
    signal.throwIfAborted();
    if (head.head !== undefined)
      options.metrics?.lag.set(Number(timestampFromMillis(clock()) - head.head) / 1e9);
    staleness();
    return { strategy, ...totals };
  }

  function pollJobs(strategy: Strategy): { key: string; poll: (s: AbortSignal) => Promise<PollResult> }[] {
    const now = clock();
    const perAccount = streams
      .filter((s) => (strategy === 'per-account' || !s.coveredByGlobal) && backoff.ready(s.key, now))
      .sort(byPriorityThenStaleness)
      .map((s) => ({ key: s.key, poll: (signal: AbortSignal) => pollAccountStream(ctx, s, signal) }));
    if (strategy === 'per-account' || !backoff.ready(GLOBAL_STREAM, now)) return perAccount;
    return [{ key: GLOBAL_STREAM, poll: (signal) => globalTail.poll(signal) }, ...perAccount];
  }

  function byPriorityThenStaleness(a: AccountStream, b: AccountStream): number {
    if (a.account.priority !== b.account.priority) return b.account.priority - a.account.priority;
    const ra = ctx.state.cursor(a.key)?.read ?? 0n;
    const rb = ctx.state.cursor(b.key)?.read ?? 0n;
    return ra < rb ? -1 : ra > rb ? 1 : 0;
  }

  async function runJob(
    key: string,
    poll: (signal: AbortSignal) => Promise<PollResult>,
    totals: { pages: number; delivered: number; dropped: number; failed: number },
    signal: AbortSignal,
  ): Promise<void> {
    if (signal.aborted) return;
    try {
      const r = await poll(signal);
      totals.pages += r.pages;
      totals.delivered += r.delivered;
      totals.dropped += r.dropped;
      backoff.succeeded(key);
    } catch (err) {
      if (signal.aborted) return;
      totals.failed += 1;
      options.metrics?.pollFailures.inc({ stream: streamKind(key) });
      const waitMs = backoff.failed(key, clock());
      log?.warn({ err, stream: key, waitMs }, 'poll failed');
    }
  }

  function streamKind(key: string): string {
    return key === GLOBAL_STREAM ? 'global' : (streams.find((s) => s.key === key)?.source ?? 'transactions');
  }

  function streamStaleness(): StreamStaleness[] {
    const now = timestampFromMillis(clock());
    const global = current === 'global' ? ctx.state.cursor(GLOBAL_STREAM) : undefined;
    return streams.map((s) => {
      const own = ctx.state.cursor(s.key)?.read ?? 0n;
      const read = global && s.coveredByGlobal && global.read > own ? global.read : own;
      // A cursor within the clock skew ahead of now is as fresh as can be, not negatively stale.
      return { account: s.account.id, source: s.source, seconds: read > now ? 0 : Number(now - read) / 1e9 };
    });
  }

  function staleness(): StalenessSummary {
    return summarizeStaleness(streamStaleness(), options.metrics, options.stalenessTop ?? 10);
  }

  async function run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const started = clock();
      try {
        await round(signal);
      } catch (err) {
        if (signal.aborted) break;
        log?.warn({ err }, 'tail round failed');
      }
      const interval = config.poll_interval * (1 + config.jitter * (2 * random() - 1));
      const wait = interval - (clock() - started);
      if (wait > 0) await sleep(wait, signal).catch(() => undefined);
    }
  }

  return { round, run, strategy: () => current, staleness, streamStaleness, head, future };
}
