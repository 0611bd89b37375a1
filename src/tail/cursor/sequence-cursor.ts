// The cursor of a stream numbered by the service (topic messages: sequence_number, from 1): an integer, kept
// as one. It has no timestamp for the cursor store to hold at now; what holds it instead is `next`: the numbers
// have no gaps, so `safe` only moves over numbers handed over (cursor/position-store.ts). Not used by a stream
// kind yet; the shape the first one will take.
import type { CursorKind } from './cursor-kind.js';
import { compareBigints, decodeInteger } from './timestamp-cursor.js';

export const sequenceCursor: CursorKind<bigint> = {
  name: 'sequence',
  compare: compareBigints,
  encode: (position) => position,
  decode: (stored) => {
    const position = decodeInteger(stored, 'sequence');
    if (position < 0n) throw new Error(`tail: a stored sequence cursor is negative: ${position}`);
    return position;
  },
  next: (position) => position + 1n,
};
