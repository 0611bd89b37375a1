// The living ledger: time moves (an injectable clock), transactions are generated at a steady rate with consensus
// timestamps from that clock, and each becomes visible when its record file (every ~2 s) closes plus the ingestion
// lag (docs/ledger-api.md §16). With late visibility on, a seeded share of each file's rows is held back for a while and then
// appears with its original, earlier timestamp: the upstream pattern that makes a naive gt: cursor skip rows
// (docs/ledger-api.md §17). Generation is lazy: `advance()` catches up to the clock, and the server calls it on every request.
// Retention keeps memory bounded on long runs: records older than the horizon are dropped from the store and the
// ground truth, in batches of an eighth of the horizon.
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { createRng, type Rng } from './rng.js';
import { SimulatorStore, type SimTransaction } from './store.js';
import { GroundTruth } from './ground-truth.js';
import { applyLivingRecord, createLivingTokens, SNAPSHOT_INTERVAL_NS } from './living-tokens.js';
import {
  createTraffic,
  MAX_RECORDS_PER_CALL,
  accountEntity,
  type GeneratedRecord,
  type Traffic,
  type TrafficOptions,
} from './traffic.js';
import { injectOverrides, withWire, type InjectSpec } from './traffic-inject.js';
import { FEE_COLLECTOR, NODES, STAKING_REWARD_ACCOUNT, TREASURY } from './traffic-population.js';
import type { LateVisibility } from './faults.js';

export interface LivingLedgerOptions {
  readonly seed?: number | string;
  /** Transactions per second (default 20). */
  readonly tps?: number;
  /** Ingestion lag after a record file closes, ms (default 2000). */
  readonly lagMs?: number;
  /** Record-file cadence, ms (default 2000). */
  readonly recordFileMs?: number;
  /** Late visibility (default none); usually a fault profile's `late_visibility`. */
  readonly lateVisibility?: LateVisibility;
  /** Milliseconds since the epoch (default Date.now). */
  readonly clock?: () => number;
  /** Generation starts here, ms (default the clock at creation). */
  readonly startMs?: number;
  /** At most this much traffic is generated in one catch-up; older slots are skipped (default 60 000 ms). */
  readonly maxCatchUpMs?: number;
  readonly traffic?: Omit<TrafficOptions, 'seed'>;
  readonly store?: SimulatorStore;
  /** What is kept (default DEFAULT_RETENTION); null keeps everything. */
  readonly retention?: Retention | null;
}

/** The retention horizon: records older than either bound are dropped (queries for them answer empty). */
export interface Retention {
  /** Ledger time kept behind the clock, ms; absent = no time bound. */
  readonly ms?: number;
  /** At most this many transactions kept; absent = no count bound. */
  readonly maxTransactions?: number;
}

/** One hour of ledger time, and at most 300,000 transactions (under 1 GB of heap) whatever the rate. */
export const DEFAULT_RETENTION: Retention = { ms: 3_600_000, maxTransactions: 300_000 };

export interface LedgerStats {
  readonly seed: string;
  readonly tps: number;
  readonly lagMs: number;
  readonly recordFileMs: number;
  readonly lateVisibility: LateVisibility;
  readonly nowNs: bigint;
  readonly transactions: number;
  readonly records: number;
  readonly rewards: number;
  readonly contracts: number;
  readonly actions: number;
  readonly pending: number;
  readonly heldBack: number;
  readonly skippedSlots: number;
  /** Transactions dropped by retention so far (`transactions` counts everything generated). */
  readonly pruned: number;
  /** Transactions (records) the store holds now. */
  readonly retained: number;
  readonly byType: Readonly<Record<string, number>>;
  readonly byResult: Readonly<Record<string, number>>;
}

export interface LivingLedger {
  readonly store: SimulatorStore;
  readonly truth: GroundTruth;
  readonly traffic: Traffic;
  /** Generates everything due up to the clock; returns the records added. */
  advance(): GeneratedRecord[];
  /** Queues a transaction for the next `advance()`, before the regular traffic of that tick. */
  inject(spec: InjectSpec): void;
  nowNs(): bigint;
  stats(): LedgerStats;
}

export const MAX_TPS = 1_000_000;

export function createLivingLedger(options: LivingLedgerOptions = {}): LivingLedger {
  return new Ledger(options);
}

/** Writes one record, with its visibility, to the store (what the service serves) and the ground truth. */
function commitRecord(
  store: SimulatorStore,
  truth: GroundTruth,
  record: GeneratedRecord,
  visibleAt: bigint,
  late: boolean,
): void {
  const { tx } = record;
  for (const entity of record.entities) store.addEntity(entity);
  // Explicit fields, not a spread: this runs for every record and spreads take V8's slow object-clone path.
  const served: SimTransaction = {
    consensusTimestamp: tx.consensusTimestamp,
    payer: tx.payer,
    type: tx.type,
    result: tx.result,
    nonce: tx.nonce,
    parentConsensusTimestamp: tx.parentConsensusTimestamp,
    validStartNs: tx.validStartNs,
    transfers: tx.transfers,
    tokenTransfers: tx.tokenTransfers,
    json: tx.json,
    visibleAt,
  };
  store.addTransaction(served);
  applyLivingRecord(store.balances, served);
  store.balances.snapshotIfDue(tx.consensusTimestamp, SNAPSHOT_INTERVAL_NS);
  if (record.actions.length > 0) store.addContractActions(record.actions.map((a) => ({ ...a, visibleAt })));
  if (record.contractHash !== null) {
    const link = { consensusTimestamp: tx.consensusTimestamp, payer: tx.payer, visibleAt };
    store.addContractTransactionHash(record.contractHash, link);
  }
  for (const reward of record.rewards) {
    store.addReward({ ...reward, visibleAt });
    truth.addReward({ ...reward, visibleAt, late });
  }
  for (const c of record.contracts) truth.addContract(c.num, c.evmAddress, c.createdAt);
  truth.addRecord({ tx: served, visibleAt, late, tag: record.tag });
}

function validateRetention(retention: Retention | null): void {
  if (retention === null) return;
  if (retention.ms !== undefined && !(Number.isInteger(retention.ms) && retention.ms > 0)) {
    throw new RangeError(`retention.ms must be a positive integer (ms), got ${retention.ms}`);
  }
  const max = retention.maxTransactions;
  if (max !== undefined && !(Number.isInteger(max) && max > 0)) {
    throw new RangeError(`retention.maxTransactions must be a positive integer, got ${max}`);
  }
}

function count(counter: Record<string, number>, key: string): void {
  counter[key] = (counter[key] ?? 0) + 1;
}

class Ledger implements LivingLedger {
  readonly store: SimulatorStore;
  readonly truth = new GroundTruth();
  readonly traffic: Traffic;
  private readonly seed: string;
  private readonly tps: number;
  private readonly clock: () => number;
  private readonly lagNs: bigint;
  private readonly fileNs: bigint;
  private readonly late: LateVisibility;
  private readonly intervalNs: bigint;
  private readonly maxCatchUpNs: bigint;
  private readonly startNs: bigint;
  private readonly lateRng: Rng;
  private readonly queue: InjectSpec[] = [];
  private readonly counters = { transactions: 0, actions: 0, skippedSlots: 0, pruned: 0 };
  private readonly retention: Retention | null;
  private readonly byType: Record<string, number> = {};
  private readonly byResult: Record<string, number> = {};
  private slot = 0n;
  private lastNs: bigint;

  constructor(options: LivingLedgerOptions) {
    this.seed = String(options.seed ?? 1);
    this.tps = options.tps ?? 20;
    if (!(this.tps > 0 && this.tps <= MAX_TPS)) {
      throw new RangeError(`tps must be in (0, ${MAX_TPS}], got ${this.tps}`);
    }
    this.clock = options.clock ?? Date.now;
    this.lagNs = timestampFromMillis(options.lagMs ?? 2000);
    this.fileNs = timestampFromMillis(options.recordFileMs ?? 2000);
    this.late = options.lateVisibility ?? { fraction: 0, delay_ms: 10_000 };
    this.intervalNs = BigInt(Math.max(MAX_RECORDS_PER_CALL + 1, Math.round(1e9 / this.tps)));
    this.maxCatchUpNs = timestampFromMillis(options.maxCatchUpMs ?? 60_000);
    this.startNs = timestampFromMillis(options.startMs ?? this.clock());
    this.lastNs = this.startNs - 1n;
    this.store = options.store ?? new SimulatorStore();
    this.traffic = createTraffic({ ...options.traffic, seed: this.seed });
    this.lateRng = createRng(`late:${this.seed}`);
    this.retention = options.retention === undefined ? DEFAULT_RETENTION : options.retention;
    validateRetention(this.retention);
    this.addInitialEntities();
    createLivingTokens(this.store.balances, this.traffic.population, this.startNs - 1n);
  }

  private addInitialEntities(): void {
    for (const num of [TREASURY, ...NODES, FEE_COLLECTOR, STAKING_REWARD_ACCOUNT]) {
      this.store.addEntity({ id: BigInt(num) });
    }
    for (const account of this.traffic.population.accounts) this.store.addEntity(accountEntity(account));
    for (const c of this.traffic.population.contracts) {
      this.store.addEntity({ id: BigInt(c.num), evmAddress: c.evmAddress, type: 'CONTRACT' });
      this.truth.addContract(c.num, c.evmAddress, null);
    }
  }

  nowNs(): bigint {
    return timestampFromMillis(this.clock());
  }

  inject(spec: InjectSpec): void {
    injectOverrides(spec, this.traffic.population);
    this.queue.push(spec);
  }

  advance(): GeneratedRecord[] {
    const nowNs = this.nowNs();
    const out: GeneratedRecord[] = [];
    for (let spec = this.queue.shift(); spec; spec = this.queue.shift()) {
      const records = this.traffic.generate(this.lastNs + 1n, injectOverrides(spec, this.traffic.population));
      this.commit(spec.wire ? withWire(records, spec.wire) : records, out);
    }
    const due = nowNs >= this.startNs ? (nowNs - this.startNs) / this.intervalNs + 1n : 0n;
    const oldest = (nowNs - this.maxCatchUpNs - this.startNs) / this.intervalNs;
    if (oldest > this.slot) {
      this.counters.skippedSlots += Number(oldest - this.slot);
      this.slot = oldest;
    }
    for (; this.slot < due; this.slot++) {
      const slotNs = this.startNs + this.slot * this.intervalNs;
      this.commit(this.traffic.generate(slotNs > this.lastNs ? slotNs : this.lastNs + 1n), out);
    }
    this.prune(nowNs);
    return out;
  }

  /** Drops what is past the horizon once it is an eighth beyond it, so the pruning cost is amortized. */
  private prune(nowNs: bigint): void {
    if (this.retention === null) return;
    const { ms, maxTransactions } = this.retention;
    const oldest = this.store.nthNewestTimestamp(this.store.transactionCount);
    if (oldest === undefined) return;
    let cut = 0n;
    if (ms !== undefined) {
      const horizonNs = timestampFromMillis(ms);
      if (oldest < nowNs - horizonNs - horizonNs / 8n) cut = nowNs - horizonNs;
    }
    if (maxTransactions !== undefined && this.store.transactionCount > maxTransactions * 1.125) {
      const keep = this.store.nthNewestTimestamp(maxTransactions) as bigint;
      if (keep > cut) cut = keep;
    }
    if (cut === 0n) return;
    this.counters.pruned += this.store.pruneBefore(cut);
    this.truth.pruneBefore(cut);
  }

  /** A record is served from the end of its record file plus the lag; a late one `delay_ms` after that. */
  private visibility(consensusNs: bigint): { visibleAt: bigint; late: boolean } {
    const closes = (consensusNs / this.fileNs + 1n) * this.fileNs;
    const held = this.late.fraction > 0 && this.lateRng.chance(this.late.fraction);
    const delay = held ? timestampFromMillis(this.late.delay_ms) : 0n;
    return { visibleAt: closes + this.lagNs + delay, late: held };
  }

  private commit(records: GeneratedRecord[], out: GeneratedRecord[]): void {
    this.counters.transactions++;
    for (const record of records) {
      const { visibleAt, late } = this.visibility(record.tx.consensusTimestamp);
      commitRecord(this.store, this.truth, record, visibleAt, late);
      this.counters.actions += record.actions.length;
      count(this.byType, record.tx.json.name as string);
      count(this.byResult, record.tx.json.result as string);
      this.lastNs = record.tx.consensusTimestamp;
      out.push(record);
    }
  }

  stats(): LedgerStats {
    const nowNs = this.nowNs();
    return {
      seed: this.seed,
      tps: this.tps,
      lagMs: Number(this.lagNs / 1_000_000n),
      recordFileMs: Number(this.fileNs / 1_000_000n),
      lateVisibility: this.late,
      nowNs,
      ...this.counters,
      records: this.truth.recordCount,
      retained: this.store.transactionCount,
      rewards: this.truth.rewardCount,
      contracts: this.truth.contractCount,
      ...this.truth.pending(nowNs),
      byType: { ...this.byType },
      byResult: { ...this.byResult },
    };
  }
}
