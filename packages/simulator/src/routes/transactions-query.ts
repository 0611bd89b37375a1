// The /transactions filter model: turns validated filters into bounds and a row predicate (docs/ledger-api.md §5-8).
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { TRANSACTION_TYPE_NAMES } from '@ledger-sentinel/ledger-model/transaction-types';
import { parseIdOrEvm } from '../account-ref.js';
import type { Filter } from '../params.js';
import { payerBranchEligible, type SimTransaction, type SimTransferRow } from '../store.js';

export interface TransactionsQuery {
  /** Inclusive bounds after the gt/lt ±1 ns adjustment; null = open. */
  lower: bigint | null;
  upper: bigint | null;
  /** The one eq timestamp, if any. */
  eq: bigint | null;
  /** True when the answer is empty before any query (2+ eq, empty range, credit+debit). */
  emptyUpfront: boolean;
  /** Eq accounts (OR-ed) for the index; undefined = no eq account filter. */
  accounts: bigint[] | undefined;
  accept(tx: SimTransaction): boolean;
}

/** Matches nothing: an EVM address that is not long-zero is never resolved on /transactions. */
const NO_ACCOUNT = -1n;
const SUCCESS_CODES = new Set([22, 104, 220]);
const TYPE_CODES = new Map([...TRANSACTION_TYPE_NAMES].map(([code, name]) => [name, code]));

export function buildTransactionsQuery(filters: readonly Filter[]): TransactionsQuery {
  const time = timestampBounds(filters.filter((f) => f.key === 'timestamp'));
  const accountTest = accountCondition(filters.filter((f) => f.key === 'account.id'));
  const directions = new Set(filters.filter((f) => f.key === 'type').map((f) => f.value.toLowerCase()));
  const result = lastOf(filters, 'result');
  const types = new Set(
    filters.filter((f) => f.key === 'transactiontype').map((f) => TYPE_CODES.get(f.value.toUpperCase())),
  );
  const sign = directions.size === 1 ? (directions.has('credit') ? 1n : -1n) : null;
  const matchesRow = (row: SimTransferRow) =>
    (sign === null || (sign > 0n ? row.amount > 0n : row.amount < 0n)) &&
    (accountTest.test === null || accountTest.test(row.account));

  const accept = (tx: SimTransaction): boolean => {
    if (result !== undefined && SUCCESS_CODES.has(tx.result) !== (result === 'success')) return false;
    if (types.size > 0 && !types.has(tx.type)) return false;
    if (time.ne.has(tx.consensusTimestamp)) return false;
    if (sign === null && accountTest.test === null) return true;
    if (sign === null && payerBranchEligible(tx) && accountTest.test?.(tx.payer)) return true;
    return tx.transfers.some(matchesRow) || tx.tokenTransfers.some(matchesRow);
  };
  return {
    lower: time.lower,
    upper: time.upper,
    eq: time.eq,
    emptyUpfront: time.empty || directions.size > 1,
    accounts: accountTest.eq,
    accept,
  };
}

interface TimeBounds {
  lower: bigint | null;
  upper: bigint | null;
  eq: bigint | null;
  ne: Set<bigint>;
  empty: boolean;
}

/** Lenient parsing (parseTimestampFilters, non-strict): largest lower and smallest upper bound win. */
function timestampBounds(filters: readonly Filter[]): TimeBounds {
  let lower: bigint | null = null;
  let upper: bigint | null = null;
  const eqs = new Set<bigint>();
  const ne = new Set<bigint>();
  for (const { op, value } of filters) {
    const ns = parseTimestamp(value);
    if (op === 'eq') eqs.add(ns);
    else if (op === 'ne') ne.add(ns);
    else if (op === 'gt' || op === 'gte') {
      const bound = op === 'gt' ? ns + 1n : ns;
      lower = lower === null || bound > lower ? bound : lower;
    } else {
      const bound = op === 'lt' ? ns - 1n : ns;
      upper = upper === null || bound < upper ? bound : upper;
    }
  }
  const empty = eqs.size > 1 || (lower !== null && upper !== null && lower > upper);
  const eq = eqs.size === 1 ? ([...eqs][0] as bigint) : null;
  return { lower, upper, eq, ne, empty };
}

interface AccountCondition {
  eq: bigint[] | undefined;
  test: ((account: bigint) => boolean) | null;
}

/** eq values OR-ed; ne and ranges AND-ed with them, all on the same row (docs/ledger-api.md §5.2). */
function accountCondition(filters: readonly Filter[]): AccountCondition {
  if (filters.length === 0) return { eq: undefined, test: null };
  const eq: bigint[] = [];
  const others: Array<(account: bigint) => boolean> = [];
  for (const { op, value } of filters) {
    const parsed = parseIdOrEvm(value);
    const id = parsed.ok && parsed.ref.kind === 'id' ? parsed.ref.id : NO_ACCOUNT;
    if (op === 'eq') eq.push(id);
    else others.push(comparison(op, id));
  }
  const eqSet = new Set(eq);
  return {
    eq: eq.length > 0 ? eq : undefined,
    test: (account) => (eqSet.size === 0 || eqSet.has(account)) && others.every((check) => check(account)),
  };
}

function comparison(op: string, id: bigint): (account: bigint) => boolean {
  if (id === NO_ACCOUNT) return () => false;
  switch (op) {
    case 'ne':
      return (a) => a !== id;
    case 'gt':
      return (a) => a > id;
    case 'gte':
      return (a) => a >= id;
    case 'lt':
      return (a) => a < id;
    default:
      return (a) => a <= id;
  }
}

function lastOf(filters: readonly Filter[], key: string): string | undefined {
  let value: string | undefined;
  for (const filter of filters) if (filter.key === key) value = filter.value;
  return value;
}
