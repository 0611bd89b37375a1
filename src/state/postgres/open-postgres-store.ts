// The PostgreSQL backend: an in-memory SQLite working set loaded from PostgreSQL at open, whose every committed
// transaction is captured and replicated in order, fenced by the lease token (docs/architecture.md). Modules keep
// their synchronous SQL; callers that must know a step is durable await durable().
import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Metrics } from '../../observability/metrics.js';
import type { StateStore } from '../store.js';
import { type Capture, createCapture } from './capture.js';
import { migrate } from './migrations.js';
import { deleteOrphans, loadWorkingSet, type OrphanRow } from './load-working-set.js';
import { connectError, connectPostgres, type PostgresSsl } from './pg-connection.js';
import { createReplicator, type Replicator } from './replicator.js';

export interface PostgresStoreOptions {
  readonly url: string;
  readonly ssl?: PostgresSsl;
  /**
   * The lease's fencing token this replica holds, read before every batch. No function: writes are not fenced
   * (migration, tests). Returning undefined (no lease held) refuses every batch once a lease row exists.
   */
  readonly fence?: () => bigint | undefined;
  /**
   * false: a snapshot (an ha standby): the working set is loaded once and local writes are never shipped, so a
   * standby can serve the status page and the read API without ever writing to the shared state.
   */
  readonly replicate?: boolean;
  readonly log: Logger;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  /** How long close() waits for queued batches to reach PostgreSQL. */
  readonly closeGraceMs?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** The replication metrics (docs/metrics.md). */
  readonly metrics?: ReplicationMetrics;
}

export type ReplicationMetrics = Pick<
  Metrics,
  'stateReplicated' | 'stateReplicatedRows' | 'stateReplicationRetries' | 'stateReplicationPending'
>;

export interface PostgresStore extends StateStore {
  readonly backend: 'postgres';
  /** Batches not yet in PostgreSQL. */
  pending(): number;
  /** Rows loaded per table at open. */
  readonly loaded: Readonly<Record<string, number>>;
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const connect = () => connectPostgres(options);
  const first = await connect().catch((err: unknown) => {
    throw connectError(err, options.url);
  });
  const db = new Database(':memory:');
  let loaded: Record<string, number>;
  let orphans: readonly OrphanRow[] = [];
  try {
    await migrate(first);
    loaded = { ...(await loadWorkingSet(first, db, (rows) => (orphans = rows))) };
  } catch (err) {
    db.close();
    await first.end().catch(() => undefined);
    throw connectError(err, options.url);
  }
  if (options.replicate === false) {
    await first.end().catch(() => undefined);
    // A view: the leader reports the orphans and removes them from PostgreSQL; each refresh would repeat it.
    deleteOrphans(db, orphans);
    if (orphans.length) options.log.debug({ count: orphans.length }, 'orphan rows left out of the snapshot');
    return wrap(db, snapshotReplicator(), options, loaded);
  }
  let spare: typeof first | undefined = first;
  const m = options.metrics;
  const replicator = createReplicator({
    ...options,
    onApplied: (batches, rows, pending) => {
      m?.stateReplicated.inc(batches);
      m?.stateReplicatedRows.inc(rows);
      m?.stateReplicationPending.set(pending);
    },
    onRetry: (pending) => {
      m?.stateReplicationRetries.inc();
      m?.stateReplicationPending.set(pending);
    },
    connect: async () => {
      const c = spare ?? (await connect());
      spare = undefined;
      return c;
    },
  });
  const store = wrap(db, replicator, options, loaded);
  if (orphans.length) removeOrphans(store, orphans, options.log);
  return store;
}

/** Said once, by the writer that removes them (from PostgreSQL too: the deletion is replicated like any write). */
function removeOrphans(store: PostgresStore, rows: readonly OrphanRow[], log: Logger): void {
  store.transaction(() => deleteOrphans(store.db, rows));
  log.error(
    { rows: rows.slice(0, 50).map(({ table, row }) => ({ table, row })), count: rows.length },
    `removed ${rows.length} rows of the PostgreSQL state whose parent row was missing (e.g. deliveries of an ` +
      'alert it no longer holds): PostgreSQL lost transactions a writer had acknowledged (a failover to a ' +
      'standby that was behind, a restore). The alerts they name cannot be delivered from this state',
  );
}

/** Ships nothing: the snapshot's local writes (none are expected on a standby) stay in its memory. */
function snapshotReplicator(): Replicator {
  return {
    push: () => undefined,
    abandon: () => undefined,
    durable: () => Promise.resolve(),
    pending: () => 0,
    failure: () => undefined,
    failing: () => undefined,
    close: () => Promise.resolve(0),
  };
}

function wrap(
  db: Database.Database,
  replicator: Replicator,
  options: PostgresStoreOptions,
  loaded: Record<string, number>,
): PostgresStore {
  let scheduled = false;
  const capture = createCapture(db, () => {
    if (scheduled) return;
    scheduled = true;
    // A write outside store.transaction() (autocommit) is shipped once the current synchronous work is done.
    queueMicrotask(() => {
      scheduled = false;
      if (db.inTransaction || !db.open) return;
      try {
        flush();
      } catch (err) {
        // The same error is thrown by the next transaction (the schema is checked again): logged, not lost.
        options.log.error({ err }, 'state change capture failed');
      }
    });
  });
  capture.adopt();
  function flush(): void {
    if (replicator.failure()) return;
    const batch = db.transaction(() => capture.take())();
    if (batch) replicator.push(batch);
  }
  return storeMethods(db, replicator, options, loaded, { capture, flush });
}

interface Flusher {
  readonly capture: Capture;
  /** Ships the writes made outside store.transaction() (autocommit) now. */
  flush(): void;
}

function storeMethods(
  db: Database.Database,
  replicator: Replicator,
  options: PostgresStoreOptions,
  loaded: Record<string, number>,
  { capture, flush }: Flusher,
): PostgresStore {
  return {
    backend: 'postgres',
    db,
    path: undefined,
    loaded,
    transaction<T>(fn: () => T): T {
      const failure = replicator.failure();
      if (failure) throw failure;
      // Nested: part of the outer transaction, shipped with it.
      if (db.inTransaction) return db.transaction(fn)();
      let batch;
      const result = db.transaction(() => {
        const r = fn();
        batch = capture.take();
        return r;
      })();
      if (batch) replicator.push(batch);
      return result;
    },
    check: () => {
      const failure = replicator.failure();
      return failure
        ? `the PostgreSQL state stopped accepting this replica's writes: ${failure.message}`
        : undefined;
    },
    durable() {
      try {
        flush();
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      return replicator.durable();
    },
    pending: () => replicator.pending(),
    lagging: () => replicator.failing(),
    abandon: (reason) => replicator.abandon(reason),
    close: () => closeStore(db, replicator, options, flush),
  };
}

async function closeStore(
  db: Database.Database,
  replicator: Replicator,
  options: PostgresStoreOptions,
  flush: () => void,
): Promise<void> {
  if (!db.open) return;
  try {
    flush();
  } catch (err) {
    options.log.error({ err }, 'state change capture failed');
  }
  const left = await replicator.close(options.closeGraceMs ?? 10_000);
  if (left) options.log.error({ batches: left }, 'state store closed before every batch reached PostgreSQL');
  db.close();
}
