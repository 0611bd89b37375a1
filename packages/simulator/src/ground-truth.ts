// What really happened in the living ledger, whatever the query service shows: every record and reward generated
// so far with the moment it becomes visible, and every contract with its verification answer. Tests compute the
// alerts a rule set must produce from this, then compare with what the daemon sent. With retention on, records
// and rewards older than the horizon are dropped (`pruneBefore`); tagged records and contracts are always kept.
import type { SimTransaction } from './store.js';
import { lowerBound } from './sorted.js';
import { verifyAnswerFor, type VerifyAnswer } from './verify-answers.js';

export interface TruthRecord {
  readonly tx: SimTransaction;
  /** When the query service starts serving it (ns). */
  readonly visibleAt: bigint;
  /** Held back by late visibility (served after later rows of its record file). */
  readonly late: boolean;
  readonly tag?: string;
}

export interface TruthReward {
  readonly accountId: bigint;
  readonly amount: bigint;
  readonly timestamp: bigint;
  readonly visibleAt: bigint;
  readonly late: boolean;
}

export interface TruthContract {
  readonly num: number;
  /** 40 lower-case hex digits, no 0x. */
  readonly evmAddress: string;
  readonly createdAt: bigint | null;
  readonly verification: VerifyAnswer;
}

export interface TruthQuery {
  /** Inclusive consensus-timestamp bounds, ns. */
  readonly fromNs?: bigint;
  readonly toNs?: bigint;
  /** Encoded account id: payer, HBAR or token transfer, or staking reward recipient. */
  readonly account?: bigint;
}

/** Index of the first record with timestamp >= ns (records are appended in timestamp order). */
const firstAtOrAfter = lowerBound;

function involves(tx: SimTransaction, account: bigint): boolean {
  return (
    tx.payer === account ||
    tx.transfers.some((t) => t.account === account) ||
    tx.tokenTransfers.some((t) => t.account === account)
  );
}

export class GroundTruth {
  private readonly records: TruthRecord[] = [];
  private readonly rewardList: TruthReward[] = [];
  private readonly contractList: TruthContract[] = [];

  get recordCount(): number {
    return this.records.length;
  }

  get rewardCount(): number {
    return this.rewardList.length;
  }

  get contractCount(): number {
    return this.contractList.length;
  }

  addRecord(record: TruthRecord): void {
    const last = this.records[this.records.length - 1];
    if (last && last.tx.consensusTimestamp >= record.tx.consensusTimestamp) {
      throw new Error('ground truth: records must be added in increasing consensus-timestamp order');
    }
    this.records.push(record);
  }

  /**
   * Drops records and rewards with a consensus timestamp below `ns` (retention). Tagged records (test markers,
   * few) stay, so a referee that looks for its markers still finds every one.
   */
  pruneBefore(ns: bigint): void {
    const cut = firstAtOrAfter(this.records, ns, (r) => r.tx.consensusTimestamp);
    const markers = this.records.slice(0, cut).filter((r) => r.tag !== undefined);
    this.records.splice(0, cut, ...markers);
    this.rewardList.splice(
      0,
      firstAtOrAfter(this.rewardList, ns, (r) => r.timestamp),
    );
  }

  addReward(reward: TruthReward): void {
    this.rewardList.push(reward);
  }

  addContract(num: number, evmAddress: string, createdAt: bigint | null): void {
    this.contractList.push({ num, evmAddress, createdAt, verification: verifyAnswerFor(evmAddress) });
  }

  /** Records in [fromNs, toNs], ascending, optionally only those involving an account. */
  transactions(query: TruthQuery = {}): TruthRecord[] {
    const key = (r: TruthRecord) => r.tx.consensusTimestamp;
    const from = query.fromNs === undefined ? 0 : firstAtOrAfter(this.records, query.fromNs, key);
    const to =
      query.toNs === undefined ? this.records.length : firstAtOrAfter(this.records, query.toNs + 1n, key);
    const slice = this.records.slice(from, to);
    const { account } = query;
    return account === undefined ? slice : slice.filter((r) => involves(r.tx, account));
  }

  rewards(query: TruthQuery = {}): TruthReward[] {
    const key = (r: TruthReward) => r.timestamp;
    const from = query.fromNs === undefined ? 0 : firstAtOrAfter(this.rewardList, query.fromNs, key);
    const to =
      query.toNs === undefined
        ? this.rewardList.length
        : firstAtOrAfter(this.rewardList, query.toNs + 1n, key);
    const slice = this.rewardList.slice(from, to);
    return query.account === undefined ? slice : slice.filter((r) => r.accountId === query.account);
  }

  contracts(): readonly TruthContract[] {
    return this.contractList;
  }

  /** Every record with this tag, including those older than the retention horizon. */
  tagged(tag: string): TruthRecord[] {
    return this.records.filter((r) => r.tag === tag);
  }

  /** Records not yet served at `nowNs`, and how many of them are held back by late visibility. */
  pending(nowNs: bigint): { pending: number; heldBack: number } {
    let pending = 0;
    let heldBack = 0;
    for (const r of this.records) {
      if (r.visibleAt <= nowNs) continue;
      pending++;
      if (r.late) heldBack++;
    }
    return { pending, heldBack };
  }
}
