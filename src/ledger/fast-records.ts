// Precompiled fast path for the three record schemas. zod 4 builds the detailed error paths we report, but it
// costs several times JSON.parse per page; this checks and converts a record in one pass and gives up on
// anything unexpected, after which the caller runs the zod schema for the error path (and for the lenient
// fields, which zod reads as unknown when malformed). The two must agree on every record the fast path
// accepts: fast-records.test.ts compares them over the spec fixtures and a table of mutations.
// Output objects are built as one literal each (one hidden class); absent optional fields are undefined.
import { int64FromText, isEntityIdText, isRecordTimestampText } from './scan.js';
import {
  EVM_ADDRESS_PATTERN,
  HEX_PATTERN,
  TRANSACTION_ID_PATTERN,
} from '@ledger-sentinel/ledger-model/schema';
import type {
  BatchKeyObject,
  ContractAction,
  StakingReward,
  Transaction,
} from '@ledger-sentinel/ledger-model/schema';

type Raw = Record<string, unknown>;

/** Leave the fast path: the record needs zod. Never escapes this module. */
const FAIL = Symbol('fail');
/** Returned when a JSON number is an integer beyond 2^53: the page must be re-parsed losslessly. */
export const UNSAFE_INTEGER = Symbol('unsafe-integer');

function fail(): never {
  throw FAIL;
}

function obj(v: unknown): Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Raw) : fail();
}

function int64(v: unknown): bigint {
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return BigInt(v);
    throw Number.isInteger(v) ? UNSAFE_INTEGER : FAIL;
  }
  if (typeof v === 'bigint') return v;
  return typeof v === 'string' ? int64Text(v) : fail();
}

// max_fee and valid_duration_seconds arrive as digit strings that repeat from record to record ("100000000",
// "120"), and converting text is the slow way to a bigint: the last few conversions are remembered. A bigint is an
// immutable value, so records sharing one cannot tell.
const MEMO_SLOTS = 4;
const memoText: (string | undefined)[] = new Array<string | undefined>(MEMO_SLOTS).fill(undefined);
const memoValue: bigint[] = new Array<bigint>(MEMO_SLOTS).fill(0n);
let memoNext = 0;

function int64Text(s: string): bigint {
  for (let i = 0; i < MEMO_SLOTS; i++) if (memoText[i] === s) return memoValue[i] as bigint;
  const value = int64FromText(s) ?? fail();
  memoText[memoNext] = s;
  memoValue[memoNext] = value;
  memoNext = (memoNext + 1) % MEMO_SLOTS;
  return value;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : fail();
}

function entity(v: unknown): string {
  return typeof v === 'string' && isEntityIdText(v) ? v : fail();
}

function entityOrNull(v: unknown): string | null {
  return v === null ? null : entity(v);
}

function timestamp(v: unknown): string {
  return typeof v === 'string' && isRecordTimestampText(v) ? v : fail();
}

function match(v: unknown, pattern: RegExp): string {
  return typeof v === 'string' && pattern.test(v) ? v : fail();
}

function bool(v: unknown): boolean {
  if (v === undefined) return false;
  return typeof v === 'boolean' ? v : fail();
}

/**
 * The list of a record that has none (most have no token, NFT or reward transfers and no custom fees): one shared
 * frozen array instead of four new ones per record. Frozen, so code that would change a record's list throws.
 */
const NO_ITEMS: never[] = Object.freeze([]) as unknown as never[];

function list<T>(v: unknown, item: (x: unknown) => T): T[] {
  if (v === undefined) return NO_ITEMS;
  if (!Array.isArray(v)) fail();
  if (v.length === 0) return NO_ITEMS;
  // Exact size: push would reserve 17 slots for the usual 2-5 transfers.
  const out = new Array<T>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = item(v[i]);
  return out;
}

/** zod's `.nullable().optional()`: undefined stays undefined, null stays null. */
function opt<T>(v: unknown, check: (x: unknown) => T): T | null | undefined {
  return v === undefined || v === null ? (v as null | undefined) : check(v);
}

type Tx = Transaction;

function transfer(v: unknown): Tx['transfers'][number] {
  const r = obj(v);
  return { account: entity(r.account), amount: int64(r.amount), is_approval: bool(r.is_approval) };
}

function tokenTransfer(v: unknown): Tx['token_transfers'][number] {
  const r = obj(v);
  return {
    token_id: entity(r.token_id),
    account: entity(r.account),
    amount: int64(r.amount),
    is_approval: bool(r.is_approval),
  };
}

function nftTransfer(v: unknown): Tx['nft_transfers'][number] {
  const r = obj(v);
  return {
    is_approval: bool(r.is_approval),
    receiver_account_id: entityOrNull(r.receiver_account_id),
    sender_account_id: entityOrNull(r.sender_account_id),
    serial_number: int64(r.serial_number),
    token_id: entity(r.token_id),
  };
}

function stakingRewardTransfer(v: unknown): Tx['staking_reward_transfers'][number] {
  const r = obj(v);
  const account =
    typeof r.account === 'number' && Number.isSafeInteger(r.account) ? r.account : entity(r.account);
  return { account, amount: int64(r.amount) };
}

function maxCustomFee(v: unknown): NonNullable<Tx['max_custom_fees']>[number] {
  const r = obj(v);
  return {
    account_id: entity(r.account_id),
    amount: int64(r.amount),
    denominating_token_id: entityOrNull(r.denominating_token_id),
  };
}

function nonce(v: unknown): number {
  if (v === undefined) return 0;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : fail();
}

const hex = (x: unknown) => match(x, HEX_PATTERN);
const evm = (x: unknown) => match(x, EVM_ADDRESS_PATTERN);

/** Both forms the service has sent: `0x`-hex, or a key object (its other members ignored, as zod strips them). */
function batchKey(v: unknown): string | BatchKeyObject {
  if (typeof v === 'string') return hex(v);
  const r = obj(v);
  return { _type: str(r._type), key: str(r.key) };
}

function buildTransaction(r: Raw): Transaction {
  return {
    batch_key: opt(r.batch_key, batchKey),
    bytes: opt(r.bytes, str),
    charged_tx_fee: int64(r.charged_tx_fee),
    consensus_timestamp: timestamp(r.consensus_timestamp),
    entity_id: opt(r.entity_id, entity),
    max_custom_fees: list(r.max_custom_fees, maxCustomFee),
    max_fee: opt(r.max_fee, int64),
    memo_base64: opt(r.memo_base64, str),
    name: str(r.name),
    nft_transfers: list(r.nft_transfers, nftTransfer),
    node: opt(r.node, entity),
    nonce: nonce(r.nonce),
    parent_consensus_timestamp: opt(r.parent_consensus_timestamp, timestamp),
    result: str(r.result),
    scheduled: bool(r.scheduled),
    staking_reward_transfers: list(r.staking_reward_transfers, stakingRewardTransfer),
    transaction_hash: r.transaction_hash === undefined ? undefined : str(r.transaction_hash),
    transaction_id: match(r.transaction_id, TRANSACTION_ID_PATTERN),
    token_transfers: list(r.token_transfers, tokenTransfer),
    transfers: list(r.transfers, transfer),
    valid_duration_seconds: opt(r.valid_duration_seconds, int64),
    valid_start_timestamp:
      r.valid_start_timestamp === undefined ? undefined : timestamp(r.valid_start_timestamp),
  };
}

function buildStakingReward(r: Raw): StakingReward {
  return { account_id: entity(r.account_id), amount: int64(r.amount), timestamp: timestamp(r.timestamp) };
}

function int(v: unknown): number {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : fail();
}

function strOrNull(v: unknown): string | null {
  return v === null ? null : str(v);
}

function buildContractAction(r: Raw): ContractAction {
  return {
    call_depth: int(r.call_depth),
    call_operation_type: str(r.call_operation_type),
    call_type: str(r.call_type),
    caller: entityOrNull(r.caller),
    caller_type: strOrNull(r.caller_type),
    from: r.from === null ? null : evm(r.from),
    gas: int64(r.gas),
    gas_used: int64(r.gas_used),
    index: int(r.index),
    input: r.input === null ? null : hex(r.input),
    recipient: entityOrNull(r.recipient),
    recipient_type: strOrNull(r.recipient_type),
    result_data: r.result_data === null ? null : hex(r.result_data),
    result_data_type: str(r.result_data_type),
    timestamp: timestamp(r.timestamp),
    to: r.to === null ? null : evm(r.to),
    value: int64(r.value),
  };
}

/** The record, undefined when it needs zod, or UNSAFE_INTEGER when the page needs the lossless parser. */
export type FastResult<T> = T | undefined | typeof UNSAFE_INTEGER;

function checker<T>(build: (r: Raw) => T): (raw: unknown) => FastResult<T> {
  return (raw) => {
    try {
      return build(obj(raw));
    } catch (err) {
      if (err === FAIL) return undefined;
      if (err === UNSAFE_INTEGER) return UNSAFE_INTEGER;
      throw err;
    }
  };
}

function orUndefined<T>(check: (raw: unknown) => FastResult<T>): (raw: unknown) => T | undefined {
  return (raw) => {
    const result = check(raw);
    return result === UNSAFE_INTEGER ? undefined : result;
  };
}

export const checkTransaction = checker(buildTransaction);
export const checkStakingReward = checker(buildStakingReward);
export const checkContractAction = checker(buildContractAction);

/** The parsed record, or undefined when the record needs the zod schema (and probably is invalid). */
export const fastTransaction = orUndefined(checkTransaction);
export const fastStakingReward = orUndefined(checkStakingReward);
export const fastContractAction = orUndefined(checkContractAction);
