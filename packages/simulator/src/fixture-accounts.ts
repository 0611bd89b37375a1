// The account members of `GET /api/v1/accounts/{id}` that a spec setup's `accounts`, `contracts` and `entities`
// rows carry (memo, key, expiry, staking, nonce…), with the service's row defaults: what the living ledger
// leaves to the route's own defaults, a spec setup states.
import { bytesInput, entityInput, intInput, nullableInt } from './fixture-values.js';
import type { WireJson } from './json.js';
import { toHex } from './bytes.js';
import { byteaHex } from './fixture-tokens.js';
import { encodeKey, entityText } from './token-json.js';

type Row = Record<string, unknown>;

const NS_PER_SECOND = 1_000_000_000n;
const NS_PER_DAY = 86_400n * NS_PER_SECOND;

/** Row defaults per setup kind (accounts and contracts differ from bare entities). */
export const ACCOUNT_ROW_DEFAULTS: Row = { max_automatic_token_associations: 0 };
export const CONTRACT_ROW_DEFAULTS: Row = {
  max_automatic_token_associations: 0,
  memo: 'contract memo',
  receiver_sig_required: null,
};

/** The account body members of one entity row. */
export function accountDetails(input: Row, defaults: Row): WireJson {
  const item = { ...defaults, ...input };
  const created = nullableInt(item.created_timestamp);
  const autoRenew = nullableInt(item.auto_renew_period);
  const expiration = nullableInt(item.expiration_timestamp);
  const expiry =
    expiration ?? (created !== null && autoRenew !== null ? created + autoRenew * NS_PER_SECOND : null);
  const stakedNode = nullableInt(item.staked_node_id === undefined ? -1 : item.staked_node_id);
  const toNode = stakedNode !== null && stakedNode !== -1n;
  const periodStart = intInput(item.stake_period_start, -1n);
  const delegation = toHex(bytesInput(item.delegation_address));
  const stakedAccount = entityInput(item.staked_account_id);
  return {
    auto_renew_period: autoRenew,
    created_timestamp: created === null ? null : secondsText(created),
    decline_reward: item.decline_reward === undefined ? false : item.decline_reward,
    delegation_address: delegation === null || /^0*$/.test(delegation) ? '0x' : `0x${delegation}`,
    ethereum_nonce: nullableInt(item.ethereum_nonce),
    expiry_timestamp: expiry === null ? null : secondsText(expiry),
    key: encodeKey(byteaHex(item.key)),
    max_automatic_token_associations: nullableInt(item.max_automatic_token_associations),
    memo: typeof item.memo === 'string' ? item.memo : 'entity memo',
    pending_reward: 0,
    receiver_sig_required: item.receiver_sig_required === undefined ? false : item.receiver_sig_required,
    staked_account_id: stakedAccount === null || stakedAccount === 0n ? null : entityText(stakedAccount),
    staked_node_id: toNode ? stakedNode : null,
    stake_period_start: toNode && periodStart !== -1n ? secondsText(periodStart * NS_PER_DAY) : null,
  };
}

/** seconds.nanoseconds as the service prints a stored bigint column, negative values included (digit split). */
function secondsText(ns: bigint): string {
  const text = `${ns}`;
  return `${text.slice(0, Math.max(0, text.length - 9)).padStart(1, '0')}.${text.slice(-9).padStart(9, '0')}`;
}
