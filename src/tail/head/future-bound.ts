// The one rule for timestamps the query service hands us: nothing beyond now + tail.max_clock_skew may move
// state. A single record dated in 2100 must not carry the shared head, and through it every account's cursor,
// into the future, where no later record would ever be read again (docs/tailing.md, "Timestamps from the future").
// Pure: the caller passes the clock's reading.
import { timestampFromMillis, type Timestamp } from '@ledger-sentinel/ledger-model/timestamp';
import type { Cursor } from '../cursor/cursor-store.js';

/** The newest consensus timestamp trusted to move state: now + max_clock_skew, in ns. */
export function futureBound(nowMs: number, maxClockSkewMs: number): Timestamp {
  return timestampFromMillis(nowMs) + BigInt(maxClockSkewMs) * 1_000_000n;
}

export function isBeyond(ts: Timestamp, bound: Timestamp): boolean {
  return ts > bound;
}

/** How far ahead of the clock `ts` is, in whole seconds (0 when it is not ahead). */
export function secondsAhead(ts: Timestamp, nowMs: number): number {
  const ahead = ts - timestampFromMillis(nowMs);
  return ahead > 0n ? Number(ahead / 1_000_000_000n) : 0;
}

/** `ts`, or `bound` when `ts` is beyond it. */
export function clampTimestamp(ts: Timestamp, bound: Timestamp): Timestamp {
  return ts > bound ? bound : ts;
}

/** Both parts of a cursor brought down to `bound`. */
export function clampCursor(cursor: Cursor, bound: Timestamp): Cursor {
  return { safe: clampTimestamp(cursor.safe, bound), read: clampTimestamp(cursor.read, bound) };
}

/**
 * The newest of `current` and `ts` that may move state: `ts` counts only when it is within the bound. Used for
 * the `read` cursors, which follow the newest record read.
 */
export function newestTrusted(current: Timestamp, ts: Timestamp, bound: Timestamp): Timestamp {
  return ts > current && ts <= bound ? ts : current;
}
