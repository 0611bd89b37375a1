// The cursors and dedup window of every stream of one cursor kind, as the cursor store hands them out
// (CursorStore.positions(kind)). Types only.

/** A stream's cursor, in its kind's positions. */
export interface Cursor<P = bigint> {
  /** Every record at or before it has been handed over; polls ask for what comes after it. */
  readonly safe: P;
  /** The newest point the stream has been read through (for staleness only). */
  readonly read: P;
}

/** Writes must run inside the cursor store's transaction(), together with the handler's apply(). */
export interface StreamCursors<P> {
  cursor(stream: string): Cursor<P> | undefined;
  /** Every stream's cursor of this kind, by stream key. */
  all(): ReadonlyMap<string, Cursor<P>>;
  /** Moves a cursor; both parts only ever grow, and never past what the kind's guard allows. */
  advance(stream: string, next: Cursor<P>): Cursor<P>;
  /** Sets a cursor outright (strategy hand-over, an operator's reset, a gap given up and reported). */
  reset(stream: string, cursor: Cursor<P> | undefined): void;
  isSeen(stream: string, position: P): boolean;
  markSeen(stream: string, position: P): void;
  /** Forgets seen positions at or before `safe`: no poll can return them again. */
  prune(stream: string, safe: P): void;
}
