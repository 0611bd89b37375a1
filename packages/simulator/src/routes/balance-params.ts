// The query parameters the balance listings share (`/balances`, `/tokens/{id}/balances`): account.id,
// account.balance, account.publickey, timestamp, limit, order; and the balance-snapshot range a timestamp
// filter selects (the newest snapshot of the treasury account 0.0.2 in range, back to the start of its month).
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import type { BalanceBook } from '../balance-book.js';
import { isValidTimestamp, type Filter, type Operator, PAGING_VALIDATORS } from '../params.js';

const MAX_LONG = (1n << 63n) - 1n;
const TREASURY = 2n;
const NS_PER_MS = 1_000_000n;
const PUBLIC_KEY = /^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{66}|[0-9a-fA-F]{88})$/;
/** The DER prefix of an ED25519 public key (SubjectPublicKeyInfo), which the service strips. */
const ED25519_DER_PREFIX = '302a300506032b6570032100';

export const isValidBalance = (f: Filter): boolean =>
  /^\d{1,19}$/.test(f.value) && BigInt(f.value) <= MAX_LONG;
export const isValidPublicKey = (f: Filter): boolean => PUBLIC_KEY.test(f.value);

/** Validators shared by both listings; account.id is added per route. */
export const BALANCE_VALIDATORS: ReadonlyArray<readonly [string, (filter: Filter) => boolean]> = [
  ...PAGING_VALIDATORS,
  ['account.balance', isValidBalance],
  ['account.publickey', isValidPublicKey],
  ['timestamp', isValidTimestamp],
];

/** A comparison on a bigint column: eq values form an IN list, every other operator is AND-ed. */
export function bigintMatcher(
  conditions: ReadonlyArray<{ op: Operator; value: bigint }>,
): (v: bigint) => boolean {
  const eqs = conditions.filter((c) => c.op === 'eq').map((c) => c.value);
  const rest = conditions.filter((c) => c.op !== 'eq');
  return (v) =>
    (eqs.length === 0 || eqs.includes(v)) &&
    rest.every(({ op, value }) => {
      if (op === 'ne') return v !== value;
      if (op === 'gt') return v > value;
      if (op === 'gte') return v >= value;
      if (op === 'lt') return v < value;
      return v <= value;
    });
}

/** account.balance conditions (every operator AND-ed, eq as equality). */
export function balanceMatcher(filters: readonly Filter[]): (v: bigint) => boolean {
  const conditions = filters
    .filter((f) => f.key === 'account.balance')
    .map((f) => ({ op: f.op, value: BigInt(f.value) }));
  const checks = conditions.map((c) => bigintMatcher([{ ...c, op: c.op === 'eq' ? 'eq' : c.op }]));
  return (v) => checks.every((check) => check(v));
}

/** The last account.publickey, as the raw key hex the entity row stores (DER prefix and 0x stripped). */
export function publicKeyFilter(filters: readonly Filter[]): string | undefined {
  let key: string | undefined;
  for (const f of filters) if (f.key === 'account.publickey') key = f.value;
  if (key === undefined) return undefined;
  const hex = key.replace(/^0x/, '').toLowerCase();
  return hex.startsWith(ED25519_DER_PREFIX) ? hex.slice(ED25519_DER_PREFIX.length) : hex;
}

export interface SnapshotRange {
  readonly lower: bigint;
  readonly upper: bigint;
}

/**
 * The snapshot range timestamp filters select (eq counts as lte), or null when no treasury snapshot is in range.
 * The service bounds the search to the month before min(upper, now), so older snapshots are not found.
 */
export function snapshotRange(
  book: BalanceBook,
  filters: readonly Filter[],
  nowNs: bigint,
): SnapshotRange | null {
  let lower = 0n;
  let upper = MAX_LONG;
  const excluded = new Set<bigint>();
  for (const f of filters) {
    if (f.key !== 'timestamp') continue;
    const ns = parseTimestamp(f.value);
    if (f.op === 'eq' || f.op === 'lte') upper = ns < upper ? ns : upper;
    else if (f.op === 'lt') upper = ns - 1n < upper ? ns - 1n : upper;
    else if (f.op === 'gte') lower = ns > lower ? ns : lower;
    else if (f.op === 'gt') lower = ns + 1n > lower ? ns + 1n : lower;
    else excluded.add(ns);
  }
  if (lower > upper) return null;
  const optimal = firstDayOfMonth(upper < nowNs ? upper : nowNs, -1);
  if (optimal > lower) lower = optimal;
  const found = book
    .snapshotsIn(lower, upper)
    .filter((s) => s.accountId === TREASURY && !excluded.has(s.timestamp))
    .pop();
  return found ? { lower: firstDayOfMonth(found.timestamp, 0), upper: found.timestamp } : null;
}

/** The first instant (ns) of the UTC month `delta` months from the one `ns` falls in. */
export function firstDayOfMonth(ns: bigint, delta: number): bigint {
  const date = new Date(Number(ns / NS_PER_MS));
  return BigInt(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + delta)) * NS_PER_MS;
}

/** Latest balance per key among snapshot entries (ascending by time), in key order. */
export function latestBy<T>(entries: Iterable<T>, key: (e: T) => bigint): Map<bigint, T> {
  const latest = new Map<bigint, T>();
  for (const entry of entries) latest.set(key(entry), entry);
  return latest;
}

/**
 * True when the next page's account.id range is empty (the service then sends no next link): descending, a
 * gt/gte bound at or above the cursor; ascending, an lt/lte bound at or below it. Ids only; EVM addresses and
 * aliases (eq only) never bound a range.
 */
export function nextRangeEmpty(
  filters: readonly Filter[],
  order: 'asc' | 'desc',
  cursor: bigint,
  idOf: (text: string) => bigint | null,
): boolean {
  for (const f of filters) {
    if (f.key !== 'account.id') continue;
    const id = idOf(f.value);
    if (id === null) continue;
    if (order === 'desc' && ((f.op === 'gte' && id >= cursor) || (f.op === 'gt' && id + 1n >= cursor)))
      return true;
    if (order === 'asc' && ((f.op === 'lte' && id <= cursor) || (f.op === 'lt' && id - 1n <= cursor)))
      return true;
  }
  return false;
}
