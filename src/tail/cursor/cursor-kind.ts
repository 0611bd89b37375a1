// A stream's position, of its kind's own sort: a consensus timestamp (account transactions and rewards, the
// global stream), a sequence number (topic messages), a timestamp and an index (contract logs). Each cursor
// kind says how two positions order and how one is kept in the state store and read back, and what keeps a
// cursor of it from being carried off by one bad record (lastAt or next). What the store holds is untrusted
// (docs/reliability.md): decode refuses anything encode cannot have written.

/**
 * What the state store keeps for a position: a non-negative integer where one fits, else text that sorts as the
 * positions do (and is never 20 digits alone: cursor-store's text columns keep integers in that form).
 */
export type StoredPosition = bigint | string;

export interface CursorKind<P> {
  /** For messages and the docs: `timestamp`, `sequence`, `timestamp-index`. */
  readonly name: string;
  /** Negative, 0 or positive as `a` is before, at or after `b`. */
  compare(a: P, b: P): number;
  encode(position: P): StoredPosition;
  /** Throws on anything encode() cannot have written. */
  decode(stored: StoredPosition): P;
  /**
   * Positions that carry a consensus timestamp: the last position at `ts` (the cursor store holds every write at
   * or below the one at now, docs/tailing.md "Timestamps from the future").
   */
  lastAt?(ts: bigint): P;
  /**
   * Positions numbered without gaps by the service (1, 2, 3…): the one right after `position`. The cursor store
   * moves `safe` only over positions handed over (marked seen), one after the other.
   */
  next?(position: P): P;
}

/** The later of two positions. */
export function later<P>(kind: CursorKind<P>, a: P, b: P): P {
  return kind.compare(a, b) >= 0 ? a : b;
}

/** The earlier of two positions. */
export function earlier<P>(kind: CursorKind<P>, a: P, b: P): P {
  return kind.compare(a, b) <= 0 ? a : b;
}
