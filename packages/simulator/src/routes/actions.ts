// GET /api/v1/contracts/results/{transactionIdOrHash}/actions (docs/ledger-api.md §3.3, 10): query, path, lookup.
import { buildNextLink } from '../links.js';
import { effectiveLimit, effectiveOrder, type Filter, PAGING_VALIDATORS } from '../params.js';
import { errorResponse, pageResponse, type RouteResponse } from '../response.js';
import type { Route, RouteRequest } from '../route.js';
import { firstPass } from './first-pass.js';
import { serializeJson } from '../json.js';

const VALIDATORS: ReadonlyMap<string, (filter: Filter) => boolean> = new Map([
  ['index', isValidIndex],
  ...PAGING_VALIDATORS,
]);

/** Upstream isNumeric (parseFloat and isFinite) and >= 0: decimals and exponents pass (docs/ledger-api.md §3.3). */
function isValidIndex(filter: Filter): boolean {
  const value = Number(filter.value);
  return !Number.isNaN(Number.parseFloat(filter.value)) && Number.isFinite(value) && value >= 0;
}

const HASH = /^(0x)?([0-9A-Fa-f]{64})$/;
const TRANSACTION_ID = /^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$/;
const BAD_ID =
  'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds';

export const actionsRoute: Route = {
  method: 'GET',
  pattern: '/api/v1/contracts/results/:id/actions',
  cacheControl: 'public, max-age=600',
  handle: listActions,
};

function listActions(request: RouteRequest): RouteResponse {
  const { config, store } = request;
  const pass = firstPass(request, VALIDATORS);
  if ('status' in pass) return pass;
  const { params } = pass;
  const indexFilters = pass.filters.filter((f) => f.key === 'index');
  if (indexFilters.some((f) => f.op === 'ne')) return errorResponse(400, ['Invalid parameter: index']);

  const resolved = resolveTransaction(request);
  if ('status' in resolved) return resolved;
  const order = effectiveOrder(pass.filters, 'asc');
  const limit = effectiveLimit(pass.filters, config.defaultLimit, config.maxLimit);
  const matches = indexMatcher(indexFilters);
  const all = store
    .actionsOf(resolved.timestamp, resolved.payer, request.nowNs)
    .filter((a) => matches(a.index));
  if (order === 'desc') all.reverse();
  const page = all.slice(0, limit);
  const last = page[page.length - 1];
  const next =
    page.length >= limit && last
      ? buildNextLink({ path: request.path, params, field: 'index', order, cursor: String(last.index) })
      : null;
  return pageResponse(
    'actions',
    page.map((action) => serializeJson(action.json)),
    next,
  );
}

function resolveTransaction(request: RouteRequest): { timestamp: bigint; payer: bigint } | RouteResponse {
  const { store, nowNs } = request;
  const id = request.params.id ?? '';
  const hash = HASH.exec(id);
  if (hash) {
    const link = store.resolveHash((hash[2] as string).toLowerCase(), nowNs);
    return link
      ? { timestamp: link.consensusTimestamp, payer: link.payer }
      : errorResponse(404, ['Not found']);
  }
  const txId = TRANSACTION_ID.exec(id);
  if (!txId) return errorResponse(400, [BAD_ID]);
  const [shard, realm, num, seconds, nanos] = txId.slice(1).map((part) => BigInt(part)) as bigint[];
  const payer = ((shard as bigint) << 54n) | ((realm as bigint) << 38n) | (num as bigint);
  const validStart = (seconds as bigint) * 1_000_000_000n + (nanos as bigint);
  const tx = store.resolveTransactionId(payer, validStart, nowNs);
  return tx ? { timestamp: tx.consensusTimestamp, payer } : errorResponse(404, ['Not found']);
}

function indexMatcher(filters: readonly Filter[]): (index: number) => boolean {
  const checks = filters.map(({ op, value }) => {
    const n = Number(value);
    if (op === 'gt') return (i: number) => i > n;
    if (op === 'gte') return (i: number) => i >= n;
    if (op === 'lt') return (i: number) => i < n;
    if (op === 'lte') return (i: number) => i <= n;
    return (i: number) => i === n;
  });
  return (index) => checks.every((check) => check(index));
}
