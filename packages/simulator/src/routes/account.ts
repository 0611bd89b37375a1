// GET /api/v1/accounts/{idOrAliasOrEvmAddress} (docs/simulator.md, "Accounts"): the account the path names, by
// id, alias or EVM address, with the service's 400 (bad path or query) and 404 (unknown). The body has every
// member the service's AccountBalanceTransactions requires; the balance is the account's current HBAR balance with
// its associated token balances, or with a timestamp filter the newest balance snapshot in range. The embedded
// transaction list is always empty.
import { formatEntityId, decodeEntityId, longZeroAddress } from '@ledger-sentinel/ledger-model/entity-id';
import { QUERYABLE_TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';
import { encodeBase32 } from '../bytes.js';
import { serializeJson } from '../json.js';
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
  ['transactions', (f: Filter) => f.op === 'eq' && (f.value === 'true' || f.value === 'false')],
]);

/** The service's default auto-renew period (90 days), in seconds. */
const AUTO_RENEW_SECONDS = 7_776_000;

export const accountRoute: Route = {
  method: 'GET',
  pattern: '/api/v1/accounts/:id',
  cacheControl: 'public, max-age=2',
  handle: getAccount,
};

function getAccount(request: RouteRequest): RouteResponse {
  const id = resolveAccount(request);
  if (typeof id !== 'bigint') return id;
  const pass = firstPass(request, VALIDATORS);
  if ('status' in pass) return pass;
  const entity = request.store.getEntity(id) as SimEntity;
  const balance = accountBalance(request, id, pass.filters);
  return { status: 200, body: serializeJson(accountBody(entity, balance)) };
}

function accountBody(entity: SimEntity, balance: Record<string, unknown>): Record<string, unknown> {
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
    evm_address: entity.evmHex === null ? longZeroAddress(entityId) : `0x${entity.evmHex}`,
    expiry_timestamp: null,
    key: null,
    max_automatic_token_associations: 0,
    memo: '',
    pending_reward: 0,
    receiver_sig_required: false,
    staked_account_id: null,
    staked_node_id: null,
    stake_period_start: null,
    transactions: [],
    links: { next: null },
  };
}
