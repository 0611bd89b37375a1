// Leader election on one PostgreSQL row with a monotonically increasing fencing token (docs/reliability.md,
// "Failover"). Expiry is judged by PostgreSQL's clock (renewed_at + ttl), never by comparing two machines' clocks.
//
// Self-fencing uses only the local monotonic clock: a renewal counts from the moment it was SENT, and the lease is
// held locally for ttl − margin after that. The database sets renewed_at when the statement runs, which is later,
// so this replica's local validity always ends before any standby can take the row over — even when the database
// cannot be reached at all. A paused process (GC, SIGSTOP, a frozen VM) finds its validity lapsed when it wakes.
import type { Pool } from 'pg';
import { ACQUIRE_LEASE, READ_LEASE, RELEASE_LEASE, RENEW_LEASE, ensureLeaseTable } from './lease-sql.js';

export interface LeaseOptions {
  readonly pool: Pool;
  /** Who holds the lease (ha.holder: the pod name); shown by standbys and the status page. */
  readonly holder: string;
  /** Where the leader's HTTP API answers (ha.advertise_url), for standbys to name or forward to. */
  readonly holderUrl?: string;
  readonly ttlMs: number;
  /** Subtracted from the TTL for local validity (default a fifth of it): room for clock-rate drift. */
  readonly marginMs?: number;
  /** A monotonic clock in ms (performance.now); never the wall clock, which may jump. */
  readonly monotonic: () => number;
}

export interface LeaseState {
  readonly token: bigint;
  /** undefined when released. */
  readonly holder: string | undefined;
  readonly holderUrl: string | undefined;
  /** Held and not expired by the database's clock. */
  readonly live: boolean;
}

export interface Lease {
  readonly holder: string;
  readonly ttlMs: number;
  /** Takes the lease if it is free or expired; resolves the new token, or undefined when another replica holds it. */
  acquire(): Promise<bigint | undefined>;
  /** Extends the lease; false when it was taken over (the token no longer matches): leadership is lost. */
  renew(): Promise<boolean>;
  /** Frees the row (keeping the token) so that a standby takes over at once; a no-op when not held. */
  release(): Promise<void>;
  /** This replica may act as leader: it holds a token and the local validity has not lapsed. */
  valid(): boolean;
  /** The token while held (even if lapsed locally; then writes carrying it are refused by the fence). */
  token(): bigint | undefined;
  /** The local monotonic time at which the validity lapses, while held. */
  validUntil(): number | undefined;
  /** Milliseconds of local validity left (0 when not held or lapsed). */
  remainingMs(): number;
  /** Milliseconds since the last successful acquire or renewal was sent, while held. */
  ageMs(): number | undefined;
  /** Forgets the token: stop acting as leader (self-fence, lost, released). */
  drop(): void;
  /** The row as the database sees it now (undefined before anyone ever held it). */
  read(): Promise<LeaseState | undefined>;
}

export function createLease(options: LeaseOptions): Lease {
  const { pool, holder, ttlMs, monotonic } = options;
  const marginMs = options.marginMs ?? Math.floor(ttlMs / 5);
  let token: bigint | undefined;
  let confirmed: number | undefined;
  let tableReady = false;

  async function ready(): Promise<void> {
    if (tableReady) return;
    await ensureLeaseTable(pool);
    tableReady = true;
  }

  const lease: Lease = {
    holder,
    ttlMs,
    async acquire() {
      await ready();
      const sentAt = monotonic();
      const result = await pool.query<{ token: string }>(ACQUIRE_LEASE, [
        holder,
        options.holderUrl ?? null,
        ttlMs,
      ]);
      const row = result.rows[0];
      if (!row) return undefined;
      token = BigInt(row.token);
      confirmed = sentAt;
      return token;
    },
    async renew() {
      const mine = token;
      if (mine === undefined) return false;
      const sentAt = monotonic();
      const result = await pool.query(RENEW_LEASE, [mine.toString()]);
      if (token !== mine) return false;
      if (result.rowCount === 0) {
        lease.drop();
        return false;
      }
      confirmed = sentAt;
      return true;
    },
    async release() {
      const mine = token;
      lease.drop();
      if (mine !== undefined) await pool.query(RELEASE_LEASE, [mine.toString()]);
    },
    valid: () => token !== undefined && confirmed !== undefined && monotonic() < confirmed + ttlMs - marginMs,
    token: () => token,
    validUntil: () =>
      token === undefined || confirmed === undefined ? undefined : confirmed + ttlMs - marginMs,
    remainingMs: () => {
      const until = lease.validUntil();
      return until === undefined ? 0 : Math.max(0, until - monotonic());
    },
    ageMs: () => (token === undefined || confirmed === undefined ? undefined : monotonic() - confirmed),
    drop() {
      token = undefined;
      confirmed = undefined;
    },
    async read() {
      await ready();
      const result = await pool.query<{
        token: string;
        holder: string | null;
        holder_url: string | null;
        live: boolean;
      }>(READ_LEASE);
      const row = result.rows[0];
      if (!row) return undefined;
      return {
        token: BigInt(row.token),
        holder: row.holder ?? undefined,
        holderUrl: row.holder_url ?? undefined,
        live: row.live,
      };
    },
  };
  return lease;
}
