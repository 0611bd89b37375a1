// Turns a transaction draft into the store's SimTransaction: the exact /api/v1/transactions item (field order,
// transfers sorted by account then amount, token transfers by token then account, staking_reward_transfers only
// when 0.0.800 pays; docs/ledger-api.md §14) plus the index columns. Amounts are numbers when safe, bigints beyond 2^53.
import { RESULT_CODE_NAMES } from '@ledger-sentinel/ledger-model/result-codes';
import { transactionTypeName } from '@ledger-sentinel/ledger-model/transaction-types';
import type { SimTransaction } from './store.js';
import { FEE_COLLECTOR, STAKING_REWARD_ACCOUNT } from './traffic-population.js';

export interface Leg {
  readonly account: number;
  readonly amount: bigint;
}

export interface TokenLeg extends Leg {
  readonly token: number;
}

export interface NftLeg {
  readonly token: number;
  readonly serial: number;
  readonly sender: number | null;
  readonly receiver: number | null;
}

export interface TxDraft {
  readonly type: number;
  readonly result: number;
  readonly payer: number;
  readonly node: number;
  readonly consensusNs: bigint;
  readonly validStartNs: bigint;
  /** The transaction id's payer and valid start (children and scheduled executions reuse their parent's). */
  readonly idPayer: number;
  readonly idValidStartNs: bigint;
  readonly fee: bigint;
  readonly legs: readonly Leg[];
  readonly tokenLegs: readonly TokenLeg[];
  readonly nftLegs: readonly NftLeg[];
  /** Accounts paid by 0.0.800 in this transaction; their legs are already in `legs`. */
  readonly stakingRewards: readonly Leg[];
  readonly memoBase64: string;
  readonly entityId: number | null;
  readonly nonce: number;
  readonly parentNs: bigint | null;
  readonly scheduled: boolean;
  readonly batchKey: string | null;
  readonly hash: Buffer;
}

const RESULT_CODES = new Map([...RESULT_CODE_NAMES].map(([code, name]) => [name, code]));

export function resultCode(name: string): number {
  const code = RESULT_CODES.get(name);
  if (code === undefined)
    throw new RangeError(`unknown result name "${name}": use a name from result-codes.ts`);
  return code;
}

const ENTITY_TEXT: string[] = [];

/** `0.0.<num>`, cached for small nums so the many records of one account share one string. */
export function entity(num: number): string {
  if (num >= 1_000_000) return `0.0.${num}`;
  return (ENTITY_TEXT[num] ??= `0.0.${num}`);
}

export function wireAmount(amount: bigint): number | bigint {
  return amount >= -9007199254740991n && amount <= 9007199254740991n ? Number(amount) : amount;
}

export function formatNs(ns: bigint): string {
  const s = ns.toString().padStart(10, '0');
  return `${s.slice(0, -9)}.${s.slice(-9)}`;
}

/** Sums legs per account (a record's transfer list has one net amount per account) and sorts them. */
export function netLegs(legs: readonly Leg[]): Leg[] {
  const sums = new Map<number, bigint>();
  for (const leg of legs) sums.set(leg.account, (sums.get(leg.account) ?? 0n) + leg.amount);
  const out: Leg[] = [];
  for (const [account, amount] of sums) if (amount !== 0n) out.push({ account, amount });
  return out.sort(
    (a, b) => a.account - b.account || (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0),
  );
}

function sortTokenLegs(legs: readonly TokenLeg[]): TokenLeg[] {
  return [...legs].sort((a, b) => a.token - b.token || a.account - b.account);
}

export function buildTransaction(draft: TxDraft): SimTransaction {
  const legs = netLegs(draft.legs);
  const tokenLegs = sortTokenLegs(draft.tokenLegs);
  const json = transactionJson(draft, legs, tokenLegs);
  return {
    consensusTimestamp: draft.consensusNs,
    payer: BigInt(draft.payer),
    type: draft.type,
    result: draft.result,
    nonce: draft.nonce,
    parentConsensusTimestamp: draft.parentNs,
    validStartNs: draft.idValidStartNs,
    transfers: legs.map((l) => ({ account: BigInt(l.account), amount: l.amount })),
    tokenTransfers: tokenLegs.map((t) => ({
      account: BigInt(t.account),
      amount: t.amount,
      tokenId: BigInt(t.token),
    })),
    json,
  };
}

/** The record as the service sends it. */
function transactionJson(draft: TxDraft, legs: readonly Leg[], tokenLegs: readonly TokenLeg[]) {
  const paysRewards = legs.some((l) => l.account === STAKING_REWARD_ACCOUNT);
  const validStart = formatNs(draft.validStartNs);
  const idStart = formatNs(draft.idValidStartNs).split('.');
  // One literal on purpose: its key order is the wire field order of the service.
  return {
    batch_key: draft.batchKey,
    bytes: null,
    charged_tx_fee: wireAmount(draft.fee),
    consensus_timestamp: formatNs(draft.consensusNs),
    entity_id: draft.entityId === null ? null : entity(draft.entityId),
    max_custom_fees: [],
    max_fee: '100000000',
    memo_base64: draft.memoBase64,
    name: transactionTypeName(draft.type),
    nft_transfers: draft.nftLegs.map(nftJson),
    node: entity(draft.node),
    nonce: draft.nonce,
    parent_consensus_timestamp: draft.parentNs === null ? null : formatNs(draft.parentNs),
    result: RESULT_CODE_NAMES.get(draft.result) ?? 'UNKNOWN',
    scheduled: draft.scheduled,
    staking_reward_transfers: paysRewards
      ? draft.stakingRewards.map((r) => ({ account: entity(r.account), amount: wireAmount(r.amount) }))
      : [],
    token_transfers: tokenLegs.map((t) => ({
      token_id: entity(t.token),
      account: entity(t.account),
      amount: wireAmount(t.amount),
      is_approval: false,
    })),
    transaction_hash: draft.hash.toString('base64'),
    transaction_id: `0.0.${draft.idPayer}-${idStart[0]}-${idStart[1]}`,
    transfers: legs.map((l) => ({
      account: entity(l.account),
      amount: wireAmount(l.amount),
      is_approval: false,
    })),
    valid_duration_seconds: '120',
    valid_start_timestamp: validStart,
  };
}

function nftJson(n: TxDraft['nftLegs'][number]) {
  return {
    is_approval: false,
    receiver_account_id: n.receiver === null ? null : entity(n.receiver),
    sender_account_id: n.sender === null ? null : entity(n.sender),
    serial_number: n.serial,
    token_id: entity(n.token),
  };
}

/** The fee debited from the payer, a twentieth to the node, the rest to the fee collector. */
export function feeLegs(payer: number, node: number, fee: bigint): Leg[] {
  if (fee === 0n) return [];
  const nodeFee = fee / 20n;
  return [
    { account: payer, amount: -fee },
    { account: node, amount: nodeFee },
    { account: FEE_COLLECTOR, amount: fee - nodeFee },
  ];
}
