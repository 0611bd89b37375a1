// One poll of one per-account stream: everything after its `safe` cursor, page by page, each page handed
// over in its own transaction; then the cursor moves to head − overlap (taken before the first request).
import { formatTimestamp, parseTimestamp } from '../ledger/timestamp.js';
import { newestTrusted } from './future-bound.js';
import type { TailRecord } from './record-handler.js';
import type { AccountStream } from './streams.js';
import { type Delivery, type TailContext, handOver, settledBound } from './tail-context.js';
import type { TailPage } from './tail-source.js';
import type { StakingReward, Transaction } from '../ledger/schema.js';

export interface PollResult {
  readonly pages: number;
  readonly delivered: number;
  readonly dropped: number;
}

export async function pollAccountStream(
  ctx: TailContext,
  stream: AccountStream,
  signal: AbortSignal,
): Promise<PollResult> {
  const cursor = ctx.state.cursor(stream.key);
  if (!cursor) throw new Error(`tail: stream ${stream.key} has no cursor; call ensureCursors first`);
  const headBefore = ctx.head.head;
  const result = { pages: 0, delivered: 0, dropped: 0 };
  let newest = cursor.read;
  for await (const page of listing(ctx, stream, formatTimestamp(cursor.safe), signal)) {
    result.pages += 1;
    const fresh: Delivery[] = [];
    const inPage = new Set<bigint>();
    const bound = ctx.future.bound();
    for (const record of page.records) {
      const ts = parseTimestamp(
        'consensus_timestamp' in record ? record.consensus_timestamp : record.timestamp,
      );
      // A record beyond now + max_clock_skew is still handed over, but moves neither the head nor `read`.
      ctx.head.observe(ts);
      newest = newestTrusted(newest, ts, bound);
      if (ts <= cursor.safe || inPage.has(ts) || ctx.state.isSeen(stream.key, ts)) {
        result.dropped += 1;
        ctx.metrics?.dedupDrops.inc({ source: stream.source });
        continue;
      }
      inPage.add(ts);
      fresh.push({ stream: stream.key, ts, item: tailRecord(stream, record) });
    }
    await handOver(ctx, fresh, signal);
    result.delivered += fresh.length;
  }
  const safe = settledBound(ctx, headBefore, cursor.safe);
  const read = headBefore !== undefined && headBefore > newest ? headBefore : newest;
  ctx.state.transaction(() => {
    const moved = ctx.state.advance(stream.key, { safe, read });
    ctx.state.prune(stream.key, moved.safe);
  });
  return result;
}

function listing(
  ctx: TailContext,
  stream: AccountStream,
  after: string,
  signal: AbortSignal,
): AsyncIterable<TailPage<Transaction | StakingReward>> {
  const options = { signal, priority: stream.account.priority };
  if (stream.source === 'rewards')
    return ctx.source.rewards(stream.account.rewardsPath, { after, limit: ctx.pageLimit }, options);
  const query = { accountId: stream.account.id, after, order: 'asc' as const, limit: ctx.pageLimit };
  return ctx.source.transactions(stream.pushdown ? { ...query, pushdown: stream.pushdown } : query, options);
}

function tailRecord(stream: AccountStream, record: Transaction | StakingReward): TailRecord {
  return stream.source === 'transactions'
    ? { source: 'transactions', record: record as Transaction, account: stream.account }
    : { source: 'rewards', record: record as StakingReward, account: stream.account };
}
