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

/**
 * What a lease knows between calls: its options and the token it holds. The steps below (acquire, renew, release,
 * read) are functions that take it; createLease binds them into the Lease interface.
 */
interface LeaseRecord {
  readonly options: LeaseOptions;
  /** Subtracted from the TTL for the local validity. */
  readonly marginMs: number;
  /** The fencing token while held; undefined when not held, dropped or released. */
  token: bigint | undefined;
  /** When PostgreSQL recorded our acquisition (its text form): renewals match it as well as the token. */
  acquiredAt: string | undefined;
  /** The local monotonic time at which the last successful acquire or renewal was SENT. */
  confirmed: number | undefined;
  /** The lease table exists (created once, on first use). */
  tableReady: boolean;
}

async function ready(record: LeaseRecord): Promise<void> {
  if (record.tableReady) return;
  await ensureLeaseTable(record.options.pool);
  record.tableReady = true;
}

async function acquireLease(record: LeaseRecord): Promise<bigint | undefined> {
  const { pool, holder, holderUrl, ttlMs, monotonic } = record.options;
  await ready(record);
  const sentAt = monotonic();
  const result = await pool.query<{ token: string; acquired_at: string }>(ACQUIRE_LEASE, [
    holder,
    holderUrl ?? null,
    ttlMs,
  ]);
  const row = result.rows[0];
  if (!row) return undefined;
  record.token = BigInt(row.token);
  record.acquiredAt = row.acquired_at;
  record.confirmed = sentAt;
  return record.token;
}

async function renewLease(record: LeaseRecord): Promise<boolean> {
  const mine = record.token;
  if (mine === undefined) return false;
  const sentAt = record.options.monotonic();
  const result = await record.options.pool.query(RENEW_LEASE, [mine.toString(), record.acquiredAt]);
  if (record.token !== mine) return false;
  if (result.rowCount === 0) {
    dropLease(record);
    return false;
  }
  record.confirmed = sentAt;
  return true;
}

async function releaseLease(record: LeaseRecord): Promise<void> {
  const mine = record.token;
  dropLease(record);
  if (mine !== undefined) await record.options.pool.query(RELEASE_LEASE, [mine.toString()]);
}

function dropLease(record: LeaseRecord): void {
  record.token = undefined;
  record.acquiredAt = undefined;
  record.confirmed = undefined;
}

function validUntil(record: LeaseRecord): number | undefined {
  const { token, confirmed } = record;
  return token === undefined || confirmed === undefined
    ? undefined
    : confirmed + record.options.ttlMs - record.marginMs;
}

async function readLease(record: LeaseRecord): Promise<LeaseState | undefined> {
  await ready(record);
  const result = await record.options.pool.query<{
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
}

export function createLease(options: LeaseOptions): Lease {
  const { holder, ttlMs, monotonic } = options;
  const record: LeaseRecord = {
    options,
    marginMs: options.marginMs ?? Math.floor(ttlMs / 5),
    token: undefined,
    acquiredAt: undefined,
    confirmed: undefined,
    tableReady: false,
  };
  return {
    holder,
    ttlMs,
    acquire: () => acquireLease(record),
    renew: () => renewLease(record),
    release: () => releaseLease(record),
    valid: () => {
      const until = validUntil(record);
      return until !== undefined && monotonic() < until;
    },
    token: () => record.token,
    validUntil: () => validUntil(record),
    remainingMs: () => {
      const until = validUntil(record);
      return until === undefined ? 0 : Math.max(0, until - monotonic());
    },
    ageMs: () =>
      record.token === undefined || record.confirmed === undefined
        ? undefined
        : monotonic() - record.confirmed,
    drop: () => dropLease(record),
    read: () => readLease(record),
  };
}
