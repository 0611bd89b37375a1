// GET /api/v1/accounts/{idOrAliasOrEvmAddress} (docs/simulator.md, "Accounts"): the account the path names, by
// id, alias or EVM address, with the service's 400 (bad path or query) and 404 (unknown). The body has every
// member the service's AccountBalanceTransactions requires; the balance is the account's current HBAR balance with
// its associated token balances, or with a timestamp filter the newest balance snapshot in range; the embedded
// transactions are the account's page of /transactions (timestamp, limit, order, transactiontype apply), unless
// transactions=false.
import { formatEntityId, decodeEntityId, longZeroAddress } from '@ledger-sentinel/ledger-model/entity-id';
import { QUERYABLE_TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';
import { encodeBase32 } from '../bytes.js';
import { serializeJson, type WireJson } from '../json.js';
import { errorResponse } from '../response.js';
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { transactionsRoute } from './transactions.js';
import { isValidTimestamp, type Filter, PAGING_VALIDATORS } from '../params.js';
import type { RouteResponse } from '../response.js';
import type { Route, RouteRequest } from '../route.js';
import type { SimEntity } from '../store.js';
import { firstPass } from './first-pass.js';
import { accountBalance } from './account-balance.js';
import { resolveAccount } from './rewards.js';

const VALIDATORS: ReadonlyMap<string, (filter: Filter) => boolean> = new Map([
  ...PAGING_VALIDATORS,
  ['timestamp', isValidTimestamp],
  ['transactiontype', (f: Filter) => QUERYABLE_TRANSACTION_TYPES.has(f.value.toUpperCase())],
  ['transactions', (f: Filter) => f.op === 'eq' && /^(true|false)$/i.test(f.value)],
]);

/** The service's default auto-renew period (90 days), in seconds, for accounts the ledger states nothing about. */
const AUTO_RENEW_SECONDS = 7_776_000;

const SYNTHETIC_TREASURY_MEMO = 'Mirror node created synthetic treasury account';

export const accountRoute: Route = {
  method: 'GET',
  pattern: '/api/v1/accounts/:id',
  cacheControl: 'public, max-age=2',
  handle: getAccount,
};

async function getAccount(request: RouteRequest): Promise<RouteResponse> {
  const id = resolveAccount(request);
  if (typeof id !== 'bigint') return emptyRangeFirst(request, id);
  const pass = firstPass(request, VALIDATORS);
  if ('status' in pass) return pass;
  const range = timestampRange(pass.filters);
  if (range.lower > range.upper) return errorResponse(404, ['Timestamp range is empty']);
  const entity = request.store.getEntity(id) as SimEntity;
  if (entity.since !== undefined && entity.since > range.upper) return errorResponse(404, ['Not found']);
  // The importer's stand-in for a treasury it has not seen yet is not an account.
  if (id === 2n && entity.details?.memo === SYNTHETIC_TREASURY_MEMO) return errorResponse(404, ['Not found']);
  // With a timestamp filter, the row version in force at its upper bound (history rows included).
  const hasTs = pass.filters.some((f) => f.key === 'timestamp');
  const version = hasTs ? entity.versions?.filter((v) => v.since <= range.upper).pop() : undefined;
  const balance = accountBalance(request, id, pass.filters, version);
  const head = serializeJson(accountBody(entity, balance, version?.details));
  const include =
    pass.filters
      .filter((f) => f.key === 'transactions')
      .pop()
      ?.value.toLowerCase() !== 'false';
  const list = include ? await embeddedTransactions(request, id) : null;
  if (list === null || list.status !== 200) {
    return { status: 200, body: `${head.slice(0, -1)},"transactions":[],"links":{"next":null}}` };
  }
  return { ...list, body: `${head.slice(0, -1)},${String(list.body).slice(1)}` };
}

/** The account's transactions as /transactions?account.id=<id> lists them, the link on the account's path. */
async function embeddedTransactions(request: RouteRequest, id: bigint): Promise<RouteResponse> {
  const own = `account.id=${formatEntityId(decodeEntityId(id))}`;
  const kept = request.rawQuery
    .split('&')
    .filter((part) => /^(timestamp|limit|order|transactiontype)=/i.test(part));
  const response = await transactionsRoute.handle({ ...request, rawQuery: [...kept, own].join('&') });
  const strip = (text: string) => text.replace(`&${own}`, '').replace(`${own}&`, '');
  const headers = response.headers?.link ? { link: strip(response.headers.link) } : undefined;
  return { status: response.status, body: strip(String(response.body)), ...(headers ? { headers } : {}) };
}

/** The timestamp filters as an inclusive range (eq as a point), for the empty-range and existence checks. */
function timestampRange(filters: readonly Filter[]): { lower: bigint; upper: bigint } {
  let lower = 0n;
  let upper = (1n << 63n) - 1n;
  for (const f of filters) {
    if (f.key !== 'timestamp') continue;
    const ns = parseTimestamp(f.value);
    if (f.op === 'eq' || f.op === 'lte') upper = ns < upper ? ns : upper;
    if (f.op === 'eq' || f.op === 'gte') lower = ns > lower ? ns : lower;
    if (f.op === 'lt') upper = ns - 1n < upper ? ns - 1n : upper;
    if (f.op === 'gt') lower = ns + 1n > lower ? ns + 1n : lower;
  }
  return { lower, upper };
}

function accountBody(
  entity: SimEntity,
  balance: Record<string, unknown>,
  details: WireJson | undefined,
): Record<string, unknown> {
  const entityId = decodeEntityId(entity.id);
  return {
    account: formatEntityId(entityId),
    alias: entity.aliasHex === null ? null : encodeBase32(entity.aliasHex),
    auto_renew_period: AUTO_RENEW_SECONDS,
    balance,
    created_timestamp: null,
    decline_reward: false,
    deleted: entity.deleted,
    ethereum_nonce: 0,
    evm_address: evmAddress(entity, entityId),
    expiry_timestamp: null,
    key: null,
    max_automatic_token_associations: 0,
    memo: '',
    pending_reward: 0,
    receiver_sig_required: false,
    staked_account_id: null,
    staked_node_id: null,
    stake_period_start: null,
    ...(details ?? entity.details),
  };
}

/** The known EVM address, else a 20-byte alias (an EVM-address alias), else the long-zero form. */
function evmAddress(entity: SimEntity, entityId: ReturnType<typeof decodeEntityId>): string {
  if (entity.evmHex !== null) return `0x${entity.evmHex}`;
  if (entity.aliasHex !== null && entity.aliasHex.length === 40) return `0x${entity.aliasHex}`;
  return longZeroAddress(entityId);
}

/** An account id is not looked up before the timestamp range is checked: an empty range answers that first. */
function emptyRangeFirst(request: RouteRequest, notFound: RouteResponse): RouteResponse {
  if (notFound.status !== 404) return notFound;
  const pass = firstPass(request, VALIDATORS);
  if ('status' in pass) return notFound;
  const range = timestampRange(pass.filters);
  return range.lower > range.upper ? errorResponse(404, ['Timestamp range is empty']) : notFound;
}
