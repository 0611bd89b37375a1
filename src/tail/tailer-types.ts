// What the tailer is built with (TailerOptions) and what it offers (Tailer, RoundReport): types only, so the
// tailer's steps (loop/) and its callers import them without importing the tailer itself.
import type { Logger } from 'pino';
import type { StateStore } from '../state/store.js';
import type { CapacityView } from './health/capacity-watch.js';
import type { Pushdown } from '../accounts/pushdown.js';
import type { TailConfig } from './tail-config.js';
import type { AheadSighting, FutureRecords, FutureSighting } from './head/future-records.js';
import type { HeadTracker } from './head/head-tracker.js';
import type { Quarantine } from './quarantine/quarantine-store.js';
import type { RecordHandler } from './streams/record-handler.js';
import type { StalenessSummary, StreamStaleness } from './health/staleness-summary.js';
import type { Strategy } from './strategy/strategy-cost.js';
import type { TailMetrics } from './tail-metrics.js';
import type { TailSource } from './source/listing-source.js';
import type { WatchedAccount } from '../accounts/watched-account.js';

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
  /** Milliseconds since the epoch: what time it is (cursors, staleness, the future bound). */
  readonly clock?: () => number;
  /**
   * Milliseconds from any origin, never going back: how much time passed (the round interval, backoffs, the walk
   * bound, the sweep schedule). Default: `clock` when one is injected (a simulated clock drives both), else
   * performance.now.
   */
  readonly monotonic?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random?: () => number;
  readonly pageLimit?: number;
  /** How many of the stalest streams get their own staleness series. */
  readonly stalenessTop?: number;
  /** Where unreadable records are kept; default one on `store`. */
  readonly quarantine?: Quarantine;
  /** Each record handed over with a timestamp beyond now + tail.max_clock_skew (self-monitoring). */
  readonly onFutureRecord?: (sighting: FutureSighting) => void;
  /** The newest row dated ahead of this host's clock, each once (self-monitoring). */
  readonly onHeadAhead?: (sighting: AheadSighting) => void;
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
  /** Request demand against the budget after the last round (health/capacity-estimate.ts); undefined without a budget. */
  capacity(): CapacityView | undefined;
}
