// Durable tailer state in the shared SQLite store: one cursor per stream and the dedup window. Every stream
// kind keeps its cursor here, by stream key; positions go in and out through the cursor kind (cursor-kind.ts).
// Timestamp cursors (every kind tailed today) are kept as integers in tail_cursor/tail_seen, as they always were;
// every other kind through positions(kind), in tail_position/tail_position_seen (position-store.ts). What the
// store gives back is read through the kind and refused, naming the stream, when it holds no position.
//
// A stream is one listing: `tx:<id>` / `rw:<id>` (per account, also covered by the global tail),
// `rwp:<alias>` (rewards watched by alias, never covered by the global tail) and `global`.
// Cursor `safe`: every record at or below it has been handed over; polls ask for timestamp=gt:safe.
// Cursor `read`: the newest point the stream has been read through (for staleness only).
// `tail_seen`: timestamps above `safe` already handed over; a re-read (per-account overlap, global sweep) drops them.
// Writes must run inside transaction() (the store's, via this class) together with the handler's apply().
import type { Statement } from 'better-sqlite3';
import type { StateStore, TransactionOptions } from '../../state/store.js';
import { type CursorKind, earlier, later } from './cursor-kind.js';
import { PositionStore } from './position-store.js';
import { readStored } from './stored-position.js';
import type { Cursor, StreamCursors } from './stream-cursors.js';
import { timestampCursor } from './timestamp-cursor.js';

export type { Cursor } from './stream-cursors.js';

export class CursorStore implements StreamCursors<bigint> {
  private readonly cursors = new Map<string, Cursor>();
  /** The stores of the other cursor kinds, by kind name, made on first use. */
  private readonly kinds = new Map<string, PositionStore<never>>();
  private readonly stmt: Record<
    'all' | 'upsert' | 'del' | 'seen' | 'mark' | 'prune' | 'pruneCovered',
    Statement
  >;

  /**
   * `ceiling`: now on this host's clock; no write moves a cursor beyond it, whatever the caller computed (the
   * last line of the defence in docs/tailing.md, "Timestamps from the future"). It never moves a cursor back
   * either: one already beyond it stays where it is. Absent for offline tools.
   */
  constructor(
    readonly store: StateStore,
    private readonly ceiling?: () => bigint,
  ) {
    const db = store.db;
    db.exec(`CREATE TABLE IF NOT EXISTS tail_cursor (
      stream TEXT PRIMARY KEY, safe INTEGER NOT NULL, read INTEGER NOT NULL) WITHOUT ROWID`);
    db.exec(`CREATE TABLE IF NOT EXISTS tail_seen (
      stream TEXT NOT NULL, ts INTEGER NOT NULL, PRIMARY KEY (stream, ts)) WITHOUT ROWID`);
    db.exec('CREATE INDEX IF NOT EXISTS tail_seen_ts ON tail_seen (ts)');
    this.stmt = {
      all: db.prepare('SELECT stream, safe, read FROM tail_cursor').safeIntegers(true),
      upsert: db.prepare(
        `INSERT INTO tail_cursor (stream, safe, read) VALUES (?, ?, ?)
         ON CONFLICT (stream) DO UPDATE SET safe = excluded.safe, read = excluded.read`,
      ),
      del: db.prepare('DELETE FROM tail_cursor WHERE stream = ?'),
      seen: db.prepare('SELECT 1 FROM tail_seen WHERE stream = ? AND ts = ?'),
      mark: db.prepare('INSERT OR IGNORE INTO tail_seen (stream, ts) VALUES (?, ?)'),
      prune: db.prepare('DELETE FROM tail_seen WHERE stream = ? AND ts <= ?'),
      pruneCovered: db.prepare("DELETE FROM tail_seen WHERE ts <= ? AND stream NOT LIKE 'rwp:%'"),
    };
    this.load();
  }

  /** store.transaction(fn), keeping the cursor cache true to the database when fn throws. */
  transaction<T>(fn: () => T, options?: TransactionOptions): T {
    try {
      return this.store.transaction(fn, options);
    } catch (err) {
      this.load();
      for (const kind of this.kinds.values()) kind.load();
      throw err;
    }
  }

  private load(): void {
    this.cursors.clear();
    for (const row of this.stmt.all.all() as { stream: string; safe: unknown; read: unknown }[]) {
      const at = (part: string) => ({ stream: row.stream, table: 'tail_cursor', part });
      const safe = readStored(POSITION, row.safe, at('safe'));
      this.cursors.set(row.stream, { safe, read: readStored(POSITION, row.read, at('read')) });
    }
  }

  /**
   * The cursors and dedup window of the streams of one cursor kind: this store itself for timestamps, a store
   * of its own (sharing this one's transactions and ceiling) for any other kind.
   */
  positions<P>(kind: CursorKind<P>): StreamCursors<P> {
    if (kind === (timestampCursor as CursorKind<unknown>)) return this as unknown as StreamCursors<P>;
    let kept = this.kinds.get(kind.name) as PositionStore<P> | undefined;
    if (!kept) {
      kept = new PositionStore(this.store, kind, this.ceiling);
      this.kinds.set(kind.name, kept as unknown as PositionStore<never>);
    } else if (kept.kind !== kind) {
      throw new Error(`tail: two cursor kinds are named ${kind.name}; each needs a name of its own`);
    }
    return kept;
  }

  cursor(stream: string): Cursor | undefined {
    return this.cursors.get(stream);
  }

  /** Every stream's cursor, by stream key. */
  all(): ReadonlyMap<string, Cursor> {
    return this.cursors;
  }

  /** Moves a cursor; both parts only ever grow. Call inside transaction(). */
  advance(stream: string, next: Cursor): Cursor {
    const old = this.cursors.get(stream);
    const merged = this.capped(
      old
        ? { safe: max(old.safe, next.safe), read: max(old.read, max(next.read, next.safe)) }
        : { safe: next.safe, read: max(next.read, next.safe) },
      old,
    );
    if (old && old.safe === merged.safe && old.read === merged.read) return old;
    this.stmt.upsert.run(stream, POSITION.encode(merged.safe), POSITION.encode(merged.read));
    this.cursors.set(stream, merged);
    return merged;
  }

  /** Sets a cursor outright (strategy hand-over only). Call inside transaction(). */
  reset(stream: string, cursor: Cursor | undefined): void {
    if (cursor) {
      const capped = this.capped(cursor);
      this.stmt.upsert.run(stream, POSITION.encode(capped.safe), POSITION.encode(capped.read));
      this.cursors.set(stream, capped);
    } else {
      this.stmt.del.run(stream);
      this.cursors.delete(stream);
    }
  }

  /** Held at the ceiling, but never below `old`: moving a cursor back would hand rows over twice. */
  private capped(cursor: Cursor, old?: Cursor): Cursor {
    if (!this.ceiling) return cursor;
    const limit = this.ceiling();
    if (cursor.safe <= limit && cursor.read <= limit) return cursor;
    return {
      safe: min(cursor.safe, max(limit, old?.safe ?? limit)),
      read: min(cursor.read, max(limit, old?.read ?? limit)),
    };
  }

  isSeen(stream: string, ts: bigint): boolean {
    return this.stmt.seen.get(stream, ts) !== undefined;
  }

  markSeen(stream: string, ts: bigint): void {
    this.stmt.mark.run(stream, ts);
  }

  /** Forgets seen timestamps at or below `safe`: no poll can return them again. */
  prune(stream: string, safe: bigint): void {
    this.stmt.prune.run(stream, safe);
  }

  /** The global tail's prune: every stream it covers at once. */
  pruneCovered(safe: bigint): void {
    this.stmt.pruneCovered.run(safe);
  }

  seenCount(): number {
    return (this.store.db.prepare('SELECT count(*) AS n FROM tail_seen').get() as { n: number }).n;
  }
}

/** The cursor kind of every stream kept here (stream-kinds.ts: all of them are timestamp-cursored today). */
const POSITION = timestampCursor;

function max(a: bigint, b: bigint): bigint {
  return later(POSITION, a, b);
}

function min(a: bigint, b: bigint): bigint {
  return earlier(POSITION, a, b);
}
