// The rule test file (strict: a typo is an error, with its file:line:col). rules/README.md "Testing rules"
// documents it; build-records.ts turns the compact inputs into ledger records.
import { z } from 'zod';
import { TRANSACTION_ID_PATTERN } from '@ledger-sentinel/ledger-model/schema';
import { AccountId, HbarAmount } from '../rules/facts/values.js';
import { AccountEntry } from '../accounts/accounts-config.js';
import { TokenId } from '../tokens/tokens-config.js';
import {
  ResultName,
  SignedHbar,
  SignedUnits,
  Span,
  Time,
  TransactionType,
  ledgerName,
} from './test-values.js';

const Int = z.union([z.number().int(), z.string().regex(/^\d{1,19}$/)]).transform((v) => BigInt(v));

export const NftMove = z
  .object({
    token_id: AccountId,
    serial: Int.default(1n),
    /** null: minted. */
    from: AccountId.nullable().default(null),
    /** null: burned. */
    to: AccountId.nullable().default(null),
  })
  .strict();

export const Tx = z
  .object({
    type: TransactionType.default('CRYPTOTRANSFER'),
    result: ResultName.default('SUCCESS'),
    /** Default: the first account with a negative HBAR leg, else the first watched account. */
    payer: AccountId.optional(),
    transaction_id: z
      .string()
      .regex(TRANSACTION_ID_PATTERN, {
        error: 'expected a transaction id like 0.0.1234-1767225600-000000000',
      })
      .optional(),
    /** charged_tx_fee only: the transfers are exactly as written. */
    fee: HbarAmount.default(0n),
    memo: z.string().default(''),
    transfers: z.record(AccountId, SignedHbar).default({}),
    /** token id → account → signed units. */
    token_transfers: z.record(AccountId, z.record(AccountId, SignedUnits)).default({}),
    nft_transfers: z.array(NftMove).default([]),
    entity_id: AccountId.optional(),
    nonce: z.number().int().min(0).default(0),
    /** The parent's consensus time (a child record, or the batch of an inner one). */
    parent: Time.optional(),
    scheduled: z.boolean().default(false),
    /** An atomic batch's inner transaction: its batch key, as the service's protobuf 0x-hex. */
    batch_key: z
      .string()
      .regex(/^0x([0-9a-fA-F]{2})+$/, {
        error: 'expected the batch key as 0x-hex, like 0x1220 and 64 hex digits (an ED25519 key)',
      })
      .optional(),
  })
  .strict();
export type Tx = z.output<typeof Tx>;

const CALL_OPERATIONS = ['CALL', 'CALLCODE', 'CREATE', 'CREATE2', 'DELEGATECALL', 'STATICCALL', 'UNKNOWN'];
const CALL_TYPES = ['NO_ACTION', 'CALL', 'CREATE', 'PRECOMPILE', 'SYSTEM'];
const EvmAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'expected a 0x EVM address (40 hex digits)' });

/** One contract action of the call trace; fields as on the ledger, each with a default. */
export const TraceAction = z
  .object({
    call_depth: z.number().int().min(0).default(0),
    call_operation_type: ledgerName('call operation type', CALL_OPERATIONS, 'CALL or DELEGATECALL').default(
      'CALL',
    ),
    call_type: z
      .string()
      .refine((t) => CALL_TYPES.includes(t), {
        error: (i) =>
          `expected a call type (${CALL_TYPES.join(', ')}), got ${JSON.stringify(i.input)}` +
          (CALL_OPERATIONS.includes(String(i.input)) ? `; ${String(i.input)} is a call_operation_type` : ''),
      })
      .default('CALL'),
    /** Default: the payer. */
    caller: AccountId.nullable().optional(),
    caller_type: z.string().default('ACCOUNT'),
    from: EvmAddress.nullable().optional(),
    /** Default: the transaction's entity_id. */
    recipient: AccountId.nullable().optional(),
    recipient_type: z.string().default('CONTRACT'),
    /** Default: the recipient's long-zero address. */
    to: EvmAddress.nullable().optional(),
    value: HbarAmount.default(0n),
    gas: Int.default(100_000n),
    gas_used: Int.default(0n),
    input: z.string().default('0x'),
    result_data: z.string().default('0x'),
    result_data_type: z.enum(['OUTPUT', 'REVERT_REASON', 'ERROR']).default('OUTPUT'),
  })
  .strict();
export type TraceAction = z.output<typeof TraceAction>;

export const Reward = z
  .object({
    /** Default: the first watched account. */
    account: AccountId.optional(),
    amount: HbarAmount,
  })
  .strict();

export const Input = z
  .object({
    at: Time,
    tx: Tx.optional(),
    /** The call trace of `tx` (what the actions endpoint would answer). */
    trace: z.array(TraceAction).optional(),
    /** The verification service's status for the contract `tx` creates (perfect, partial, …). */
    verification: z.string().min(1).optional(),
    reward: Reward.optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.tx === undefined) === (input.reward === undefined))
      ctx.addIssue({ code: 'custom', message: 'set exactly one of tx or reward (next to at)' });
    for (const key of ['trace', 'verification'] as const)
      if (input[key] !== undefined && input.tx === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} belongs to a tx: add tx, or remove ${key}`,
        });
  });
export type Input = z.output<typeof Input>;

export const Expect = z
  .object({
    at: Time.optional(),
    rule: z.string().min(1),
    /** The account's id or name. */
    account: z.string().min(1).optional(),
    state: z.enum(['firing', 'resolved']),
    /** The rule's own summary template, rendered. */
    summary: z.string().optional(),
  })
  .strict();
export type Expect = z.output<typeof Expect>;

/** What a test and the file share: the clock. */
const clock = {
  /** Where "+<span>" counts from, and the clock's first step. */
  start: Time.optional(),
  /** The clock's step between records (absence and draining windows are checked at each step). */
  eval_interval: Span.optional(),
};

export const TestCase = z
  .object({
    name: z.string().min(1),
    ...clock,
    input: z.array(Input).max(100_000).default([]),
    /** The clock runs on, one eval_interval at a time, until here (after the last input). */
    eval_until: Time.optional(),
    expect: z.array(Expect).max(1_000).default([]),
  })
  .strict();
export type TestCase = z.output<typeof TestCase>;

/**
 * A token's facts as the query service would give them in the daemon: amounts shown in its units with its symbol,
 * and `'10000 USDC'` / `'1.5 tokens'` amounts in rules decided by its decimals. A token not listed is one the
 * service does not know: raw units, and such an amount never matches.
 */
export const TestToken = z
  .object({
    id: TokenId,
    decimals: z.number().int().min(0).max(18),
    symbol: z.string().min(1).max(100).optional(),
    /** The display name `tokens:` would give it in the config. */
    name: z.string().min(1).optional(),
  })
  .strict();

export const TestFile = z
  .object({
    /** Relative to the test file; `*` / `?` in file names. */
    rule_files: z.array(z.string().min(1)).min(1, 'expected at least one rule file'),
    accounts: z.array(AccountEntry).min(1, 'expected at least one watched account'),
    tokens: z.array(TestToken).max(10_000).default([]),
    ...clock,
    tests: z.array(TestCase).min(1, 'expected at least one test').max(10_000),
  })
  .strict();
export type TestFile = z.output<typeof TestFile>;
