// Builds SimTransaction records (wire JSON + query columns) from row-like input, with the service's formatting
// rules (docs/ledger-api.md §F2.9, docs/ledger-api.md §14). Used by the fixture loader and the traffic generator alike.
import { decodeEntityId, formatEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { resultName } from '@ledger-sentinel/ledger-model/result-codes';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { transactionTypeName } from '@ledger-sentinel/ledger-model/transaction-types';
import type { SimTransaction, WireJson } from './store.js';

export interface TransferInput {
  readonly account: bigint;
  readonly amount: bigint;
  readonly isApproval?: boolean | null;
}

export interface TokenTransferInput extends TransferInput {
  readonly tokenId: bigint;
}

export interface NftTransferInput {
  readonly tokenId: bigint;
  readonly serialNumber: bigint;
  readonly senderAccountId: bigint | null;
  readonly receiverAccountId: bigint | null;
  readonly isApproval?: boolean | null;
}

export interface MaxCustomFeeInput {
  readonly accountId: bigint | null;
  readonly amount: bigint;
  /** null or 0 prints null. */
  readonly denominatingTokenId: bigint | null;
}

/** One transaction row; ids are encoded entity ids, times are ns. */
export interface TransactionRowInput {
  readonly consensusTimestamp: bigint;
  readonly payer: bigint;
  readonly node: bigint | null;
  readonly entityId: bigint | null;
  readonly type: number;
  readonly result: number;
  readonly chargedTxFee: bigint;
  readonly maxFee: bigint;
  readonly validDurationSeconds: bigint;
  readonly validStartNs: bigint;
  readonly nonce: number;
  readonly parentConsensusTimestamp: bigint | null;
  readonly scheduled: boolean;
  readonly memo: Uint8Array | null;
  readonly transactionBytes: Uint8Array | null;
  readonly transactionHash: Uint8Array;
  readonly batchKey: Uint8Array | null;
  readonly maxCustomFees: readonly MaxCustomFeeInput[];
  readonly nftTransfers: readonly NftTransferInput[];
  readonly transfers: readonly TransferInput[];
  readonly tokenTransfers: readonly TokenTransferInput[];
  /** Reward rows at this timestamp; shown only when the transfers include 0.0.800 (docs/ledger-api.md §F2.4). */
  readonly stakingRewards: readonly TransferInput[];
  readonly visibleAt?: bigint;
}

const STAKING_REWARD_ACCOUNT = 800n;

export function makeSimTransaction(row: TransactionRowInput): SimTransaction {
  const transfers = [...row.transfers].sort((a, b) => cmp(a.account, b.account) || cmp(a.amount, b.amount));
  const tokenTransfers = [...row.tokenTransfers].sort(
    (a, b) => cmp(a.tokenId, b.tokenId) || cmp(a.account, b.account),
  );
  return {
    consensusTimestamp: row.consensusTimestamp,
    payer: row.payer,
    type: row.type,
    result: row.result,
    nonce: row.nonce,
    parentConsensusTimestamp: row.parentConsensusTimestamp,
    validStartNs: row.validStartNs,
    transfers: transfers.map(({ account, amount }) => ({ account, amount })),
    tokenTransfers: tokenTransfers.map(({ tokenId, account, amount }) => ({ tokenId, account, amount })),
    json: transactionJson(row, transfers, tokenTransfers),
    ...(row.visibleAt === undefined ? {} : { visibleAt: row.visibleAt }),
  };
}

/** The /transactions list item (docs/ledger-api.md §F2.9); transfers already sorted. */
function transactionJson(
  row: TransactionRowInput,
  transfers: readonly TransferInput[],
  tokenTransfers: readonly TokenTransferInput[],
): WireJson {
  const paysRewards = transfers.some((t) => t.account === STAKING_REWARD_ACCOUNT);
  return {
    batch_key: row.batchKey === null ? null : `0x${Buffer.from(row.batchKey).toString('hex')}`,
    bytes: row.transactionBytes === null ? null : Buffer.from(row.transactionBytes).toString('base64'),
    charged_tx_fee: row.chargedTxFee,
    consensus_timestamp: formatTimestamp(row.consensusTimestamp),
    entity_id: idOrNull(row.entityId),
    max_custom_fees: row.maxCustomFees.map((fee) => ({
      account_id: idOrNull(fee.accountId),
      amount: fee.amount,
      denominating_token_id: fee.denominatingTokenId ? idText(fee.denominatingTokenId) : null,
    })),
    max_fee: row.maxFee.toString(),
    memo_base64: row.memo === null ? null : Buffer.from(row.memo).toString('base64'),
    name: transactionTypeName(row.type),
    nft_transfers: row.nftTransfers.map((nft) => ({
      is_approval: nft.isApproval ?? false,
      receiver_account_id: idOrNull(nft.receiverAccountId),
      sender_account_id: idOrNull(nft.senderAccountId),
      serial_number: nft.serialNumber,
      token_id: idText(nft.tokenId),
    })),
    node: idOrNull(row.node),
    nonce: row.nonce,
    parent_consensus_timestamp:
      row.parentConsensusTimestamp === null ? null : formatTimestamp(row.parentConsensusTimestamp),
    result: resultName(row.result),
    scheduled: row.scheduled,
    staking_reward_transfers: paysRewards
      ? row.stakingRewards.map((r) => ({ account: idText(r.account), amount: r.amount }))
      : [],
    token_transfers: tokenTransfers.map((t) => ({
      token_id: idText(t.tokenId),
      account: idText(t.account),
      amount: t.amount,
      is_approval: t.isApproval ?? false,
    })),
    transaction_hash: Buffer.from(row.transactionHash).toString('base64'),
    transaction_id: transactionId(row.payer, row.validStartNs),
    transfers: transfers.map((t) => ({
      account: idText(t.account),
      amount: t.amount,
      is_approval: t.isApproval ?? false,
    })),
    valid_duration_seconds: row.validDurationSeconds.toString(),
    valid_start_timestamp: formatTimestamp(row.validStartNs),
  };
}

/** `0.0.8-1565779444-711927000`: payer, valid start seconds, nanos zero-padded to 9. */
export function transactionId(payer: bigint, validStartNs: bigint): string {
  const seconds = validStartNs / 1_000_000_000n;
  const nanos = (validStartNs % 1_000_000_000n).toString().padStart(9, '0');
  return `${idText(payer)}-${seconds}-${nanos}`;
}

export function idText(encoded: bigint): string {
  return formatEntityId(decodeEntityId(encoded));
}

function idOrNull(encoded: bigint | null): string | null {
  return encoded === null ? null : idText(encoded);
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
