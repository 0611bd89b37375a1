// The walk both global reads share (head read and sweep, global-tail.ts): the pages of
// `gt:after[&lte:upTo]`, each page's fresh records handed over in one transaction under the hand-over lock.
import { rewardAccountId } from '@ledger-sentinel/ledger-model/entity-id';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import type { PollResult } from '../poll/poll-result.js';
import { newestTrusted } from '../head/future-bound.js';
import type { GlobalIndex } from './global-index.js';
import type { HandOverLock } from './hand-over-lock.js';
import { matchAccounts } from './match-account.js';
import { passesPushdown } from '../../accounts/pushdown.js';
import { WalkProof } from './proven-ranges.js';
import { quarantinePage } from '../poll/quarantine-page.js';
import { readAhead } from '../poll/read-ahead.js';
import {
  GLOBAL_STREAM,
  globalTransactions,
} from '../streams/kinds/global-transactions/global-transactions.js';
import { HEAD_PRIORITY, type TailContext } from '../poll/poll-context.js';
import { type Delivery, handOver } from '../poll/hand-over.js';
import type { TailPage } from '../source/listing-source.js';
import type { WalkBound } from '../poll/walk-bound.js';

/**
 * The sweep's requests queue behind the head read's in the request budget: with a budget too small for both,
 * the head read (the alerts) goes first and the sweep (late rows only) takes what is left.
 */
export const SWEEP_PRIORITY = HEAD_PRIORITY - 1;

export interface RangeRead extends PollResult {
  /** Rows read (all of them, matched or not). */
  readonly rows: number;
  /** The newest row read, or `after` when none. */
  readonly newest: bigint;
  /** `(after, provenTo]` was complete when read (see provenThrough); `after` when nothing is proven. */
  readonly provenTo: bigint;
}

export interface RangeReader {
  readonly index: GlobalIndex;
  readonly lock: HandOverLock;
  /** The head read: its pages go first, in the request budget and through the lock. */
  readonly head: boolean;
}

type Tally = { -readonly [K in keyof RangeRead]: RangeRead[K] };

/** The pages of `gt:after[&lte:upTo]` up to the poll's bound. */
export async function readRange(
  ctx: TailContext,
  reader: RangeReader,
  range: { readonly after: bigint; readonly upTo?: bigint },
  signal: AbortSignal,
  bound: WalkBound,
): Promise<RangeRead> {
  const query = {
    after: formatTimestamp(range.after),
    ...(range.upTo === undefined ? {} : { upTo: formatTimestamp(range.upTo) }),
    order: 'asc',
    limit: ctx.pageLimit,
  } as const;
  const priority = reader.head ? HEAD_PRIORITY : SWEEP_PRIORITY;
  // Page N+1 is requested while page N is handed over. The proof below still holds: that request starts after
  // page N's response arrived, so every row of page N was visible before it, as in a walk without read-ahead.
  const pages = readAhead(
    (walkSignal) => ctx.source.transactions(query, { signal: walkSignal, priority }),
    signal,
    () => bound.mayReadOn(),
  );
  const result: Tally = {
    pages: 0,
    delivered: 0,
    dropped: 0,
    rows: 0,
    newest: range.after,
    provenTo: range.after,
  };
  const proof = new WalkProof(range.after, ctx.head.head, ctx.overlapNs);
  for await (const page of pages) {
    result.pages += 1;
    await reader.lock.hold(reader.head, signal, () => handPage(ctx, reader.index, page, result, signal));
    proof.page(result.newest);
    const truncated = bound.pageHandled();
    if (truncated) return { ...result, provenTo: proof.provenTo, truncated };
  }
  proof.complete(range.upTo);
  return { ...result, provenTo: proof.provenTo };
}

/**
 * One page: the dedup check and the hand-over, under the lock. A row at or below the global `safe` (read now,
 * not when the walk started: a sweep beside this walk may have moved it and pruned tail_seen there) or in
 * tail_seen was handed over already.
 */
async function handPage(
  ctx: TailContext,
  index: GlobalIndex,
  page: TailPage<Transaction>,
  result: Tally,
  signal: AbortSignal,
): Promise<void> {
  quarantinePage(ctx, page, { stream: GLOBAL_STREAM, source: 'transactions', watched: index.ids });
  const fresh: Delivery[] = [];
  const limit = ctx.future.settleLimit();
  const globalSafe = ctx.state.cursor(GLOBAL_STREAM)?.safe ?? -1n;
  for (const tx of page.records) {
    const ts = globalTransactions.position(tx);
    // Ahead of this host's clock: matched and handed over, but `read` (the next head read's `gt:`) stays, so
    // the rows below it that show up meanwhile are read by the next head read, not left to the sweep.
    ctx.head.observe(ts);
    result.rows += 1;
    result.newest = newestTrusted(result.newest, ts, limit);
    for (const d of matches(tx, ts, index)) {
      const safe = ctx.state.cursor(d.stream)?.safe ?? -1n;
      if (ts <= globalSafe || ts <= safe || ctx.state.isSeen(d.stream, ts)) {
        result.dropped += 1;
        ctx.metrics?.dedupDrops.inc({ source: d.item.source });
      } else fresh.push(d);
    }
  }
  await handOver(ctx, fresh, signal);
  result.delivered += fresh.length;
}

function matches(tx: Transaction, ts: bigint, index: GlobalIndex): Delivery[] {
  const out: Delivery[] = [];
  for (const id of matchAccounts(tx, index.ids)) {
    const stream = index.transactions.get(id);
    if (stream && passesPushdown(tx, stream.pushdown))
      out.push({
        stream: stream.key,
        ts,
        item: { source: 'transactions', record: tx, account: stream.account },
      });
  }
  const seen = new Set<string>();
  for (const reward of tx.staking_reward_transfers) {
    const id = rewardAccountId(reward.account);
    const stream = index.rewards.get(id);
    if (!stream || seen.has(id)) continue;
    seen.add(id);
    const record = { account_id: id, amount: reward.amount, timestamp: tx.consensus_timestamp };
    out.push({ stream: stream.key, ts, item: { source: 'rewards', record, account: stream.account } });
  }
  return out;
}
