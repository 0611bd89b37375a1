// The table-lock fault of the PostgreSQL fault world: a connection of its own takes `LOCK TABLE … IN ACCESS
// EXCLUSIVE MODE` on some of the daemon's tables and holds it, as a migration, a `VACUUM FULL` or an operator's
// forgotten transaction would. Every replicated write of the leader touching those tables waits behind it.
import pg from 'pg';
import { LOCK_WORLD_LEASE_TTL_MS, type LockFault } from './fault-plan.js';

/** A lock waits at most this long for the daemon's own transactions to end before it is given up (and counted). */
const LOCK_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export interface TableLocker {
  /** Starts playing `fault` on a connection of its own; a lock on tables another one holds queues behind it. */
  lock(fault: Extract<LockFault, { kind: 'lock' }>): void;
  /** Resolves once the lock being played (if any) is released. */
  done(): Promise<void>;
  /** Locks held, by length against the lease, and locks given up, by reason. */
  stats(): Record<string, number>;
}

/**
 * The tables of `names` that exist. The PostgreSQL state creates a table with the first batch that writes it (the
 * outbox with the first alert), so a lock drawn right after the start waits for one of its tables, up to
 * LOCK_WAIT_MS, as an operator's lock could only name a table that is there.
 */
async function existing(client: pg.Client, names: readonly string[]): Promise<string[]> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const { rows } = await client.query<{ t: string }>(
      'SELECT t FROM unnest($1::text[]) AS t WHERE to_regclass(t) IS NOT NULL',
      [names],
    );
    if (rows.length > 0 || Date.now() > deadline) return rows.map((r) => r.t);
    await sleep(100);
  }
}

/**
 * Plays the plan's locks, each on a client of its own: it takes the lock `afterMs` later (behind any lock already
 * held on the same tables, as PostgreSQL queues them), holds it `ms`, then commits. Only tables that exist by then
 * are named.
 */
export function tableLocker(url: string): TableLocker {
  const running: Promise<void>[] = [];
  const stats: Record<string, number> = { shorterThanLease: 0, longerThanLease: 0 };
  const hold = async (fault: Extract<LockFault, { kind: 'lock' }>) => {
    await sleep(fault.afterMs);
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
      const tables = await existing(client, fault.tables);
      if (tables.length === 0) throw new Error(`none of ${fault.tables.join(', ')} exists yet`);
      await client.query('BEGIN');
      await client.query(`LOCK TABLE ${tables.map((t) => `"${t}"`).join(', ')} IN ACCESS EXCLUSIVE MODE`);
      await sleep(fault.ms);
      await client.query('COMMIT');
      const length = fault.ms > LOCK_WORLD_LEASE_TTL_MS ? 'longerThanLease' : 'shorterThanLease';
      stats[length] = (stats[length] ?? 0) + 1;
    } catch (err) {
      // Not taken within LOCK_WAIT_MS (or the connection failed): counted by its reason, the run goes on.
      const reason = `gave up: ${err instanceof Error ? err.message : String(err)}`.slice(0, 100);
      stats[reason] = (stats[reason] ?? 0) + 1;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  return {
    lock(fault: Extract<LockFault, { kind: 'lock' }>): void {
      running.push(hold(fault));
    },
    done: async () => {
      await Promise.all(running);
    },
    stats: () => ({ ...stats }),
  };
}
