// The one durable state store: a SQLite database (better-sqlite3, WAL, synchronous=FULL; the tail's page commits
// may use NORMAL: docs/reliability.md, "Commit durability") shared by the
// tailers' cursors and dedup window, the rule engine's alert state and the delivery outbox. SQLite gives us
// what atomic-file JSON cannot at 10,000 accounts: several tables changed in one crash-safe transaction
// without rewriting the whole state on every page.
//
// One process owns a state dir: the database is opened with locking_mode=EXCLUSIVE and a write lock is taken at
// once, so a second daemon on the same dir fails at start (SQLITE_BUSY) instead of delivering every alert twice.
// It is an OS-level lock held by the open file, released when the process dies, kill -9 included.
//
// Each module owns its tables and creates them idempotently (CREATE TABLE IF NOT EXISTS) when it is
// constructed on a store; `transaction(fn)` makes any set of their writes one atomic step.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeStateOwner } from './state-owner.js';
import { fileIdentity, storeFileCheck } from './store-file-check.js';
import { stateStoreError } from './state-store-error.js';

export type Db = Database.Database;

export interface StateStore {
  /** Where the state lives: the embedded SQLite file, or PostgreSQL through a working set (docs/architecture.md). */
  readonly backend: 'sqlite' | 'postgres';
  readonly db: Db;
  /** The database file; undefined in memory. */
  readonly path: string | undefined;
  /**
   * Runs fn in one SQLite transaction: all of its writes land together or not at all. `durability: 'replayable'`
   * marks a step whose writes can all be rebuilt by reading the ledger again (the pipeline's page commits):
   * it may commit with synchronous=NORMAL (state.sqlite.synchronous; docs/reliability.md, "Commit
   * durability"). Every other write — silences, acks, CLI edits — is FULL.
   */
  transaction<T>(fn: () => T, options?: TransactionOptions): T;
  /** Why the open database is no longer the state at state.dir (deleted, replaced, read-only), or undefined. */
  check(): string | undefined;
  /**
   * Why committed transactions are not becoming durable right now, while the backend retries (PostgreSQL out of
   * disk, unreachable), or undefined. Not a loss: nothing is sent or stored as done meanwhile, and it clears by
   * itself. SQLite has no such state and leaves it out.
   */
  lagging?(): string | undefined;
  /**
   * Resolves when every transaction committed so far is durable in the backend (SQLite: at once). Rejects with a
   * FencedError when PostgreSQL refused a batch because a newer leader holds the lease.
   */
  durable(): Promise<void>;
  /**
   * The writes of this replica must stop now (PostgreSQL: its lease is lost): every waiting and later durable()
   * rejects with `reason` and nothing more is shipped, so no step waits for a database it may no longer write.
   * SQLite has no such moment and leaves it out.
   */
  abandon?(reason: Error): void;
  close(): void | Promise<void>;
}

/** 'full': on disk when it returns. 'replayable': survives a process crash; rebuilt from the ledger after an OS crash. */
export type Durability = 'full' | 'replayable';

export interface TransactionOptions {
  readonly durability?: Durability;
}

/** How a 'replayable' transaction commits in SQLite (state.sqlite.synchronous). */
export type ReplayableSync = 'full' | 'normal';

export interface StateStoreOptions {
  /** Directory for state.db; `:memory:` for tests that need no durability. */
  readonly dir: string;
  /** Recorded with the lock so that a second daemon can name this one (main.ts passes process.pid). */
  readonly pid?: number;
  readonly clock?: () => number;
  /** synchronous level of 'replayable' transactions; default 'full' (every transaction on disk at return). */
  readonly replayableSync?: ReplayableSync;
}

/** Opens (creating) the store and takes its lock; throws a StateStoreError that says what to do. */
export function openStateStore(options: StateStoreOptions): StateStore {
  const sync = options.replayableSync ?? 'full';
  if (options.dir === ':memory:') return wrap(configure(new Database(':memory:')), undefined, sync);
  const path = join(options.dir, 'state.db');
  let db: Db | undefined;
  try {
    mkdirSync(options.dir, { recursive: true });
    db = new Database(path);
    // Exclusive before the first access, so WAL runs without the shared-memory index and the lock is ours alone.
    db.pragma('locking_mode = EXCLUSIVE');
    configure(db);
    // A write transaction takes the lock now, not at the first alert: the loser fails at start.
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    db.pragma('busy_timeout = 5000');
    writeStateOwner(options.dir, options.pid, (options.clock ?? Date.now)());
    return wrap(db, path, sync);
  } catch (err) {
    db?.close();
    throw stateStoreError(err, options.dir, path);
  }
}

function configure(db: Db): Db {
  // No waiting for the lock: another owner holds it for its whole life.
  db.pragma('busy_timeout = 0');
  db.pragma('journal_mode = WAL');
  // FULL: a transaction that returned is on disk, so "durably accepted" means what it says after kill -9.
  db.pragma('synchronous = FULL');
  return db;
}

function wrap(db: Db, path: string | undefined, replayableSync: ReplayableSync): StateStore {
  const opened = path === undefined ? undefined : fileIdentity(path);
  function transaction<T>(fn: () => T, options?: TransactionOptions): T {
    // A nested call is part of the outer transaction and commits with it, at the outer one's level.
    if (replayableSync === 'full' || options?.durability !== 'replayable' || db.inTransaction)
      return db.transaction(fn)();
    // synchronous is per connection and read at commit: NORMAL for this one transaction, then back to FULL, so
    // every other write (autocommit ones included) stays FULL. A FULL commit syncs the whole WAL, so it also
    // makes every NORMAL commit before it durable: what an OS crash can lose is always a suffix of commits.
    db.pragma('synchronous = NORMAL');
    try {
      return db.transaction(fn)();
    } finally {
      db.pragma('synchronous = FULL');
    }
  }
  return {
    backend: 'sqlite',
    db,
    path,
    transaction,
    check: () => (path === undefined || opened === undefined ? undefined : storeFileCheck(path, opened)),
    // synchronous=FULL: a transaction that returned is already on disk ('replayable' ones with NORMAL: in the
    // OS, so they survive the process; docs/reliability.md).
    durable: () => Promise.resolve(),
    close: () => {
      db.close();
    },
  };
}
