// The tailer: polls the watch list in rounds, per account or through the global tail, within bounded
// concurrency, and stops cleanly on an AbortSignal. Every request goes through the TailSource, i.e. the
// client's shared budget. Streams are independent: a round waits for its polls at most one poll_interval,
// and a poll still running then carries on (or fails) on its own while later rounds poll every other stream;
// a stream with a poll in flight is skipped, so there are never two polls of the same stream at once.
import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import type { StateStore } from '../state/store.js';
import { pollAccountStream, type PollResult } from './account-tailer.js';
import { Backoff } from './backoff.js';
import { type CapacityView, createCapacityWatch } from './capacity-watch.js';
import { type Pushdown, TailConfig, startPosition } from './config.js';
import { ensureCursors, startGlobal, stopGlobal } from './cursors.js';
import { FutureRecords, type FutureSighting } from './future-records.js';
import { createGlobalTail, globalIndex } from './global-tailer.js';
import { HeadTracker } from './head-tracker.js';
import { probeHead, recentFrom } from './probe-head.js';
import type { RecordHandler } from './record-handler.js';
import { createPollRunner } from './poll-runner.js';
import { repairCursors } from './repair-cursors.js';
import { type StalenessSummary, type StreamStaleness, summarizeStaleness } from './staleness.js';
import { type Strategy, chooseStrategy, costInputsFor, estimateCosts } from './strategy.js';
import { type AccountStream, GLOBAL_STREAM, accountStreams } from './streams.js';
import type { TailContext, TailMetrics } from './tail-context.js';
import type { TailSource } from './tail-source.js';
import { createQuarantine, type Quarantine } from './quarantine.js';
import { once } from '../ledger/once.js';
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
  /** Where unreadable records are kept; default one on `store`. */
  readonly quarantine?: Quarantine;
  /** Each record handed over with a timestamp beyond now + tail.max_clock_skew (self-monitoring). */
  readonly onFutureRecord?: (sighting: FutureSighting) => void;
  /** Requests/s of the client's budget (ledger.requests_per_second): capacity is estimated against it. */
  readonly budgetRps?: number;
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
  /**
   * One round: a poll of every stream that is not backing off and has no poll in flight. Resolves when they
   * have all settled or after poll_interval, whichever is first; the report counts the polls that settled
   * since the previous round's report.
   */
  round(signal: AbortSignal): Promise<RoundReport>;
  /** Resolves once no poll is in flight (after an abort: before the store may close). */
  settled(): Promise<void>;
  /** Rounds every poll_interval (± jitter) until the signal aborts; resolves then. */
  run(signal: AbortSignal): Promise<void>;
  strategy(): Strategy | undefined;
  staleness(): StalenessSummary;
  /** now − read cursor of every stream, computed on each call from the in-memory cursors: O(streams). */
  streamStaleness(): readonly StreamStaleness[];
  readonly head: HeadTracker;
  readonly future: FutureRecords;
  /** Request demand against the budget after the last round (capacity.ts); undefined without a budget. */
  capacity(): CapacityView | undefined;
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
    walk: { maxPages: config.max_pages_per_poll, maxDurationMs: config.max_poll_duration, clock },
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(log ? { log } : {}),
    quarantine: options.quarantine ?? createQuarantine(options.store, clock),
    firstTime: once(),
  };
  const streams = accountStreams(options.accounts, options.pushdown);
  const index = globalIndex(streams);
  const globalTail = createGlobalTail(ctx, index, {
    mode: config.global_mode,
    sweepIntervalMs: config.sweep_interval,
    clock,
  });
  const backoff = new Backoff(config.poll_interval, config.max_backoff, random);
  const capacity = createCapacityWatch({ budgetRps: options.budgetRps, metrics: options.metrics, log });
  let current: Strategy | undefined;
  let rounds = 0;
  const polls = createPollRunner({
    concurrency: config.concurrency,
    hardStopMs: 2 * config.max_poll_duration,
    backoff,
    kind: streamKind,
    clock,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(log ? { log } : {}),
  });

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

  const covered = index.transactions.size + index.rewards.size;
  const costInputs = () => costInputsFor(config, covered, head.tps, ctx.pageLimit);

  function cheapest(): Strategy {
    return chooseStrategy(current, estimateCosts(costInputs()));
  }

  function switchTo(next: Strategy): void {
    if (next === current) return;
    if (next === 'global') startGlobal(ctx.state, streams);
    else stopGlobal(ctx.state, streams);
    const why = { ...estimateCosts(costInputs()), tps: Math.round(head.tps ?? 0) };
    if (current !== undefined) log?.info({ from: current, to: next, ...why }, 'tail strategy changed');
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
    else if (config.strategy === 'auto' && rounds % config.reevaluate_rounds === 0) {
      const next = cheapest();
      // A switch moves cursors, so never under a poll: the polls in flight are stopped (each keeps the pages
      // it handed over) and the switch waits for them to settle.
      if (next !== current) {
        await polls.stopAll('tail strategy switch');
        switchTo(next);
      }
    }
    rounds += 1;
    const strategy = current ?? 'per-account';
    let pages = probed ?? 0;
    // Per-account polls and the settled global read both settle against a fresh head; the immediate global
    // read finds the head itself.
    const probes = strategy === 'per-account' || config.global_mode === 'settled';
    if (probes && probed === undefined) pages += await probeHead(ctx, signal, timestampFromMillis(clock()));
    const launched = pollJobs(strategy)
      .filter((job) => !polls.busy(job.key))
      .map((job) => polls.launch(job.key, job.poll, signal));
    await settledOrPatience(launched, signal);
    if (signal.aborted) await polls.settled();
    signal.throwIfAborted();
    if (head.head !== undefined)
      options.metrics?.lag.set(Number(timestampFromMillis(clock()) - head.head) / 1e9);
    staleness();
    capacity.update({ ...costInputs(), strategy, uncoveredStreams: streams.length - covered });
    const report = polls.takeTally();
    return { strategy, ...report, pages: report.pages + pages };
  }

  /** Waits for the round's polls, but never longer than one poll_interval: a stuck stream holds up no other. */
  async function settledOrPatience(launched: Promise<void>[], signal: AbortSignal): Promise<void> {
    const stop = new AbortController();
    const patience = delay(config.poll_interval, undefined, { signal: stop.signal, ref: false });
    const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    try {
      await Promise.race([Promise.all(launched), patience, aborted]);
    } finally {
      stop.abort();
      await patience.catch(() => undefined);
    }
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
    await polls.settled();
  }

  return {
    round,
    settled: polls.settled,
    run,
    strategy: () => current,
    staleness,
    streamStaleness,
    head,
    future,
    capacity: capacity.current,
  };
}
