// GET /api/v1/transactions (docs/ledger-api.md §3.1, 5-8, 11.5).
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { QUERYABLE_TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';
import { parseIdOrEvm } from '../account-ref.js';
import { buildNextLink } from '../links.js';
import {
  effectiveLimit,
  effectiveOrder,
  isValidTimestamp,
  type Filter,
  PAGING_VALIDATORS,
} from '../params.js';
import { bufferPageResponse, errorResponse, type RouteResponse } from '../response.js';
import type { Route, RouteRequest } from '../route.js';
import { firstPass } from './first-pass.js';
import { buildTransactionsQuery } from './transactions-query.js';

const VALIDATORS: ReadonlyMap<string, (filter: Filter) => boolean> = new Map([
  ['account.id', (f: Filter) => parseIdOrEvm(f.value).ok || rangeError(f)],
  ...PAGING_VALIDATORS,
  ['result', (f: Filter) => f.value === 'success' || f.value === 'fail'],
  ['timestamp', isValidTimestamp],
  ['transactiontype', (f: Filter) => QUERYABLE_TRANSACTION_TYPES.has(f.value.toUpperCase())],
  ['type', (f: Filter) => /^(credit|debit)$/i.test(f.value)],
]);

/** Out-of-range ids pass the first pass and fail alone afterwards (docs/ledger-api.md §2.3). */
function rangeError(filter: Filter): boolean {
  const parsed = parseIdOrEvm(filter.value);
  return !parsed.ok && parsed.reason === 'range';
}

export const transactionsRoute: Route = {
  method: 'GET',
  pattern: '/api/v1/transactions',
  cacheControl: 'public, max-age=2',
  handle: listTransactions,
};

function listTransactions(request: RouteRequest): RouteResponse {
  const { config, store } = request;
  const pass = firstPass(request, VALIDATORS);
  if ('status' in pass) return pass;
  const { params } = pass;
  const outOfRange = pass.filters.find((f) => f.key === 'account.id' && !parseIdOrEvm(f.value).ok);
  if (outOfRange) return errorResponse(400, [`Invalid entity ID "${outOfRange.value}"`]);

  const query = buildTransactionsQuery(pass.filters);
  if (query.emptyUpfront) return bufferPageResponse('transactions', [], null);
  const order = effectiveOrder(pass.filters, 'desc');
  const limit = effectiveLimit(pass.filters, config.defaultLimit, config.maxLimit);
  let lower = query.eq !== null && (query.lower === null || query.eq > query.lower) ? query.eq : query.lower;
  let upper = query.eq !== null && (query.upper === null || query.eq < query.upper) ? query.eq : query.upper;
  let boundCursor: bigint | null = null;
  if (config.bindTimestampRange && query.eq === null) {
    lower ??= store.firstTransactionTimestamp(request.nowNs) ?? 0n;
    upper ??= request.nowNs;
    if (upper - lower + 1n > config.maxTimestampRangeNs) {
      if (order === 'desc') boundCursor = lower = upper - config.maxTimestampRangeNs + 1n;
      else boundCursor = upper = lower + config.maxTimestampRangeNs - 1n;
    }
  }
  const page = store.scanTransactions(
    {
      lower,
      upper,
      order,
      limit,
      nowNs: request.nowNs,
      ...(query.accounts ? { accounts: query.accounts } : {}),
    },
    query.accept,
  );
  const last = page[page.length - 1];
  const cursor = page.length >= limit && last ? last.tx.consensusTimestamp : boundCursor;
  const next =
    cursor === null
      ? null
      : buildNextLink({
          path: request.path,
          params,
          field: 'timestamp',
          order,
          cursor: formatTimestamp(cursor),
        });
  return bufferPageResponse(
    'transactions',
    page.map((stored) => store.transactionBytes(stored, config.serviceVersion)),
    next,
  );
}
