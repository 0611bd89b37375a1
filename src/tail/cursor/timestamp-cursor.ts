// The cursor of every stream tailed today: a consensus timestamp in nanoseconds, kept as an integer (the
// columns of tail_cursor), as it always was.
import type { CursorKind, StoredPosition } from './cursor-kind.js';

export const timestampCursor: CursorKind<bigint> = {
  name: 'timestamp',
  compare: compareBigints,
  encode: (position) => position,
  decode: (stored) => decodeInteger(stored, 'timestamp'),
  lastAt: (ts) => ts,
};

export function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An integer as the store gives it back (bigint), or its decimal text; nothing else. */
export function decodeInteger(stored: StoredPosition, kind: string): bigint {
  if (typeof stored === 'bigint') return stored;
  if (/^-?\d{1,20}$/.test(stored)) return BigInt(stored);
  throw new Error(`tail: a stored ${kind} cursor is not an integer: ${JSON.stringify(stored.slice(0, 40))}`);
}
