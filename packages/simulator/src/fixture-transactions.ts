// `transactions` and `cryptotransfers` setup items → transaction rows (docs/ledger-api.md §F2.2, 2.3).
import { boolInput, bytesInput, entityInput, intInput, items, nullableInt } from './fixture-values.js';
import type {
  MaxCustomFeeInput,
  NftTransferInput,
  TokenTransferInput,
  TransactionRowInput,
  TransferInput,
} from './transaction-json.js';

const DEFAULT_HASH = Uint8Array.from({ length: 48 }, (_, i) => i + 1);
const DEFAULT_BYTES = Uint8Array.from(Buffer.from('bytes'));
const NODE_FEE = 2n;
const NETWORK_FEE = 1n;
const DEFAULT_NODE = 3n;
const FEE_COLLECTOR = 98n;

/** The cryptotransfers expansion, defaults applied in the documented order. */
export function expandCryptoTransfer(item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...item };
  out.senderAccountId ??= out.payerAccountId;
  out.payerAccountId ??= out.senderAccountId;
  out.amount ??= 2n;
  out.recipientAccountId ??= out.nodeAccountId;
  if (!('transfers' in item)) {
    const amount = intInput(out.amount, 2n);
    const legs: Array<[unknown, bigint]> = [
      [out.senderAccountId, -(amount + 1n)],
      [out.recipientAccountId, amount],
      [out.treasuryAccountId, 1n],
    ];
    out.transfers = legs
      .filter(([account]) => account !== undefined && account !== null)
      .map(([account, legAmount]) => ({ account, amount: legAmount, is_approval: false }));
  }
  return out;
}

export function toTransactionRow(item: Record<string, unknown>): Omit<TransactionRowInput, 'stakingRewards'> {
  const consensusTimestamp = intInput(item.consensus_timestamp, 0n);
  const payer = entityInput(item.payerAccountId);
  if (payer === null) throw new Error(`transaction ${consensusTimestamp}: payerAccountId is required`);
  const node = entityInput(item.nodeAccountId);
  const chargedTxFee = intInput(item.charged_tx_fee, 7n);
  return {
    consensusTimestamp,
    payer,
    node,
    entityId: entityInput(item.entity_id),
    type: Number(intInput(item.type, 14n)),
    result: Number(intInput(item.result, 22n)),
    chargedTxFee,
    maxFee: intInput(item.max_fee, 33n),
    validDurationSeconds: intInput(item.valid_duration_seconds, 11n),
    validStartNs: intInput(item.valid_start_timestamp, consensusTimestamp - 1n),
    nonce: Number(intInput(item.nonce, 0n)),
    parentConsensusTimestamp: nullableInt(item.parent_consensus_timestamp),
    scheduled: boolInput(item.scheduled, false),
    memo: null,
    transactionBytes: 'transaction_bytes' in item ? bytesInput(item.transaction_bytes) : DEFAULT_BYTES,
    transactionHash: bytesInput(item.transaction_hash) ?? DEFAULT_HASH,
    batchKey: bytesInput(item.batch_key),
    maxCustomFees: maxCustomFees(item.max_custom_fees),
    nftTransfers: items(item.nft_transfer ?? item.nft_transfers).map(nftTransfer),
    transfers: transfers(item, payer, node, chargedTxFee),
    tokenTransfers: items(item.token_transfer_list).map(tokenTransfer),
  };
}

/** Listed transfers, or the default fee legs (+2 node, +1 0.0.98, −3 payer) when none and the fee is > 0. */
function transfers(
  item: Record<string, unknown>,
  payer: bigint,
  node: bigint | null,
  fee: bigint,
): TransferInput[] {
  const listed = items(item.transfers);
  if (listed.length > 0) {
    return listed.map((t) => ({
      account: entityInput(t.account) ?? 0n,
      amount: intInput(t.amount, 0n),
      isApproval:
        t.is_approval === undefined || t.is_approval === null ? null : boolInput(t.is_approval, false),
    }));
  }
  if (fee <= 0n) return [];
  return [
    { account: node ?? DEFAULT_NODE, amount: NODE_FEE, isApproval: false },
    { account: FEE_COLLECTOR, amount: NETWORK_FEE, isApproval: false },
    { account: payer, amount: -(NODE_FEE + NETWORK_FEE), isApproval: false },
  ];
}

function tokenTransfer(t: Record<string, unknown>): TokenTransferInput {
  return {
    tokenId: entityInput(t.token_id) ?? 0n,
    account: entityInput(t.account) ?? 0n,
    amount: intInput(t.amount, 0n),
    isApproval:
      t.is_approval === undefined || t.is_approval === null ? null : boolInput(t.is_approval, false),
  };
}

function nftTransfer(t: Record<string, unknown>): NftTransferInput {
  return {
    tokenId: entityInput(t.token_id ?? t.tokenId) ?? 0n,
    serialNumber: intInput(t.serial_number ?? t.serialNumber, 0n),
    senderAccountId: entityInput(t.sender_account_id ?? t.senderAccountId),
    receiverAccountId: entityInput(t.receiver_account_id ?? t.receiverAccountId),
    isApproval: t.is_approval === undefined ? null : boolInput(t.is_approval, false),
  };
}

interface ProtoId {
  shardNum?: unknown;
  realmNum?: unknown;
  accountNum?: unknown;
  tokenNum?: unknown;
}

/** CustomFeeLimit list (protobuf JSON) flattened per fee; null or empty gives []. */
function maxCustomFees(value: unknown): MaxCustomFeeInput[] {
  const out: MaxCustomFeeInput[] = [];
  for (const limit of items(value)) {
    const account = limit.accountId as ProtoId | undefined | null;
    for (const fee of items(limit.fees)) {
      const token = fee.denominatingTokenId as ProtoId | undefined | null;
      const tokenId = token ? protoId(token, token.tokenNum) : null;
      out.push({
        accountId: account ? protoId(account, account.accountNum) : null,
        amount: intInput(fee.amount, 0n),
        denominatingTokenId: tokenId !== null && (tokenId & ((1n << 38n) - 1n)) !== 0n ? tokenId : null,
      });
    }
  }
  return out;
}

function protoId(id: ProtoId, num: unknown): bigint {
  return (intInput(id.shardNum, 0n) << 54n) | (intInput(id.realmNum, 0n) << 38n) | intInput(num, 0n);
}
