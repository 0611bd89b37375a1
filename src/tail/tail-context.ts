// What every poll needs, built once by the tailer, plus the one hand-over step all tailers share.
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics.js';
import type { HeadTracker } from './head-tracker.js';
import type { Quarantine } from './quarantine.js';
import type { RecordHandler, TailRecord } from './record-handler.js';
import type { TailSource } from './tail-source.js';
import type { TailState } from './tail-state.js';
import type { WalkLimits } from './walk-bound.js';

export type TailMetrics = Pick<
  Metrics,
  | 'records'
  | 'dedupDrops'
  | 'staleness'
  | 'lag'
  | 'tailStrategy'
  | 'stalenessP99'
  | 'stalenessMax'
  | 'pollFailures'
  | 'pollTruncated'
  | 'quarantined'
>;

/** The global tail and the head probe serve every account: ahead of any single account in the budget. */
export const HEAD_PRIORITY = 1_000_000;

export interface TailContext {
  readonly state: TailState;
  readonly source: TailSource;
  readonly handler: RecordHandler<unknown>;
  readonly head: HeadTracker;
  /** How far behind the head a record may still become visible, in ns (tail.overlap). */
  readonly overlapNs: bigint;
  readonly pageLimit: number;
  /** Pages and time one poll may walk (tail.max_pages_per_poll, tail.max_poll_duration); unbounded if absent. */
  readonly walk?: WalkLimits;
  readonly metrics?: TailMetrics;
  readonly log?: Logger;
  /** Where records that cannot be read are kept (quarantine-page.ts). */
  readonly quarantine?: Quarantine;
  /** True the first time a key is seen in this process: for log lines a re-scan would otherwise repeat. */
  readonly firstTime?: (key: string) => boolean;
}

/** A record on its way to the handler, with the stream whose dedup window it goes into. */
export interface Delivery {
  readonly stream: string;
  readonly ts: bigint;
  readonly item: TailRecord;
}

/**
 * The pipeline step (docs/architecture.md): prepare, then ONE transaction that applies the records and marks
 * them seen. A crash before the commit replays the page on restart; after it, the page is never handed over
 * again because every re-read (per-account overlap, global sweep) drops the timestamps in tail_seen.
 */
export async function handOver(ctx: TailContext, deliveries: readonly Delivery[], signal: AbortSignal) {
  if (deliveries.length === 0) return;
  const prepared = await ctx.handler.prepare(
    deliveries.map((d) => d.item),
    signal,
  );
  signal.throwIfAborted();
  try {
    ctx.state.transaction(() => {
      ctx.handler.apply(prepared);
      for (const d of deliveries) ctx.state.markSeen(d.stream, d.ts);
    });
  } catch (err) {
    ctx.handler.rolledBack?.(prepared);
    throw err;
  }
  ctx.handler.committed?.(prepared);
  for (const d of deliveries) ctx.metrics?.records.inc({ source: d.item.source });
}

/** Where a finished poll may move `safe`: every row at or below head − overlap was visible all along. */
export function settledBound(ctx: TailContext, headBefore: bigint | undefined, current: bigint): bigint {
  if (headBefore === undefined) return current;
  const bound = headBefore - ctx.overlapNs;
  return bound > current ? bound : current;
}
