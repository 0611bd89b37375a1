// Compact test inputs → the ledger records the daemon reads, through the same zod schemas as the query service's
// answers (packages/ledger-model/src/schema.ts), so a rule sees in a test exactly the shapes it sees in production.
import { longZeroAddress, parseEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { ContractAction, StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import type { TraceAction, Tx } from './schema.js';

export interface TxContext {
  readonly atNs: bigint;
  /** Payer when neither `payer` nor a negative HBAR leg names one. */
  readonly defaultPayer: string;
  /** The parent's consensus time, resolved on the test's clock. */
  readonly parentNs?: bigint;
  /** Distinct per input: the call trace is looked up by the transaction hash, as on the ledger. */
  readonly serial: number;
}

export function buildTransaction(tx: Tx, ctx: TxContext): Transaction {
  const payer = payerOf(tx, ctx.defaultPayer);
  const at = formatTimestamp(ctx.atNs).replace('.', '-');
  return Transaction.parse({
    batch_key: tx.batch_key ?? null,
    charged_tx_fee: tx.fee,
    consensus_timestamp: formatTimestamp(ctx.atNs),
    entity_id: tx.entity_id ?? null,
    memo_base64: Buffer.from(tx.memo, 'utf8').toString('base64'),
    name: tx.type,
    nft_transfers: tx.nft_transfers.map((n) => ({
      token_id: n.token_id,
      serial_number: n.serial,
      sender_account_id: n.from,
      receiver_account_id: n.to,
    })),
    node: '0.0.3',
    nonce: tx.nonce,
    parent_consensus_timestamp: ctx.parentNs === undefined ? null : formatTimestamp(ctx.parentNs),
    result: tx.result,
    scheduled: tx.scheduled,
    transaction_hash: transactionHash(ctx.serial),
    transaction_id: tx.transaction_id ?? `${payer}-${at}`,
    token_transfers: Object.entries(tx.token_transfers).flatMap(([token_id, legs]) =>
      Object.entries(legs).map(([account, amount]) => ({ token_id, account, amount })),
    ),
    transfers: Object.entries(tx.transfers).map(([account, amount]) => ({ account, amount })),
  });
}

/** `payer`, else the first account with a negative HBAR leg (who pays usually loses the most), else the default. */
export function payerOf(tx: Tx, defaultPayer: string): string {
  return tx.payer ?? Object.entries(tx.transfers).find(([, amount]) => amount < 0n)?.[0] ?? defaultPayer;
}

/** The call trace of a built transaction: actions in order, each defaulting to a plain call by the payer. */
export function buildTrace(actions: readonly TraceAction[], tx: Transaction): ContractAction[] {
  const payer = tx.transaction_id.slice(0, tx.transaction_id.indexOf('-'));
  return actions.map((a, index) => {
    const caller = a.caller === undefined ? payer : a.caller;
    const recipient = a.recipient === undefined ? (tx.entity_id ?? null) : a.recipient;
    return ContractAction.parse({
      ...a,
      caller,
      from: a.from === undefined ? evmOf(caller) : a.from,
      recipient,
      to: a.to === undefined ? evmOf(recipient) : a.to,
      index,
      timestamp: tx.consensus_timestamp,
    });
  });
}

export function buildReward(account: string, amount: bigint, atNs: bigint): StakingReward {
  return StakingReward.parse({ account_id: account, amount, timestamp: formatTimestamp(atNs) });
}

function evmOf(id: string | null): string | null {
  if (id === null) return null;
  const parsed = parseEntityId(id);
  return parsed.ok ? longZeroAddress(parsed.id) : null;
}

/** 48 bytes, base64, distinct in the first 32 (what the actions lookup uses) for each input of a test. */
function transactionHash(serial: number): string {
  const bytes = Buffer.alloc(48, 0xab);
  bytes.writeUInt32BE(serial >>> 0, 0);
  return bytes.toString('base64');
}
