// What a stream is, whatever its kind: a source endpoint, a key (an account, a topic, a contract or the whole
// ledger), a cursor of the kind's own sort (cursor/cursor-kind.ts), a record type and its settlement rule.
// The kinds tailed today are folders under kinds/, each one line in stream-kinds.ts; docs/tailing.md,
// "Stream kinds", has the recipe for adding one. Types only.
import type { StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import type { Pushdown } from '../../accounts/pushdown.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import type { CursorKind } from '../cursor/cursor-kind.js';
import type { TailPage, TailRequestOptions, TailSource } from '../source/listing-source.js';
import type { TailRecord, TailSourceName } from './record-handler.js';

/** What one stream of a kind follows. */
export type StreamSubject = 'account' | 'topic' | 'contract' | 'ledger';

/** When a stream's rows are final (docs/tailing.md, "Race safety"). */
export interface Settlement {
  /**
   * `overlap`: a row may become visible up to tail.overlap behind the newest row the service has shown, so the
   * stream's `safe` cursor trails the head by that much and its re-reads are deduplicated. `none`: rows appear
   * in order, `safe` may follow the head.
   */
  readonly lateVisibility: 'overlap' | 'none';
}

/** `P`: the position of its cursor kind (a bigint for timestamps and sequence numbers). */
export interface StreamKind<R, P = bigint> {
  /** The kind's name: the `source` label of its metrics and the `source` of its quarantined records. */
  readonly name: string;
  /** The query-service listing its streams read (for the docs and log lines). */
  readonly endpoint: string;
  readonly subject: StreamSubject;
  /**
   * The cursor kind of its streams: how positions order and are stored (CursorStore.positions(cursor) gives
   * its streams' cursors and dedup window).
   */
  readonly cursor: CursorKind<P>;
  readonly settlement: Settlement;
  /** A record's position on the stream's cursor. */
  position(record: R): P;
}

/** The records the per-account kinds list. A new per-account kind adds its record type here. */
export type ListedRecord = Transaction | StakingReward;

/** A kind whose streams each read a listing of their own, one per watched account (per-account/poll-account-stream.ts). */
export interface ListedStreamKind<R extends ListedRecord = ListedRecord> extends StreamKind<R> {
  readonly name: TailSourceName;
  readonly subject: 'account';
  /** Whether the rules' filters (accounts/pushdown.ts) may narrow the listing. */
  readonly takesPushdown: boolean;
  /** The stream's key (its cursor and dedup window), and whether the global tail covers the stream too. */
  key(account: WatchedAccount): { readonly key: string; readonly coveredByGlobal: boolean };
  /** The stream's listing after `after` (wire form), oldest first, through `source` (the request budget). */
  list(
    source: TailSource,
    stream: AccountStream,
    page: { readonly after: string; readonly limit: number },
    options: TailRequestOptions,
  ): AsyncIterable<TailPage<R>>;
  /** Whether a listed record names the stream's account at all (docs/tailing.md, "Attribution"). */
  involves(record: R, accountId: string): boolean;
  /** The record as the handler receives it. */
  handOver(record: R, account: WatchedAccount): TailRecord;
}

/** One stream of a listed kind: one watched account's listing. */
export interface AccountStream {
  /** The stream's key in the cursor store and dedup window (kinds/<kind>/ defines it). */
  readonly key: string;
  readonly kind: ListedStreamKind;
  readonly account: WatchedAccount;
  /** False for rewards watched by alias: only the rewards endpoint can follow those. */
  readonly coveredByGlobal: boolean;
  readonly pushdown?: Pushdown;
}
