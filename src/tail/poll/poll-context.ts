// What every poll needs, built once by the tailer (types only; the hand-over step is hand-over.ts).
import type { Logger } from 'pino';
import type { TailMetrics } from '../tail-metrics.js';
import type { FutureRecords } from '../head/future-records.js';
import type { HeadTracker } from '../head/head-tracker.js';
import type { Quarantine } from '../quarantine/quarantine-store.js';
import type { RecordHandler } from '../streams/record-handler.js';
import type { TailSource } from '../source/listing-source.js';
import type { CursorStore } from '../cursor/cursor-store.js';

/** The global tail and the head probe serve every account: ahead of any single account in the budget. */
export const HEAD_PRIORITY = 1_000_000;

export interface TailContext {
  readonly state: CursorStore;
  readonly source: TailSource;
  readonly handler: RecordHandler<unknown>;
  readonly head: HeadTracker;
  /** now (the settle limit), now + tail.max_clock_skew, and the records beyond them (future-records.ts). */
  readonly future: FutureRecords;
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

/** The bound on one poll's walk through `links.next` (walk-bound.ts). */
export interface WalkLimits {
  readonly maxPages: number;
  readonly maxDurationMs: number;
  /** Milliseconds on the monotonic clock (the tailer's); a clock that went back ends the walk like the time. */
  readonly clock: () => number;
}
