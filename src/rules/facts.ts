// What conditions see of one record for one watched account. Derived values (net change, decoded memo, token
// totals) are computed on first use and cached, so fifty rules reading `debit` sum the transfers once.
import type { ContractAction, StakingReward, Transaction } from '../ledger/schema.js';
import type { WatchedAccount } from '../tail/watched-account.js';
import { parseTimestamp } from '../ledger/timestamp.js';
import type { AlertRecord } from './alert.js';

export type Source = 'transactions' | 'rewards';
export const SOURCES: readonly Source[] = ['transactions', 'rewards'];

/** Memos are capped before any `contains`/`regex` runs, so a hostile memo cannot make a regex slow. */
export const MEMO_EVAL_LIMIT = 1024;

/**
 * Accounts that collect fees and rewards: crediting them is not "HBAR left for a counterparty". An attacker
 * gains nothing from HBAR sent there, so allowlist conditions ignore them (plus the record's own `node`).
 */
export const FEE_ACCOUNTS: ReadonlySet<string> = new Set(['0.0.98', '0.0.800', '0.0.801']);

export interface RecordEvent {
  readonly source: Source;
  readonly record: Transaction | StakingReward;
  readonly account: WatchedAccount;
  /** Contract actions of the transaction; undefined = not fetched (yet). */
  readonly traces?: readonly ContractAction[];
}

export class Facts {
  readonly tx: Transaction | undefined;
  readonly reward: StakingReward | undefined;
  private netCache: bigint | undefined;
  private memoCache: string | undefined;
  private timeCache: bigint | undefined;
  /** Template view and alert digest of the record (view.ts), built once for all the rules that alert on it. */
  view: Record<string, unknown> | undefined;
  digest: AlertRecord | undefined;

  constructor(readonly event: RecordEvent) {
    this.tx = event.source === 'transactions' ? (event.record as Transaction) : undefined;
    this.reward = event.source === 'rewards' ? (event.record as StakingReward) : undefined;
  }

  get account(): WatchedAccount {
    return this.event.account;
  }

  get traces(): readonly ContractAction[] | undefined {
    return this.event.traces;
  }

  /** Net HBAR change of the watched account in tinybars, fees included (the reward amount for rewards). */
  net(): bigint {
    if (this.netCache !== undefined) return this.netCache;
    let sum = 0n;
    if (this.reward) sum = this.reward.amount;
    else for (const t of this.tx?.transfers ?? []) if (t.account === this.account.id) sum += t.amount;
    this.netCache = sum;
    return sum;
  }

  tokenNet(tokenId: string): bigint {
    let sum = 0n;
    for (const t of this.tx?.token_transfers ?? [])
      if (t.token_id === tokenId && t.account === this.account.id) sum += t.amount;
    return sum;
  }

  /** Consensus time of the record (the payout time of a reward), nanoseconds. */
  timeNs(): bigint {
    this.timeCache ??= parseTimestamp(this.tx?.consensus_timestamp ?? this.reward?.timestamp ?? '0');
    return this.timeCache;
  }

  /** `0.0.1234` of `0.0.1234-1565779444-711927000`. */
  payer(): string | undefined {
    const id = this.tx?.transaction_id;
    return id === undefined ? undefined : id.slice(0, id.indexOf('-'));
  }

  /** The memo decoded from base64 as UTF-8 (invalid bytes replaced); '' when there is none. */
  memo(): string {
    if (this.memoCache === undefined) this.memoCache = decodeMemo(this.tx?.memo_base64);
    return this.memoCache;
  }

  /** Accounts credited HBAR by this transaction, except the watched account and the fee collectors. */
  counterparties(): string[] {
    const node = this.tx?.node;
    return (this.tx?.transfers ?? [])
      .filter((t) => t.amount > 0n && t.account !== this.account.id && t.account !== node)
      .filter((t) => !FEE_ACCOUNTS.has(t.account))
      .map((t) => t.account);
  }
}

export function decodeMemo(base64: string | null | undefined): string {
  if (!base64) return '';
  return Buffer.from(base64, 'base64').toString('utf8');
}
