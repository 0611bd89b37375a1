// The lease row every replica competes for (docs/reliability.md, "Failover"). The PostgreSQL backend's first
// migration creates the same table; creating it here too lets the lease work on an empty database.
import type { Pool, PoolClient } from 'pg';
import { LOCK_KEY } from './postgres/migrations.js';

export const CREATE_LEASE_TABLE = `CREATE TABLE IF NOT EXISTS sentinel_lease (
  id int PRIMARY KEY,
  token bigint NOT NULL,
  holder text,
  holder_url text,
  acquired_at timestamptz,
  renewed_at timestamptz,
  ttl_ms bigint
)`;

// One statement, so two replicas racing cannot both win: ON CONFLICT locks the row and re-checks the WHERE on its
// newest version. The row is free when released (holder NULL) or expired by PostgreSQL's clock, judged with the
// TTL its holder announced. Every takeover bumps the token, so it only ever grows.
export const ACQUIRE_LEASE = `INSERT INTO sentinel_lease AS l (id, token, holder, holder_url, acquired_at, renewed_at, ttl_ms)
VALUES (1, 1, $1, $2, now(), now(), $3)
ON CONFLICT (id) DO UPDATE SET token = l.token + 1, holder = EXCLUDED.holder, holder_url = EXCLUDED.holder_url,
  acquired_at = now(), renewed_at = now(), ttl_ms = EXCLUDED.ttl_ms
WHERE l.holder IS NULL OR l.renewed_at IS NULL
  OR l.renewed_at < now() - l.ttl_ms * interval '1 millisecond'
RETURNING token::text, acquired_at::text`;

// The acquisition's own time identifies it besides the token: a database that failed over to a standby which had
// not received a token bump hands the same token number out again, and the old holder's renewals must not match
// the new holder's row.
export const RENEW_LEASE = `UPDATE sentinel_lease SET renewed_at = now()
WHERE id = 1 AND token = $1 AND holder IS NOT NULL AND acquired_at = $2::timestamptz RETURNING token::text`;

// Keeps the token (it must never go back) and frees the row for a standby at once.
export const RELEASE_LEASE = `UPDATE sentinel_lease SET holder = NULL, holder_url = NULL, renewed_at = NULL
WHERE id = 1 AND token = $1`;

export const READ_LEASE = `SELECT token::text, holder, holder_url,
  (holder IS NOT NULL AND renewed_at >= now() - ttl_ms * interval '1 millisecond') AS live
FROM sentinel_lease WHERE id = 1`;

/** What every replicated write checks first, inside its transaction (the row lock holds off a takeover). */
export const FENCE_CHECK = 'SELECT token::text FROM sentinel_lease WHERE id = 1 FOR SHARE';

/** The migrations' lock: replicas starting together, and the state's migration, create the table one at a time. */
const CREATE_LOCK = LOCK_KEY;

// CREATE TABLE IF NOT EXISTS is not safe against itself: two at once may both try, and one fails on the catalog's
// unique index. Serialised by an advisory lock; a concurrent creator without it (a migration) is tolerated too.
export async function ensureLeaseTable(pool: Pool): Promise<void> {
  const client: PoolClient = await pool.connect();
  // A checked-out client has no pool listener: a server shutdown in between would otherwise throw at the process.
  const dropped = (): void => undefined;
  client.on('error', dropped);
  let failed: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [CREATE_LOCK]);
    await client.query(CREATE_LEASE_TABLE);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42P07') failed = err as Error;
  } finally {
    client.removeListener('error', dropped);
    client.release(failed);
  }
  if (failed) throw failed;
}
