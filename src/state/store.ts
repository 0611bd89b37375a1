// The one durable state store: a SQLite database (better-sqlite3, WAL, synchronous=FULL) shared by the
// tailers' cursors and dedup window, the rule engine's alert state and the delivery outbox. SQLite gives us
// what atomic-file JSON cannot at 10,000 accounts: several tables changed in one crash-safe transaction
// without rewriting the whole state on every page.
//
// Each module owns its tables and creates them idempotently (CREATE TABLE IF NOT EXISTS) when it is
// constructed on a store; `transaction(fn)` makes any set of their writes one atomic step.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database.Database;

export interface StateStore {
  readonly db: Db;
  /** Runs fn in one SQLite transaction: all of its writes land together or not at all. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export interface StateStoreOptions {
  /** Directory for state.db; `:memory:` for tests that need no durability. */
  readonly dir: string;
}

export function openStateStore(options: StateStoreOptions): StateStore {
  const memory = options.dir === ':memory:';
  if (!memory) mkdirSync(options.dir, { recursive: true });
  const db = new Database(memory ? ':memory:' : join(options.dir, 'state.db'));
  db.pragma('journal_mode = WAL');
  // FULL: a transaction that returned is on disk, so "durably accepted" means what it says after kill -9.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  return {
    db,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => db.close(),
  };
}
