// One poll of one per-account stream: everything after its `safe` cursor, page by page, each page handed
// over in its own transaction; then the cursor moves to head − overlap (taken before the first request).
// A walk stopped at its bound (walk-bound.ts) or by a failure keeps the pages it handed over.
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { quarantinePage } from '../poll/quarantine-page.js';
import { newestTrusted } from '../head/future-bound.js';
import type { AccountStream, ListedRecord } from '../streams/stream-kind.js';
import { type TailContext } from '../poll/poll-context.js';
import { type Delivery, REPLAYABLE, type Seen, handOver, settledBound } from '../poll/hand-over.js';
import type { PollResult } from '../poll/poll-result.js';
import type { TailPage } from '../source/listing-source.js';
import type { Cursor } from '../cursor/cursor-store.js';
import { type TruncateReason, createWalkBound, reportTruncated } from '../poll/walk-bound.js';

interface Tally {
  pages: number;
  delivered: number;
  dropped: number;
}

export async function pollAccountStream(
  ctx: TailContext,
  stream: AccountStream,
  signal: AbortSignal,
): Promise<PollResult> {
  const cursor = ctx.state.cursor(stream.key);
  if (!cursor) throw new Error(`tail: stream ${stream.key} has no cursor; call ensureCursors first`);
  const headBefore = ctx.head.head;
  const result: Tally = { pages: 0, delivered: 0, dropped: 0 };
  const bound = createWalkBound(ctx.walk);
  // The newest record of the pages this poll fully handed over: what a poll cut short may keep.
  let handled = cursor.safe;
  let truncated: TruncateReason | undefined;
  try {
    for await (const page of listing(ctx, stream, formatTimestamp(cursor.safe), signal)) {
      result.pages += 1;
      quarantinePage(ctx, page, { stream: stream.key, source: stream.kind.name, account: stream.account.id });
      const newest = await handlePage(ctx, stream, cursor, page.records, result, signal);
      if (newest > handled) handled = newest;
      truncated = bound.pageHandled();
      if (truncated) break;
    }
  } catch (err) {
    keepProgress(ctx, stream, cursor, headBefore, handled);
    throw err;
  }
  if (truncated) {
    keepProgress(ctx, stream, cursor, headBefore, handled);
    reportTruncated(ctx, stream.key, truncated, result.pages);
    return { ...result, truncated };
  }
  const safe = settledBound(ctx, headBefore, cursor.safe, stream.kind.settlement);
  const read = headBefore !== undefined && headBefore > handled ? headBefore : handled;
  ctx.state.transaction(() => {
    const moved = ctx.state.advance(stream.key, { safe, read });
    ctx.state.prune(stream.key, moved.safe);
  }, REPLAYABLE);
  return result;
}

/** Hands one page's fresh records over; resolves with the newest timestamp of the account's own rows. */
async function handlePage(
  ctx: TailContext,
  stream: AccountStream,
  cursor: Cursor,
  records: readonly ListedRecord[],
  result: Tally,
  signal: AbortSignal,
): Promise<bigint> {
  let newest = cursor.safe;
  const fresh: Delivery[] = [];
  const foreign: Seen[] = [];
  const inPage = new Set<bigint>();
  const bound = ctx.future.settleLimit();
  for (const record of records) {
    const ts = stream.kind.position(record);
    const own = stream.kind.involves(record, stream.account.id);
    // Only the account's own rows tell how far its listing was read and where the head is: a row that does not
    // belong to the query may be newer than rows of the account still on the next page (a walk cut short keeps
    // `newest`), or made up (a head taken from it settles `safe` past rows not yet visible).
    // A record dated ahead of this host's clock is still handed over, but moves neither the head nor `read`
    // (nor, through `read`, what a poll cut short keeps as `safe`) until the clock has passed it.
    if (own) {
      ctx.head.observe(ts);
      newest = newestTrusted(newest, ts, bound);
    }
    if (ts <= cursor.safe || inPage.has(ts) || ctx.state.isSeen(stream.key, ts)) {
      result.dropped += 1;
      ctx.metrics?.dedupDrops.inc({ source: stream.kind.name });
      continue;
    }
    inPage.add(ts);
    if (own) fresh.push({ stream: stream.key, ts, item: stream.kind.handOver(record, stream.account) });
    else foreign.push(unattributed(ctx, stream, record, ts));
  }
  await handOver(ctx, fresh, signal, foreign);
  result.delivered += fresh.length;
  return newest;
}

/**
 * A walk cut short (bound or failure) read every row up to `handled` in ascending order, so `safe` may move to
 * it, but never past head − overlap: rows above that may still become visible (docs/tailing.md, "Race
 * safety"). The rows between are in the dedup window, so resuming from `safe` hands none over twice.
 */
function keepProgress(
  ctx: TailContext,
  stream: AccountStream,
  cursor: Cursor,
  headBefore: bigint | undefined,
  handled: bigint,
): void {
  const settled = settledBound(ctx, headBefore, cursor.safe, stream.kind.settlement);
  const safe = handled < settled ? handled : settled;
  const key = stream.key;
  try {
    ctx.state.transaction(() => {
      const moved = ctx.state.advance(key, { safe: safe > cursor.safe ? safe : cursor.safe, read: handled });
      ctx.state.prune(key, moved.safe);
    }, REPLAYABLE);
  } catch (err) {
    // Best effort on a failing poll: without it the next poll re-reads those pages and drops them as seen.
    ctx.log?.warn({ err, stream: key }, 'could not keep the progress of a poll cut short');
  }
}

function listing(
  ctx: TailContext,
  stream: AccountStream,
  after: string,
  signal: AbortSignal,
): AsyncIterable<TailPage<ListedRecord>> {
  const options = { signal, priority: stream.account.priority };
  return stream.kind.list(ctx.source, stream, { after, limit: ctx.pageLimit }, options);
}

/**
 * A record that does not involve the stream's account: counted and logged, never evaluated under the account.
 * It is marked seen with the page, so a re-read (overlap, restart) neither counts nor logs it again.
 */
function unattributed(ctx: TailContext, stream: AccountStream, record: ListedRecord, ts: bigint): Seen {
  ctx.metrics?.recordsUnattributed.inc({ source: stream.kind.name });
  const transaction = 'transaction_id' in record ? record.transaction_id : undefined;
  ctx.log?.warn(
    { stream: stream.key, account: stream.account.id, transaction, timestamp: formatTimestamp(ts) },
    'record does not involve the polled account; not attributed to it',
  );
  return { stream: stream.key, ts };
}
