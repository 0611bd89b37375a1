// The store the config asks for: the embedded SQLite file in state.dir (default), or PostgreSQL.
import type { Logger } from 'pino';
import type { StateConfig } from '../config/sections/state.js';
import { openPostgresStore, type ReplicationMetrics } from './postgres/open-postgres-store.js';
import { openStateStore, type StateStore } from './store.js';

export interface ConfiguredStoreOptions {
  readonly log: Logger;
  /** Recorded as the owner of a SQLite state dir. */
  readonly pid?: number;
  readonly clock?: () => number;
  /** The lease's fencing token (PostgreSQL only; the leader election passes it). */
  readonly fence?: () => bigint | undefined;
  /** false: a snapshot that never ships a write (PostgreSQL only: an ha standby). */
  readonly replicate?: boolean;
  /** The replication metrics (PostgreSQL only). */
  readonly metrics?: ReplicationMetrics;
}

export async function openConfiguredStore(
  state: StateConfig,
  options: ConfiguredStoreOptions,
): Promise<StateStore> {
  if (state.backend === 'sqlite')
    return openStateStore({
      dir: state.dir,
      pid: options.pid,
      clock: options.clock,
      replayableSync: state.sqlite.synchronous,
    });
  const pg = state.postgres;
  if (!pg?.url)
    throw new Error('state.postgres.url is not set: the config schema requires it for backend postgres');
  return openPostgresStore({
    url: pg.url,
    ssl: pg.ssl,
    fence: options.fence,
    replicate: options.replicate,
    log: options.log,
    connectTimeoutMs: pg.connect_timeout,
    statementTimeoutMs: pg.statement_timeout,
    metrics: options.metrics,
  });
}
