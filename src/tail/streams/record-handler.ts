// The contract between the tailers and whatever consumes records (the rule engine in the daemon).
//
// For every page the tailer (1) drops records already seen, (2) awaits `prepare(batch)`, then (3) opens ONE
// store.transaction in which it calls `apply(prepared)` and writes its own state (records marked seen,
// cursor advanced). Because (3) is one SQLite transaction, a record's effects and the fact that it was seen
// commit together: after a crash the page is either fully applied and never handed over again, or not
// applied at all and handed over again on restart.
import type { StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import type { WatchedAccount } from '../../accounts/watched-account.js';

export type TailSourceName = 'transactions' | 'rewards';

/** One record for one watched account (a transaction involving two watched accounts is two of these). */
export type TailRecord = (
  | { readonly source: 'transactions'; readonly record: Transaction; readonly account: WatchedAccount }
  | { readonly source: 'rewards'; readonly record: StakingReward; readonly account: WatchedAccount }
) & {
  /**
   * Only for a record dated beyond now + tail.max_clock_skew: the time rule state takes instead of its
   * consensus time (the newest trusted timestamp seen), so it cannot throttle or silence a rule until then.
   */
  readonly stateTimeNs?: bigint;
};

export interface RecordHandler<P = unknown> {
  /**
   * Enrichment that needs I/O (call traces, verification). Must not write state: it may run again for the
   * same records after a crash. Rejecting fails the poll; the page is retried on the next one.
   */
  prepare(batch: readonly TailRecord[], signal: AbortSignal): Promise<P>;
  /**
   * Synchronous, inside the tailer's store.transaction: evaluate rules, save alert state, enqueue the
   * outbox. Only writes through the same store. Throwing rolls back the whole page, tailer state included.
   */
  apply(prepared: P): void;
  /**
   * Optional: called after the transaction that ran `apply(prepared)` committed (never after a rollback), for
   * effects that must happen once per committed page, such as counters.
   */
  committed?(prepared: P): void;
  /**
   * Optional, but required of any handler that keeps state in memory: called when the transaction that ran
   * `apply(prepared)` rolled back — because apply threw or because the tailer's own writes after it failed.
   * The store is as before the page; in-memory state must be brought back to it (the page is replayed).
   */
  rolledBack?(prepared: P): void;
}

/** The consensus timestamp of a record, whatever its source. */
export function recordTimestamp(item: TailRecord): string {
  return item.source === 'transactions' ? item.record.consensus_timestamp : item.record.timestamp;
}
