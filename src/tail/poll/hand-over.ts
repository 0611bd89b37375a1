// The one hand-over step every stream kind shares: a page's fresh records to the handler and into the dedup
// window, in one transaction; and where a finished poll may move `safe`.
import type { TailRecord } from '../streams/record-handler.js';
import type { TailContext } from './poll-context.js';
import type { Settlement } from '../streams/stream-kind.js';
import { GLOBAL_STREAM } from '../streams/kinds/global-transactions/global-transactions.js';

/**
 * The tailers' own commits (pages handed over, cursors moved): everything in them is rebuilt by reading the
 * ledger again from an earlier cursor, so they may commit with synchronous=NORMAL (docs/reliability.md).
 */
export const REPLAYABLE = { durability: 'replayable' } as const;

/** A timestamp to mark seen in a stream's dedup window. */
export interface Seen {
  readonly stream: string;
  readonly ts: bigint;
}

/** A record on its way to the handler, with the stream whose dedup window it goes into. */
export interface Delivery extends Seen {
  readonly item: TailRecord;
}

/**
 * The pipeline step (docs/architecture.md): prepare, then ONE transaction that applies the records and marks
 * them seen. A crash before the commit replays the page on restart; after it, the page is never handed over
 * again because every re-read (per-account overlap, global sweep) drops the timestamps in tail_seen.
 */
export async function handOver(
  ctx: TailContext,
  page: readonly Delivery[],
  signal: AbortSignal,
  skipped: readonly Seen[] = [],
) {
  if (page.length === 0) {
    if (skipped.length) ctx.state.transaction(() => markSeen(ctx, skipped), REPLAYABLE);
    return;
  }
  // Consensus order whatever order the page came in (a service may serve it reversed or shuffled): the rule
  // engine then sees each group's records oldest first. Stable, so records of one timestamp keep their order.
  const deliveries = [...page].sort(byTimestamp);
  const bound = ctx.future.bound();
  const prepared = await ctx.handler.prepare(
    deliveries.map((d) => (d.ts > bound ? ctx.future.standIn(d.item, readThrough(ctx, d.stream)) : d.item)),
    signal,
  );
  signal.throwIfAborted();
  try {
    ctx.state.transaction(() => {
      ctx.handler.apply(prepared);
      markSeen(ctx, deliveries);
      markSeen(ctx, skipped);
    }, REPLAYABLE);
  } catch (err) {
    ctx.handler.rolledBack?.(prepared);
    throw err;
  }
  ctx.handler.committed?.(prepared);
  const nowMs = BigInt(ctx.future.nowMs());
  for (const d of deliveries) {
    ctx.metrics?.records.inc({ source: d.item.source });
    // ms resolution is plenty for a histogram whose smallest bucket is 250 ms; a future record observes 0.
    const ageMs = nowMs - d.ts / 1_000_000n;
    ctx.metrics?.consensusToEvaluated.observe(ageMs > 0n ? Number(ageMs) / 1000 : 0);
    ctx.future.committed(d.ts, d.item);
  }
  // Backpressure and fencing: the next page waits until this step is durable in the backend (SQLite: at once).
  await ctx.state.store.durable();
}

/**
 * How far `stream` has been read for certain: its own `safe` or the global one, whichever is in use (the
 * larger). Every record handed over later is newer, even one that shows up late.
 */
function readThrough(ctx: TailContext, stream: string): bigint | undefined {
  const own = ctx.state.cursor(stream)?.safe;
  const global = ctx.state.cursor(GLOBAL_STREAM)?.safe;
  if (own === undefined) return global ?? ctx.head.head;
  return global !== undefined && global > own ? global : own;
}

function byTimestamp(a: Seen, b: Seen): number {
  return a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0;
}

function markSeen(ctx: TailContext, seen: readonly Seen[]): void {
  for (const d of seen) ctx.state.markSeen(d.stream, d.ts);
}

/**
 * Where a finished poll may move `safe`, by the stream kind's settlement rule: with late visibility, every row at
 * or below head − overlap was visible all along; without it, every row up to the head.
 */
export function settledBound(
  ctx: TailContext,
  headBefore: bigint | undefined,
  current: bigint,
  settlement: Settlement,
): bigint {
  if (headBefore === undefined) return current;
  const bound = headBefore - (settlement.lateVisibility === 'overlap' ? ctx.overlapNs : 0n);
  return bound > current ? bound : current;
}
