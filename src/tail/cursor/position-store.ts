// The cursors and dedup window of the streams whose cursor kind is not a timestamp (cursor-store.ts keeps those,
// as integers, in tail_cursor/tail_seen as always): topic messages by sequence number, contract logs by
// timestamp and index, and any kind to come. One row per stream in `tail_position` with its kind's name, safe
// and read as text that sorts as the positions do (stored-position.ts), and `tail_position_seen` for the
// positions above `safe` already handed over. Text, so that every kind's stored form fits one column type here
// and in PostgreSQL (the HA backend replicates both tables like every state table).
//
// What holds a cursor: a kind whose positions carry a timestamp is held at now (`lastAt`, as the timestamp
// cursors are); a gapless kind (`next`: sequence numbers) moves `safe` only over positions marked seen, one
// after the other, so a record numbered far ahead, or a number never handed over, leaves `safe` where the
// handed-over run ends. Moving past a gap on purpose is a reset(), by a caller that reported it. A stream's first
// position (where a new stream starts) is taken as the caller gives it; `read` (staleness only) is not held.
import type { Statement } from 'better-sqlite3';
import type { StateStore } from '../../state/store.js';
import { type CursorKind, earlier, later } from './cursor-kind.js';
import { fromStoredText, readStored, storedText } from './stored-position.js';
import type { Cursor, StreamCursors } from './stream-cursors.js';

const TABLE = 'tail_position';
const SEEN = 'tail_position_seen';

export class PositionStore<P> implements StreamCursors<P> {
  private readonly cursors = new Map<string, Cursor<P>>();
  /** Streams whose row was written by another cursor kind: stream → that kind's name. */
  private readonly foreign = new Map<string, string>();
  private readonly stmt: Record<'all' | 'upsert' | 'del' | 'seen' | 'mark' | 'prune' | 'run', Statement>;

  /** `ceiling`: now on this host's clock, for kinds with lastAt (cursor-store.ts). */
  constructor(
    store: StateStore,
    readonly kind: CursorKind<P>,
    private readonly ceiling?: () => bigint,
  ) {
    if (kind.name === 'timestamp')
      throw new Error('tail: timestamp cursors are kept in tail_cursor (CursorStore), not in tail_position');
    if (!kind.lastAt && !kind.next)
      throw new Error(
        `tail: the ${kind.name} cursor kind has neither lastAt (a timestamp the store holds at now) nor next ` +
          '(gapless numbering): nothing would keep one bad record from carrying its cursors off',
      );
    const db = store.db;
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
      stream TEXT PRIMARY KEY, kind TEXT NOT NULL, safe TEXT NOT NULL, read TEXT NOT NULL) WITHOUT ROWID`);
    db.exec(`CREATE TABLE IF NOT EXISTS ${SEEN} (
      stream TEXT NOT NULL, position TEXT NOT NULL, PRIMARY KEY (stream, position)) WITHOUT ROWID`);
    this.stmt = {
      all: db.prepare(`SELECT stream, kind, safe, read FROM ${TABLE}`).safeIntegers(true),
      upsert: db.prepare(
        `INSERT INTO ${TABLE} (stream, kind, safe, read) VALUES (?, ?, ?, ?)
         ON CONFLICT (stream) DO UPDATE SET kind = excluded.kind, safe = excluded.safe, read = excluded.read`,
      ),
      del: db.prepare(`DELETE FROM ${TABLE} WHERE stream = ?`),
      seen: db.prepare(`SELECT 1 FROM ${SEEN} WHERE stream = ? AND position = ?`),
      mark: db.prepare(`INSERT OR IGNORE INTO ${SEEN} (stream, position) VALUES (?, ?)`),
      prune: db.prepare(`DELETE FROM ${SEEN} WHERE stream = ? AND position <= ?`),
      run: db
        .prepare(
          `SELECT position FROM ${SEEN} WHERE stream = ? AND position > ? AND position <= ? ORDER BY position`,
        )
        .pluck(true)
        .safeIntegers(true),
    };
    this.load();
  }

  /** (Re)reads every row of this kind; throws on one it cannot read. The cursor store calls it after a rollback. */
  load(): void {
    this.cursors.clear();
    this.foreign.clear();
    for (const row of this.stmt.all.all() as Record<'stream' | 'kind' | 'safe' | 'read', unknown>[]) {
      const stream = String(row.stream);
      if (row.kind !== this.kind.name) {
        this.foreign.set(stream, String(row.kind));
        continue;
      }
      const safe = this.decode(stream, row.safe, 'safe');
      this.cursors.set(stream, { safe, read: this.decode(stream, row.read, 'read') });
    }
  }

  cursor(stream: string): Cursor<P> | undefined {
    this.own(stream);
    return this.cursors.get(stream);
  }

  all(): ReadonlyMap<string, Cursor<P>> {
    return this.cursors;
  }

  advance(stream: string, next: Cursor<P>): Cursor<P> {
    this.own(stream);
    const k = this.kind;
    const old = this.cursors.get(stream);
    let safe = old ? later(k, old.safe, next.safe) : next.safe;
    if (old && k.next) safe = this.handedOverThrough(stream, old.safe, safe, k.next);
    const read = later(k, old ? later(k, old.read, next.read) : next.read, safe);
    const merged = this.capped({ safe, read }, old);
    if (old && k.compare(old.safe, merged.safe) === 0 && k.compare(old.read, merged.read) === 0) return old;
    this.write(stream, merged);
    return merged;
  }

  reset(stream: string, cursor: Cursor<P> | undefined): void {
    this.own(stream);
    if (cursor) {
      this.write(stream, this.capped(cursor));
    } else {
      this.stmt.del.run(stream);
      this.cursors.delete(stream);
    }
  }

  isSeen(stream: string, position: P): boolean {
    return this.stmt.seen.get(stream, this.text(position)) !== undefined;
  }

  markSeen(stream: string, position: P): void {
    this.own(stream);
    this.stmt.mark.run(stream, this.text(position));
  }

  prune(stream: string, safe: P): void {
    this.stmt.prune.run(stream, this.text(safe));
  }

  /** The last of the positions after `from`, up to `to`, that were all handed over one after the other. */
  private handedOverThrough(stream: string, from: P, to: P, next: (p: P) => P): P {
    let at = from;
    for (const raw of this.stmt.run.iterate(stream, this.text(from), this.text(to))) {
      const position = this.decode(stream, raw, 'seen');
      if (this.kind.compare(position, next(at)) !== 0) break;
      at = position;
    }
    return at;
  }

  /** Held at the last position at now, but never below `old` (cursor-store.ts, capped). */
  private capped(cursor: Cursor<P>, old?: Cursor<P>): Cursor<P> {
    const { kind: k, ceiling } = this;
    if (!ceiling || !k.lastAt) return cursor;
    const limit = k.lastAt(ceiling());
    if (k.compare(cursor.safe, limit) <= 0 && k.compare(cursor.read, limit) <= 0) return cursor;
    return {
      safe: earlier(k, cursor.safe, later(k, limit, old?.safe ?? limit)),
      read: earlier(k, cursor.read, later(k, limit, old?.read ?? limit)),
    };
  }

  private write(stream: string, cursor: Cursor<P>): void {
    this.stmt.upsert.run(stream, this.kind.name, this.text(cursor.safe), this.text(cursor.read));
    this.cursors.set(stream, cursor);
  }

  /** Refuses a stream whose row another cursor kind wrote: one kind's position is never read as another's. */
  private own(stream: string): void {
    const other = this.foreign.get(stream);
    if (other !== undefined)
      throw new Error(
        `tail: stream ${stream} is stored in ${TABLE} as a ${other.slice(0, 40)} cursor, not the ${this.kind.name} ` +
          "cursor its stream kind reads; it is not read as one. Stop the daemon and delete that stream's rows " +
          `from ${TABLE} and ${SEEN} (it then starts at the head like a new stream), or restore the state from a backup`,
      );
  }

  private text(position: P): string {
    return storedText(this.kind.name, this.kind.encode(position));
  }

  private decode(stream: string, raw: unknown, part: string): P {
    return readStored(this.kind, fromStoredText(raw), {
      stream,
      table: part === 'seen' ? SEEN : TABLE,
      part,
    });
  }
}
