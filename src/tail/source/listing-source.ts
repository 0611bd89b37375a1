// What the tailers need from the ledger client: two paged listings in ascending order. The real client
// (ledger/client.ts) satisfies it through a thin adapter; tests use a loopback server behind the same shape.
import type { InvalidRecord } from '../../ledger/page.js';
import type { StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import type { Pushdown } from '../../accounts/pushdown.js';

export interface TailPage<T> {
  readonly url: string;
  readonly records: readonly T[];
  /** Records of the page that could not be read (they are quarantined, not dropped). */
  readonly invalid?: readonly InvalidRecord[];
  readonly next: string | null;
}

export interface TailRequestOptions {
  readonly signal: AbortSignal;
  /** Higher first when the shared request budget is short (the watched account's priority). */
  readonly priority: number;
}

export interface TransactionQuery {
  /** Canonical id; absent for the global tail. */
  readonly accountId?: string;
  /** Exclusive lower bound, wire form (timestamp=gt:). */
  readonly after: string;
  /** Inclusive upper bound, wire form (timestamp=lte:); absent = up to the newest row. */
  readonly upTo?: string;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly pushdown?: Pushdown;
}

export interface TailSource {
  /** Pages of /api/v1/transactions, following links.next to the end. */
  transactions(query: TransactionQuery, options: TailRequestOptions): AsyncIterable<TailPage<Transaction>>;
  /** Pages of /api/v1/accounts/{path}/rewards?timestamp=gt:{after}&order=asc, following links.next. */
  rewards(
    path: string,
    query: { readonly after: string; readonly limit: number },
    options: TailRequestOptions,
  ): AsyncIterable<TailPage<StakingReward>>;
}
