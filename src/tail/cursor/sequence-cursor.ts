// The cursor of a stream numbered by the service (topic messages: sequence_number, from 1): an integer, kept
// as one. Not used by a stream kind yet; the shape the first one will take.
import type { CursorKind } from './cursor-kind.js';
import { compareBigints, decodeInteger } from './timestamp-cursor.js';

export const sequenceCursor: CursorKind<bigint> = {
  name: 'sequence',
  compare: compareBigints,
  encode: (position) => position,
  decode: (stored) => decodeInteger(stored, 'sequence'),
};
