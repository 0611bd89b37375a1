// The backend's own tables in PostgreSQL, versioned: each migration runs once, in order, at start, in one
// transaction that holds an advisory lock, so replicas starting together apply it once.
import type { ClientBase } from 'pg';

/**
 * pg_advisory_xact_lock key: 'LSMG' (ledger-sentinel migrations). The lease takes it too before it creates
 * sentinel_lease (lease-sql.ts), so that a migration and a lease of another replica never create it at once.
 */
export const LOCK_KEY = 0x4c534d47;

export const MIGRATIONS: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE sentinel_schema (
        name text PRIMARY KEY, type text NOT NULL, sql text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE IF NOT EXISTS sentinel_lease (
        id int PRIMARY KEY, token bigint NOT NULL, holder text, holder_url text, acquired_at timestamptz,
        renewed_at timestamptz, ttl_ms bigint);`,
  },
  {
    // One row per leadership (fencing token): how many batches it committed, and when the last one committed.
    // An audit that does not rely on the fence itself: a batch committed after a newer token's acquisition
    // would show as last_at later than that acquisition (docs/reliability.md, "Failover").
    version: 2,
    sql: `
      CREATE TABLE sentinel_commits (
        token bigint PRIMARY KEY, batches bigint NOT NULL, first_at timestamptz NOT NULL,
        last_at timestamptz NOT NULL);`,
  },
];

/** Applies the missing migrations; returns the versions applied now. */
export async function migrate(client: ClientBase): Promise<number[]> {
  const applied: number[] = [];
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS sentinel_migrations (
      version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM sentinel_migrations',
    );
    const current = rows[0]?.v ?? 0;
    for (const m of MIGRATIONS.filter((x) => x.version > current)) {
      await client.query(m.sql);
      await client.query('INSERT INTO sentinel_migrations (version) VALUES ($1)', [m.version]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
