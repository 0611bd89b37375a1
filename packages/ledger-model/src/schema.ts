// Response records of the ledger query service and the verification service, as zod schemas.
// Strict on what the daemon relies on (timestamps, ids, transaction id, result, name, transfers and amounts,
// memo, the fields rules read); lenient on the rest: unknown members are stripped, and a known field the
// daemon does not rely on reads as unknown (undefined) when its shape is unexpected, instead of rejecting the
// record. docs/ledger-client.md "Strict and lenient fields" lists both sets and why.
// Amounts are bigint in the domain: int64 tinybars exceed 2^53.
import { z } from 'zod';
import { ENTITY_ID_PATTERN } from './entity-id.js';
import { RECORD_TIMESTAMP_PATTERN } from './timestamp.js';

export const HEX_PATTERN = /^0x[0-9a-fA-F]*$/;
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
export const INT64_TEXT_PATTERN = /^-?\d{1,19}$/;
export const TRANSACTION_ID_PATTERN = /^\d{1,10}\.\d{1,10}\.\d{1,10}-\d{1,19}-\d{1,9}$/;

export const EntityId = z.string().regex(ENTITY_ID_PATTERN, 'expected an entity id like 0.0.1234');
export const Timestamp = z
  .string()
  .regex(RECORD_TIMESTAMP_PATTERN, 'expected a timestamp like 1565779444.711927005');
export const Hex = z.string().regex(HEX_PATTERN, 'expected 0x-prefixed hex');
export const EvmAddress = z.string().regex(EVM_ADDRESS_PATTERN, 'expected a 20-byte 0x address');

/**
 * An exact integer: a JSON number that is a safe integer, a bigint from the lossless parser (json.ts), or a
 * digit string (max_fee, valid_duration_seconds). An unsafe double is rejected: it has already lost digits.
 */
export const Int64 = z
  .union([
    z.number().int('expected an integer (a safe double; larger ones must arrive as bigint)'),
    z.bigint(),
    z.string().regex(INT64_TEXT_PATTERN, 'expected an integer'),
  ])
  .transform((v) => BigInt(v));

export const Transfer = z.object({
  account: EntityId,
  amount: Int64,
  is_approval: z.boolean().default(false),
});
export type Transfer = z.output<typeof Transfer>;

export const TokenTransfer = z.object({
  token_id: EntityId,
  account: EntityId,
  amount: Int64,
  is_approval: z.boolean().default(false),
});
export type TokenTransfer = z.output<typeof TokenTransfer>;

export const NftTransfer = z.object({
  is_approval: z.boolean().default(false),
  receiver_account_id: EntityId.nullable(),
  sender_account_id: EntityId.nullable(),
  serial_number: Int64,
  token_id: EntityId,
});
export type NftTransfer = z.output<typeof NftTransfer>;

export const StakingRewardTransfer = z.object({
  account: z.union([EntityId, z.number().int()]),
  amount: Int64,
});
export type StakingRewardTransfer = z.output<typeof StakingRewardTransfer>;

export const MaxCustomFee = z.object({
  account_id: EntityId,
  amount: Int64,
  denominating_token_id: EntityId.nullable(),
});
export type MaxCustomFee = z.output<typeof MaxCustomFee>;

/**
 * A field the daemon does not rely on: its value when it has the expected shape, else undefined ("unknown"),
 * never a rejected record. An absent field gets the schema's own default.
 */
function lenient<T extends z.ZodType>(schema: T) {
  const read = z
    .unknown()
    .optional()
    .transform((v): z.output<T> | undefined => {
      const parsed = schema.safeParse(v);
      return parsed.success ? parsed.data : undefined;
    });
  // The expected shape stays reachable, so openapi-agreement.test.ts compares it with the document.
  return Object.assign(read, { expected: schema });
}

/** The key form of `batch_key` sent by newer services; other members (if any) are ignored. */
export const BatchKeyObject = z.object({ _type: z.string(), key: z.string() });
export type BatchKeyObject = z.output<typeof BatchKeyObject>;
/** `batch_key` in both forms the service has sent: `0x`-hex (older versions) or a key object, or null. */
export const BatchKey = z.union([Hex, BatchKeyObject]).nullable().optional();

/** Transaction fields read leniently (see `lenient`); every other field is validated strictly. */
export const LENIENT_TRANSACTION_FIELDS = [
  'batch_key',
  'bytes',
  'max_custom_fees',
  'max_fee',
  'transaction_hash',
  'valid_duration_seconds',
  'valid_start_timestamp',
] as const;

export const Transaction = z.object({
  batch_key: lenient(BatchKey),
  bytes: lenient(z.string().nullable().optional()),
  charged_tx_fee: Int64,
  consensus_timestamp: Timestamp,
  entity_id: EntityId.nullable().optional(),
  max_custom_fees: lenient(z.array(MaxCustomFee).default([])),
  max_fee: lenient(Int64.nullable().optional()),
  memo_base64: z.string().nullable().optional(),
  name: z.string(),
  nft_transfers: z.array(NftTransfer).default([]),
  node: EntityId.nullable().optional(),
  nonce: z.number().int().min(0).default(0),
  parent_consensus_timestamp: Timestamp.nullable().optional(),
  result: z.string(),
  scheduled: z.boolean().default(false),
  staking_reward_transfers: z.array(StakingRewardTransfer).default([]),
  transaction_hash: lenient(z.string().optional()),
  transaction_id: z.string().regex(TRANSACTION_ID_PATTERN, 'expected shard.realm.num-sss-nnn'),
  token_transfers: z.array(TokenTransfer).default([]),
  transfers: z.array(Transfer).default([]),
  valid_duration_seconds: lenient(Int64.nullable().optional()),
  valid_start_timestamp: lenient(Timestamp.optional()),
});
export type Transaction = z.output<typeof Transaction>;

export const Links = z.object({ next: z.string().nullable() });
export type Links = z.output<typeof Links>;

export const StakingReward = z.object({
  account_id: EntityId,
  amount: Int64,
  timestamp: Timestamp,
});
export type StakingReward = z.output<typeof StakingReward>;

export const ContractAction = z.object({
  call_depth: z.number().int(),
  call_operation_type: z.string(),
  call_type: z.string(),
  caller: EntityId.nullable(),
  caller_type: z.string().nullable(),
  from: EvmAddress.nullable(),
  gas: Int64,
  gas_used: Int64,
  index: z.number().int(),
  input: Hex.nullable(),
  recipient: EntityId.nullable(),
  recipient_type: z.string().nullable(),
  result_data: Hex.nullable(),
  result_data_type: z.string(),
  timestamp: Timestamp,
  to: EvmAddress.nullable(),
  value: Int64,
});
export type ContractAction = z.output<typeof ContractAction>;

export const ErrorBody = z.object({
  _status: z.object({
    messages: z.array(
      z.object({
        message: z.string(),
        detail: z.string().nullable().optional(),
        data: z
          .string()
          .regex(/^0x[0-9a-fA-F]+$/)
          .nullable()
          .optional(),
      }),
    ),
  }),
});
export type ErrorBody = z.output<typeof ErrorBody>;

export const VerificationStatus = z.enum(['perfect', 'partial', 'extra-file-input-bug', 'error']);
export type VerificationStatus = z.output<typeof VerificationStatus>;

/** `files.missing["<path>"]` (docs/ledger-api.md §18.3: objects keyed by path, not arrays as the yaml says). */
export const MissingSource = z.looseObject({
  keccak256: z.string().optional(),
  urls: z.array(z.string()).optional(),
});
export type MissingSource = z.output<typeof MissingSource>;

export const InvalidSource = z.looseObject({
  expectedHash: z.string().optional(),
  calculatedHash: z.string().optional(),
  msg: z.string().optional(),
});
export type InvalidSource = z.output<typeof InvalidSource>;

export const VerifiedContract = z.object({
  verificationId: z.string().optional(),
  compiledPath: z.string().optional(),
  name: z.string().optional(),
  address: z.string(),
  chainId: z.string(),
  files: z
    .object({
      found: z.array(z.string()).default([]),
      missing: z.record(z.string(), MissingSource).default({}),
      invalid: z.record(z.string(), InvalidSource).default({}),
    })
    .optional(),
  status: VerificationStatus,
  statusMessage: z.string().optional(),
  storageTimestamp: z.string().optional(),
});
export type VerifiedContract = z.output<typeof VerifiedContract>;

export const VerificationResult = z.object({
  contracts: z.array(VerifiedContract),
  unused: z.array(z.string()).default([]),
  files: z.array(z.string()).optional(),
});
export type VerificationResult = z.output<typeof VerificationResult>;

/**
 * What we read of `GET /api/v1/accounts/{idOrAliasOrEvmAddress}` (the service's AccountBalanceTransactions):
 * the three members that name the account, strictly; balance, key, transactions and the rest are ignored.
 */
export const AccountSummary = z.looseObject({
  account: EntityId,
  alias: z
    .string()
    .regex(/^[A-Z2-7]+$/, 'expected an upper-case base32 alias')
    .nullable(),
  evm_address: EvmAddress.nullable(),
});
export type AccountSummary = z.output<typeof AccountSummary>;
