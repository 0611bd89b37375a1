// GET /api/v1/accounts/{idOrAliasOrEvmAddress}/rewards (docs/ledger-api.md §3.2): path, existence, then the query.
import { formatTimestamp, parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { parseAccountPath } from '../account-ref.js';
import { buildNextLink } from '../links.js';
import {
  effectiveLimit,
  effectiveOrder,
  isValidTimestamp,
  type Filter,
  PAGING_VALIDATORS,
} from '../params.js';
import { errorResponse, pageResponse, type RouteResponse } from '../response.js';
import type { Route, RouteRequest } from '../route.js';
import { firstPass } from './first-pass.js';
import { serializeJson } from '../json.js';
import type { SimReward } from '../store.js';

const VALIDATORS: ReadonlyMap<string, (filter: Filter) => boolean> = new Map([
  ...PAGING_VALIDATORS,
  ['timestamp', isValidTimestamp],
]);

export const rewardsRoute: Route = {
  method: 'GET',
  pattern: '/api/v1/accounts/:id/rewards',
  cacheControl: 'public, max-age=60',
  handle: listRewards,
};

function listRewards(request: RouteRequest): RouteResponse {
  const { config, store } = request;
  const resolved = resolveAccount(request);
  if (typeof resolved !== 'bigint') return resolved;
  const pass = firstPass(request, VALIDATORS);
  if ('status' in pass) return pass;
  const { params } = pass;
  const timestamps = pass.filters.filter((f) => f.key === 'timestamp');
  if (timestamps.some((f) => f.op === 'ne')) {
    return errorResponse(400, ['Not equals (ne) operator is not supported for timestamp']);
  }
  const order = effectiveOrder(pass.filters, 'desc');
  const limit = effectiveLimit(pass.filters, config.defaultLimit, config.maxLimit);
  const matches = matcher(timestamps);
  const all = store.rewardsOf(resolved, request.nowNs).filter((r) => matches(r.timestamp));
  if (order === 'desc') all.reverse();
  const page = all.slice(0, limit);
  const last = page[page.length - 1];
  const next =
    page.length >= limit && last
      ? buildNextLink({
          path: request.path,
          params,
          field: 'timestamp',
          order,
          cursor: formatTimestamp(last.timestamp),
        })
      : null;
  return pageResponse('rewards', page.map(rewardText), next);
}

/** The account id, or the 400/404 response that the path or the existence check produces. */
export function resolveAccount(request: RouteRequest): bigint | RouteResponse {
  const { store } = request;
  const ref = parseAccountPath(request.params.id ?? '');
  if (ref === null) return errorResponse(400, ['Invalid parameter: idOrAliasOrEvmAddress']);
  let id: bigint;
  if (ref.kind === 'id') id = ref.id;
  else if (ref.kind === 'evm') {
    const entity = store.findByEvmAddress(ref.hex, ref.shard, ref.realm);
    if (!entity) return errorResponse(404, ['Not found']);
    id = entity.id;
  } else {
    const entity = store.findByAlias(ref.hex, ref.shard, ref.realm);
    if (!entity) return errorResponse(404, ['No account with a matching alias found']);
    // The service's alias lookup expects one row and fails on more.
    if (store.countAlias(ref.hex, ref.shard, ref.realm) > 1) return errorResponse(500, ['Internal error']);
    id = entity.id;
  }
  return store.getEntity(id) ? id : errorResponse(404, ['Not found']);
}

/** eq values form an IN list; every other operator is its own AND-ed condition. */
function matcher(filters: readonly Filter[]): (ts: bigint) => boolean {
  const eqs = new Set<bigint>();
  const checks: Array<(ts: bigint) => boolean> = [];
  for (const { op, value } of filters) {
    const ns = parseTimestamp(value);
    if (op === 'eq') eqs.add(ns);
    else if (op === 'gt') checks.push((ts) => ts > ns);
    else if (op === 'gte') checks.push((ts) => ts >= ns);
    else if (op === 'lt') checks.push((ts) => ts < ns);
    else checks.push((ts) => ts <= ns);
  }
  return (ts) => (eqs.size === 0 || eqs.has(ts)) && checks.every((check) => check(ts));
}

function rewardText(reward: SimReward): string {
  return serializeJson({
    account_id: formatId(reward.accountId),
    amount: reward.amount,
    timestamp: formatTimestamp(reward.timestamp),
  });
}

function formatId(encoded: bigint): string {
  return `${(encoded >> 54n) & 0x3ffn}.${(encoded >> 38n) & 0xffffn}.${encoded & ((1n << 38n) - 1n)}`;
}
