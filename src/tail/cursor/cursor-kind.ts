// A stream's position, of its kind's own sort: a consensus timestamp (account transactions and rewards, the
// global stream), a sequence number (topic messages), a timestamp and an index (contract logs). Each cursor
// kind says how two positions order and how one is kept in the state store and read back. What the store
// holds is untrusted (docs/reliability.md): decode refuses anything encode cannot have written.

/** What the state store keeps for a position: an integer where one fits, else text that sorts as they do. */
export type StoredPosition = bigint | string;

export interface CursorKind<P> {
  /** For messages and the docs: `timestamp`, `sequence`, `timestamp-index`. */
  readonly name: string;
  /** Negative, 0 or positive as `a` is before, at or after `b`. */
  compare(a: P, b: P): number;
  encode(position: P): StoredPosition;
  /** Throws on anything encode() cannot have written. */
  decode(stored: StoredPosition): P;
}

/** The later of two positions. */
export function later<P>(kind: CursorKind<P>, a: P, b: P): P {
  return kind.compare(a, b) >= 0 ? a : b;
}

/** The earlier of two positions. */
export function earlier<P>(kind: CursorKind<P>, a: P, b: P): P {
  return kind.compare(a, b) <= 0 ? a : b;
}
