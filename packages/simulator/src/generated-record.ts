// What the traffic generator (traffic.ts) yields and works with, in a leaf of its own: traffic.ts and its
// helpers (traffic-followers.ts, traffic-inject.ts) share these shapes without importing each other for them.
import type { SimContractAction, SimEntityInput, SimTransaction } from './store.js';
import type { Rng } from './rng.js';
import type { MixType } from './traffic-mix.js';
import type { Population, SimAccount, SimContract } from './traffic-population.js';
import type { Leg } from './traffic-record.js';

export interface TrafficOptions {
  readonly seed: number | string;
  /** Accounts at start (default 200). */
  readonly accounts?: number;
  /** Share of transactions that fail (default 0.05). */
  readonly failureRate?: number;
  /** Share of memos that are hostile (default 0.02). */
  readonly hostileMemoRate?: number;
  /** Share of contract calls with a deep trace, depth 10-14 (default 0.03). */
  readonly deepTraceRate?: number;
  /**
   * Account nums the background traffic never picks as payer (default none), so it never debits them: a test that
   * watches them sees only what it injects (they still receive credits, and an injected record may name them).
   */
  readonly quietAccounts?: readonly number[];
}

export interface GeneratedReward {
  readonly accountId: bigint;
  readonly amount: bigint;
  readonly timestamp: bigint;
}

/** Everything one record adds to the ledger. */
export interface GeneratedRecord {
  readonly tx: SimTransaction;
  readonly actions: readonly SimContractAction[];
  readonly rewards: readonly GeneratedReward[];
  /** First 32 bytes of the transaction hash (hex) for contract transactions, as contract_transaction_hash holds. */
  readonly contractHash: string | null;
  readonly entities: readonly SimEntityInput[];
  readonly contracts: readonly SimContract[];
  readonly tag?: string;
}

/** Per-record overrides from an injected transaction (traffic-inject.ts). */
export interface RecordOverrides {
  readonly type?: MixType;
  readonly payer?: SimAccount;
  readonly result?: string;
  readonly legs?: readonly Leg[];
  readonly memoBase64?: string;
  readonly traceDepth?: number;
  readonly fee?: bigint;
  readonly tag?: string;
}

/** The generator's state: its random stream, population and the ids it must come back to. */
export interface State {
  readonly rng: Rng;
  readonly population: Population;
  readonly options: Required<Omit<TrafficOptions, 'seed'>>;
  readonly coverage: MixType[];
  readonly pendingSchedules: { payer: number; validStartNs: bigint }[];
  readonly recentIds: { payer: number; validStartNs: bigint }[];
}

export interface Common {
  readonly payer: SimAccount;
  readonly id: { payer: number; validStartNs: bigint };
  readonly node: number;
  readonly resultName: string;
}
