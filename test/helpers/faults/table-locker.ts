// The table-lock fault of the PostgreSQL fault world: a connection of its own takes `LOCK TABLE … IN ACCESS
// EXCLUSIVE MODE` on some of the daemon's tables and holds it, as a migration, a `VACUUM FULL` or an operator's
// forgotten transaction would. Every replicated write of the leader touching those tables waits behind it.
import pg from 'pg';
import { LOCK_WORLD_LEASE_TTL_MS, type LockFault } from './fault-plan.js';

/** A lock waits at most this long for the daemon's own transactions to end before it is given up (and counted). */
const LOCK_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export interface TableLocker {
  /** Starts playing `fault` unless a lock is held already (then it is skipped). */
  lock(fault: Extract<LockFault, { kind: 'lock' }>): void;
  /** Resolves once the lock being played (if any) is released. */
  done(): Promise<void>;
  /** Locks held, by length against the lease, and locks given up, by reason. */
  stats(): Record<string, number>;
}

/**
 * Plays the plan's locks, one at a time (a lock drawn while one is held is skipped): a client of its own takes
 * the lock `afterMs` later, holds it `ms`, then commits. Only tables that exist by then are named.
 */
export function tableLocker(url: string): TableLocker {
  let running: Promise<void> = Promise.resolve();
  let held = false;
  const stats: Record<string, number> = { shorterThanLease: 0, longerThanLease: 0 };
  const hold = async (fault: Extract<LockFault, { kind: 'lock' }>) => {
    await sleep(fault.afterMs);
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
      const { rows } = await client.query<{ t: string }>(
        'SELECT t FROM unnest($1::text[]) AS t WHERE to_regclass(t) IS NOT NULL',
        [fault.tables],
      );
      if (rows.length === 0) return;
      await client.query('BEGIN');
      await client.query(`LOCK TABLE ${rows.map((r) => `"${r.t}"`).join(', ')} IN ACCESS EXCLUSIVE MODE`);
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
      if (held) return;
      held = true;
      running = hold(fault).finally(() => (held = false));
    },
    done: () => running,
    stats: () => ({ ...stats }),
  };
}
