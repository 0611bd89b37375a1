// Query objects of the three list endpoints and their validation into a request path. Nothing is sent
// unless every value passes; the error names the parameter (InvalidParameterError).
import { InvalidParameterError } from './errors.js';
import {
  MAX_REPEATED,
  OPERATORS,
  checkAccountId,
  checkAccountPath,
  checkEnum,
  checkIndex,
  checkLimit,
  checkOperator,
  checkTimestamp,
  checkTransactionIdOrHash,
  checkTransactionType,
  type Filter,
  type Operator,
} from './query-values.js';
import type { Timestamp } from '@ledger-sentinel/ledger-model/timestamp';

export type { Filter, Operator };
export type Order = 'asc' | 'desc';
/** A timestamp value: wire text like "1565779444.711927005" or nanoseconds (timestamp.ts). */
export type TimestampFilter = Filter<string | Timestamp>;
export type AccountIdFilter = Filter<string>;
export type IndexFilter = Filter<number>;

export interface TransactionsQuery {
  /** Bare strings mean eq; eq values are OR-ed, range and ne values AND-ed (docs/ledger-api.md §5.2). */
  readonly accountId?: string | AccountIdFilter | readonly (string | AccountIdFilter)[];
  readonly timestamp?: TimestampFilter | readonly TimestampFilter[];
  readonly limit?: number;
  readonly order?: Order;
  readonly transactionType?: string | readonly string[];
  readonly result?: 'success' | 'fail';
  readonly type?: 'credit' | 'debit';
}

export interface RewardsQuery {
  /** eq, gt, gte, lt, lte; ne is rejected by the service. */
  readonly timestamp?: TimestampFilter | readonly TimestampFilter[];
  readonly limit?: number;
  readonly order?: Order;
}

export interface ActionsQuery {
  /** eq, gt, gte, lt, lte; ne is rejected by the service. */
  readonly index?: number | IndexFilter | readonly (number | IndexFilter)[];
  readonly limit?: number;
  readonly order?: Order;
}

type Pair = readonly [key: string, value: string];
const NO_NE: readonly Operator[] = OPERATORS.filter((op) => op !== 'ne');

function many<T>(parameter: string, value: T | readonly T[] | undefined): readonly T[] {
  const values = value === undefined ? [] : Array.isArray(value) ? (value as readonly T[]) : [value as T];
  if (values.length > MAX_REPEATED) {
    throw new InvalidParameterError(
      parameter,
      `${values.length} values; the service accepts at most ${MAX_REPEATED}`,
    );
  }
  return values;
}

function filters<V>(
  parameter: string,
  input: V | Filter<V> | readonly (V | Filter<V>)[] | undefined,
  allowed: readonly Operator[],
  check: (value: unknown) => string,
): Pair[] {
  return many(parameter, input).map((item) => {
    const filter = isFilter(item) ? item : { op: 'eq' as const, value: item };
    const op = checkOperator(parameter, filter.op, allowed);
    const text = check(filter.value);
    return [parameter, op === 'eq' ? text : `${op}:${text}`] as const;
  });
}

function isFilter<V>(item: V | Filter<V>): item is Filter<V> {
  return typeof item === 'object' && item !== null && 'op' in item;
}

function common(query: { limit?: number; order?: Order }): Pair[] {
  const pairs: Pair[] = [];
  if (query.limit !== undefined) pairs.push(['limit', checkLimit(query.limit)]);
  if (query.order !== undefined) pairs.push(['order', checkEnum('order', query.order, ['asc', 'desc'])]);
  return pairs;
}

/** Serialises like the service's own links: no percent-encoding; every value here is from a safe charset. */
function toUrl(path: string, pairs: readonly Pair[]): string {
  return pairs.length === 0 ? path : `${path}?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

export function transactionsUrl(query: TransactionsQuery): string {
  const pairs: Pair[] = [
    ...filters('account.id', query.accountId, OPERATORS, checkAccountId),
    ...filters('timestamp', query.timestamp, OPERATORS, (v) => checkTimestamp('timestamp', v)),
    ...many('transactiontype', query.transactionType).map(
      (t) => ['transactiontype', checkTransactionType(t)] as const,
    ),
    ...common(query),
  ];
  if (query.result !== undefined)
    pairs.push(['result', checkEnum('result', query.result, ['success', 'fail'])]);
  if (query.type !== undefined) pairs.push(['type', checkEnum('type', query.type, ['credit', 'debit'])]);
  return toUrl('/api/v1/transactions', pairs);
}

export function rewardsUrl(account: string, query: RewardsQuery): string {
  const path = `/api/v1/accounts/${checkAccountPath(account)}/rewards`;
  const timestamps = many('timestamp', query.timestamp);
  if (timestamps.some((f) => isFilter(f) && f.op === 'ne')) {
    throw new InvalidParameterError('timestamp', 'Not equals (ne) operator is not supported for timestamp');
  }
  const pairs = [
    ...filters('timestamp', timestamps, NO_NE, (v) => checkTimestamp('timestamp', v)),
    ...common(query),
  ];
  return toUrl(path, pairs);
}

export function actionsUrl(transactionIdOrHash: string, query: ActionsQuery): string {
  const path = `/api/v1/contracts/results/${checkTransactionIdOrHash(transactionIdOrHash)}/actions`;
  const pairs = [...filters('index', query.index, NO_NE, checkIndex), ...common(query)];
  return toUrl(path, pairs);
}
