// The lease of this replica, from the config: the state database (state.postgres.url or url_file, with the same
// TLS options as the state backend), ha.lease_ttl, and a holder name that says which pod leads.
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Config } from '../config-file/schema.js';
import type { Logger } from '../observability/logger.js';
import { createLease, type Lease } from '../state/lease.js';
import { createLeasePool } from '../state/lease-pool.js';
import { clientConfig } from '../state/postgres/pg-connection.js';

export interface ReplicaLease {
  readonly lease: Lease;
  /** Ends the lease's connection pool (after the lease was released). */
  close(): Promise<void>;
}

export function leaseFor(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  log: Logger,
): ReplicaLease {
  const pg = config.state.postgres;
  if (!pg?.url)
    throw new Error(
      'ha.enabled: the lease needs the PostgreSQL state database: set state.postgres.url_file (or ' +
        'state.postgres.url) (docs/deployment.md, "High availability")',
    );
  const ttlMs = config.ha.lease_ttl;
  const lg = log.child({ component: 'lease' });
  const { ssl } = clientConfig({ url: pg.url, ssl: pg.ssl, log: lg });
  const pool = createLeasePool({ url: pg.url, ssl, ttlMs, log: lg });
  const holder = config.ha.holder ?? env.POD_NAME ?? hostname();
  const lease = createLease({
    pool,
    holder,
    holderUrl: config.ha.advertise_url,
    ttlMs,
    monotonic: () => performance.now(),
  });
  return { lease, close: () => pool.end() };
}
