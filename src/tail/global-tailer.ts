// One poll of the global tail: every transaction after the global `safe` cursor, matched locally against the
// watch set by the service's account.id union semantics; staking rewards come from each transaction's
// staking_reward_transfers. Each (account, source) keeps its own dedup window, shared with per-account
// polling, so the strategy can change between polls without repeats or gaps.
import { decodeEntityId, formatEntityId } from '../ledger/entity-id.js';
import type { Transaction } from '../ledger/schema.js';
import { formatTimestamp, parseTimestamp } from '../ledger/timestamp.js';
import type { PollResult } from './account-tailer.js';
import { matchAccounts, passesPushdown } from './match-account.js';
import { type AccountStream, GLOBAL_STREAM } from './streams.js';
import { type Delivery, HEAD_PRIORITY, type TailContext, handOver, settledBound } from './tail-context.js';

/** The covered streams by account id, built once per watch list. */
export interface GlobalIndex {
  readonly ids: ReadonlySet<string>;
  readonly transactions: ReadonlyMap<string, AccountStream>;
  readonly rewards: ReadonlyMap<string, AccountStream>;
}

export function globalIndex(streams: readonly AccountStream[]): GlobalIndex {
  const transactions = new Map<string, AccountStream>();
  const rewards = new Map<string, AccountStream>();
  for (const s of streams) {
    if (!s.coveredByGlobal) continue;
    (s.source === 'transactions' ? transactions : rewards).set(s.account.id, s);
  }
  return { ids: new Set([...transactions.keys(), ...rewards.keys()]), transactions, rewards };
}

export async function pollGlobal(
  ctx: TailContext,
  index: GlobalIndex,
  signal: AbortSignal,
): Promise<PollResult> {
  const cursor = ctx.state.cursor(GLOBAL_STREAM);
  if (!cursor) throw new Error('tail: the global stream has no cursor; call startGlobal first');
  const headBefore = ctx.head.head;
  const pages = ctx.source.transactions(
    { after: formatTimestamp(cursor.safe), order: 'asc', limit: ctx.pageLimit },
    { signal, priority: HEAD_PRIORITY },
  );
  const result = { pages: 0, delivered: 0, dropped: 0 };
  let newest = cursor.read;
  let rows = 0;
  let last = cursor.safe;
  for await (const page of pages) {
    result.pages += 1;
    const fresh: Delivery[] = [];
    for (const tx of page.records) {
      const ts = parseTimestamp(tx.consensus_timestamp);
      ctx.head.observe(ts);
      rows += 1;
      last = ts;
      if (ts > newest) newest = ts;
      for (const d of matches(tx, ts, index)) {
        if (ts <= (ctx.state.cursor(d.stream)?.safe ?? -1n) || ctx.state.isSeen(d.stream, ts)) {
          result.dropped += 1;
          ctx.metrics?.dedupDrops.inc({ source: d.item.source });
        } else fresh.push(d);
      }
    }
    await handOver(ctx, fresh, signal);
    result.delivered += fresh.length;
  }
  // Every row after `safe` was read: their count over their span is the ledger's rate.
  if (last > cursor.safe) ctx.head.sampleRate(rows + 1, cursor.safe, last);
  const safe = settledBound(ctx, headBefore, cursor.safe);
  ctx.state.transaction(() => {
    const moved = ctx.state.advance(GLOBAL_STREAM, { safe, read: newest });
    ctx.state.pruneCovered(moved.safe);
  });
  return result;
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
    const id =
      typeof reward.account === 'number'
        ? formatEntityId(decodeEntityId(BigInt(reward.account)))
        : reward.account;
    const stream = index.rewards.get(id);
    if (!stream || seen.has(id)) continue;
    seen.add(id);
    const record = { account_id: id, amount: reward.amount, timestamp: tx.consensus_timestamp };
    out.push({ stream: stream.key, ts, item: { source: 'rewards', record, account: stream.account } });
  }
  return out;
}
