// The lease's own small connection pool: renewals must not queue behind the state backend's batches, and every
// query is bounded well inside the TTL so that a hung connection shows up as a failed renewal, not a stuck one.
import pg from 'pg';
import type { Logger } from '../observability/logger.js';

export interface LeasePoolOptions {
  readonly url: string;
  /** node-postgres TLS options (state.tls), or undefined for none. */
  readonly ssl?: pg.PoolConfig['ssl'];
  readonly ttlMs: number;
  readonly log: Logger;
}

export function createLeasePool(options: LeasePoolOptions): pg.Pool {
  const boundMs = Math.max(100, Math.floor(options.ttlMs / 3));
  const pool = new pg.Pool({
    connectionString: options.url,
    ssl: options.ssl,
    max: 2,
    connectionTimeoutMillis: boundMs,
    query_timeout: boundMs,
    statement_timeout: boundMs,
    idleTimeoutMillis: options.ttlMs,
  });
  // A dropped idle connection (database restart, network cut) is replaced on the next query; without a listener
  // node-postgres would throw it at the process.
  pool.on('error', (err) => options.log.warn({ err }, 'lease connection dropped'));
  return pool;
}
