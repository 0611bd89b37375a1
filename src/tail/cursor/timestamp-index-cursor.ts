// The cursor of a stream with several rows per consensus timestamp (contract logs: timestamp and index): two
// integers, kept as one text that sorts as the positions do (both parts zero-padded). Not used by a stream
// kind yet; the shape the first one will take.
import type { CursorKind } from './cursor-kind.js';
import { compareBigints } from './timestamp-cursor.js';

export interface TimestampIndex {
  /** Consensus timestamp, nanoseconds. */
  readonly ts: bigint;
  /** Position within the timestamp, from 0. */
  readonly index: number;
}

const STORED = /^(\d{20}):(\d{10})$/;
/** The largest index the stored form holds. */
const MAX_INDEX = 9_999_999_999;

export const timestampIndexCursor: CursorKind<TimestampIndex> = {
  name: 'timestamp-index',
  compare: (a, b) => compareBigints(a.ts, b.ts) || a.index - b.index,
  encode: (p) => {
    if (p.ts < 0n || !Number.isSafeInteger(p.index) || p.index < 0 || p.index > MAX_INDEX)
      throw new Error(`tail: no stored form for the position ${p.ts}:${p.index}`);
    return `${p.ts.toString().padStart(20, '0')}:${p.index.toString().padStart(10, '0')}`;
  },
  decode: (stored) => {
    const match = typeof stored === 'string' ? STORED.exec(stored) : null;
    if (!match)
      throw new Error(`tail: a stored timestamp-index cursor is malformed: ${String(stored).slice(0, 40)}`);
    return { ts: BigInt(match[1] as string), index: Number(match[2]) };
  },
  lastAt: (ts) => ({ ts, index: MAX_INDEX }),
};
