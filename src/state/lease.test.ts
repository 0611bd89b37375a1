// The lease against a real PostgreSQL (test/helpers/postgres.ts): one leader at a time, a token that only grows,
// self-fencing by the local clock, and the fence that refuses a stale leader's writes.
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger.js';
import {
  POSTGRES_BIN,
  POSTGRES_REQUIRED,
  startPostgres,
  type PostgresServer,
} from '../../test/helpers/postgres.js';
import { checkFence } from './fence-check.js';
import { FencedError } from './fenced-error.js';
import { createLease, type Lease } from './lease.js';
import { startLeaseElector } from './lease-elector.js';
import { createLeasePool } from './lease-pool.js';

const log = createLogger({ level: 'silent' });

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('lease (PostgreSQL)', () => {
  let pg: PostgresServer;
  const pools: Pool[] = [];
  let databases = 0;

  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    pg?.destroy();
  });

  function database(): string {
    databases += 1;
    return pg.createDatabase(`lease_${databases}`);
  }

  function leaseOn(url: string, holder: string, ttlMs: number, monotonic = () => performance.now()): Lease {
    const pool = createLeasePool({ url, ttlMs: Math.max(ttlMs, 3000), log });
    pools.push(pool);
    return createLease({ pool, holder, holderUrl: `http://${holder}:8080`, ttlMs, monotonic });
  }

  async function sqlOn(url: string, text: string): Promise<void> {
    const pool = createLeasePool({ url, ttlMs: 3000, log });
    pools.push(pool);
    await pool.query(text);
  }

  async function until<T>(what: string, get: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 400; i += 1) {
      const value = await get();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it('lets only one of two replicas lead, and names the leader', async () => {
    const url = database();
    const a = leaseOn(url, 'pod-a', 60_000);
    const b = leaseOn(url, 'pod-b', 60_000);

    const [ta, tb] = await Promise.all([a.acquire(), b.acquire()]);

    expect([ta, tb].filter((t) => t !== undefined)).toHaveLength(1);
    const winner = ta !== undefined ? a : b;
    expect(winner.valid()).toBe(true);
    expect((ta !== undefined ? b : a).valid()).toBe(false);
    expect(await b.read()).toMatchObject({ holder: winner.holder, live: true, token: winner.token() });
  });

  it('increases the token on every takeover, by release and by expiry', async () => {
    const url = database();
    const a = leaseOn(url, 'pod-a', 60_000);
    const b = leaseOn(url, 'pod-b', 60_000);
    const short = leaseOn(url, 'pod-c', 300);

    const t1 = await a.acquire();
    await a.release();
    const t2 = await b.acquire();
    await b.release();
    const t3 = await short.acquire();
    const t4 = await until('the expired lease to be taken', () => a.acquire());

    expect(t1).toBeDefined();
    expect([t1!, t2!, t3!, t4]).toEqual([t1!, t1! + 1n, t1! + 2n, t1! + 3n]);
  });

  it('a token handed out again (a failover lost its bump) is not renewed by its first holder', async () => {
    const url = database();
    const a = leaseOn(url, 'pod-a', 60_000);
    const b = leaseOn(url, 'pod-b', 60_000);
    const token = await a.acquire();
    // The promoted standby never saw a's bump: the row is one token behind, and long expired.
    await sqlOn(
      url,
      `UPDATE sentinel_lease SET token = token - 1, holder = 'pod-z', renewed_at = now() - interval '1 hour'`,
    );
    const again = await b.acquire();
    const renewed = await a.renew();

    expect(again).toBe(token);
    expect(renewed).toBe(false);
    expect(a.valid()).toBe(false);
    expect(await b.renew()).toBe(true);
  });

  it('release lets a standby take over at once, without waiting for the TTL', async () => {
    const url = database();
    const a = leaseOn(url, 'pod-a', 600_000);
    const b = leaseOn(url, 'pod-b', 600_000);
    await a.acquire();
    const refused = await b.acquire();

    await a.release();
    const taken = await b.acquire();

    expect(refused).toBeUndefined();
    expect(taken).toBeDefined();
    expect(a.valid()).toBe(false);
  });

  it('self-fences a paused leader by its own clock, and the fence refuses its writes with the old token', async () => {
    const url = database();
    let frozen = 0;
    const a = leaseOn(url, 'pod-a', 500, () => frozen);
    const b = leaseOn(url, 'pod-b', 500);
    const old = await a.acquire();
    const write = writer(pools.at(-1)!);
    await write.setUp();

    frozen += 500; // a pause as long as the TTL: no renewal was sent in between
    const fencedLocally = !a.valid();
    const next = await until('the standby to take over', () => b.acquire());
    const stale = await write.insert(old, 'from the old leader');
    const current = await write.insert(next, 'from the new leader');

    expect(fencedLocally).toBe(true);
    expect(next).toBe(old! + 1n);
    expect(stale).toBeInstanceOf(FencedError);
    expect(current).toBeUndefined();
    expect(await write.rows()).toEqual(['from the new leader']);
    expect(await a.renew()).toBe(false);
    expect(a.token()).toBeUndefined();
  });

  it('never has two leaders with overlapping validity across a PostgreSQL restart', async () => {
    const url = database();
    const validity = new Map<string, number>();
    const elected = new Map<string, number>();
    const lost: string[] = [];
    const electors = ['pod-a', 'pod-b'].map((holder, i) => {
      const lease = recording(leaseOn(url, holder, 3000), validity);
      return startLeaseElector({
        lease,
        log,
        intervalMs: i === 0 ? 1000 : 200,
        onElected: () => elected.set(holder, performance.now()),
        onLost: () => lost.push(holder),
      });
    });
    const first = await until(
      'a leader',
      async () => electors.findIndex((e) => e.leading()) + 1 || undefined,
    );
    const leader = ['pod-a', 'pod-b'][first - 1]!;
    const standby = ['pod-a', 'pod-b'][2 - first]!;

    pg.restart();
    await until('a leader after the restart', async () =>
      electors.some((e) => e.leading()) ? true : undefined,
    );
    await Promise.all(electors.map((e) => e.stop()));

    if (elected.has(standby)) {
      // Took over: the old leader's last local validity ended before the new one was elected.
      expect(lost).toContain(leader);
      expect(validity.get(leader)!).toBeLessThanOrEqual(elected.get(standby)!);
    } else {
      expect(lost).toEqual([]);
    }
  }, 60_000);
});

/** Records, per holder, the latest local validity end after each successful acquire or renewal. */
function recording(lease: Lease, validity: Map<string, number>): Lease {
  const note = (): void => {
    const until = lease.validUntil();
    if (until !== undefined) validity.set(lease.holder, until);
  };
  return {
    ...lease,
    acquire: async () => {
      const token = await lease.acquire();
      note();
      return token;
    },
    renew: async () => {
      const ok = await lease.renew();
      note();
      return ok;
    },
  };
}

/** A replicated write the way the PostgreSQL backend makes one: the fence first, in the same transaction. */
function writer(pool: Pool) {
  return {
    setUp: async () => {
      await pool.query('CREATE TABLE IF NOT EXISTS fenced_writes (body text NOT NULL)');
    },
    insert: async (token: bigint | undefined, body: string): Promise<unknown> => {
      const client = await pool.connect();
      client.on('error', () => undefined);
      try {
        await client.query('BEGIN');
        await checkFence(client, token);
        await client.query('INSERT INTO fenced_writes (body) VALUES ($1)', [body]);
        await client.query('COMMIT');
        return undefined;
      } catch (err) {
        await client.query('ROLLBACK');
        return err;
      } finally {
        client.release();
      }
    },
    rows: async () =>
      (await pool.query<{ body: string }>('SELECT body FROM fenced_writes')).rows.map((r) => r.body),
  };
}
