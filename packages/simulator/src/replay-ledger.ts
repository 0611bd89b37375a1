// The replay ledger: the living ledger's traffic for load tests at the ledger's design peak (10,000 TPS and
// beyond), at a fraction of its cost. Each transaction is generated once, serialized once to its wire bytes and
// kept in a ring ordered by consensus timestamp, with nothing else: no per-account index, no ground truth, no
// entities, no late rows. A page for `timestamp=gt:X&limit=N&order=asc` is two binary searches and a slice of
// pre-built buffers. Visibility follows the living ledger (the end of the record file plus the ingestion lag), so
// it rises with the timestamp and the visible records are always a prefix of the ring.
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { serializeJson } from './json.js';
import { createTraffic, MAX_RECORDS_PER_CALL, type Traffic } from './traffic.js';

export interface ReplayLedgerOptions {
  readonly seed?: number | string;
  /** Transactions per second (default 10,000). */
  readonly tps?: number;
  /** Record-file cadence and ingestion lag, ms (defaults 2000 and 2000, as the living ledger). */
  readonly recordFileMs?: number;
  readonly lagMs?: number;
  /** Milliseconds since the epoch (default Date.now). */
  readonly clock?: () => number;
  /** Generation starts here, ms (default the clock at creation). */
  readonly startMs?: number;
  /** Ledger time kept behind the clock, ms (default 60 000); older records are dropped, queries for them answer empty. */
  readonly retentionMs?: number;
  /** At most this much ledger time is generated in one catch-up; older slots are skipped (default 10 000 ms). */
  readonly maxCatchUpMs?: number;
  /** Traffic population size (default 20,000 accounts). */
  readonly accounts?: number;
}

/** One served transaction: its consensus timestamp, when it becomes visible, and its wire JSON. */
export interface ReplayRecord {
  readonly ts: bigint;
  readonly visibleAt: bigint;
  readonly bytes: Buffer;
}

export interface ReplayQuery {
  /** Inclusive bounds, ns; null = open. */
  readonly lower: bigint | null;
  readonly upper: bigint | null;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly nowNs: bigint;
}

export interface ReplayStats {
  readonly tps: number;
  /** Transactions (records, child records included) generated so far. */
  readonly transactions: number;
  readonly retained: number;
  readonly pruned: number;
  readonly skippedSlots: number;
  readonly nowNs: bigint;
}

export interface ReplayLedger {
  /** Generates everything due up to the clock and drops what is past retention. */
  advance(): void;
  /** The visible records in [lower, upper], in order, at most `limit`. */
  page(query: ReplayQuery): readonly ReplayRecord[];
  /** Consensus timestamp of the oldest retained record (undefined when none). */
  oldestNs(): bigint | undefined;
  stats(): ReplayStats;
}

/** Entries dropped from the front of the ring before it is compacted (amortizes the splice). */
const COMPACT_AT = 65_536;

export function createReplayLedger(options: ReplayLedgerOptions = {}): ReplayLedger {
  return new Replay(options);
}

class Replay implements ReplayLedger {
  private readonly tps: number;
  private readonly clock: () => number;
  private readonly fileNs: bigint;
  private readonly lagNs: bigint;
  private readonly retentionNs: bigint;
  private readonly maxCatchUpNs: bigint;
  private readonly intervalNs: bigint;
  private readonly startNs: bigint;
  private readonly traffic: Traffic;
  private readonly ring: ReplayRecord[] = [];
  /** Index of the oldest retained record in `ring`. */
  private head = 0;
  private slot = 0n;
  private lastNs: bigint;
  private readonly counters = { transactions: 0, pruned: 0, skippedSlots: 0 };

  constructor(options: ReplayLedgerOptions) {
    this.tps = options.tps ?? 10_000;
    if (!(this.tps > 0 && this.tps <= 1_000_000))
      throw new RangeError(`replay ledger: tps must be in (0, 1000000], got ${this.tps}`);
    this.clock = options.clock ?? Date.now;
    this.fileNs = timestampFromMillis(options.recordFileMs ?? 2000);
    this.lagNs = timestampFromMillis(options.lagMs ?? 2000);
    this.retentionNs = timestampFromMillis(options.retentionMs ?? 60_000);
    this.maxCatchUpNs = timestampFromMillis(options.maxCatchUpMs ?? 10_000);
    // Room for the child records of one logical transaction at consecutive nanoseconds, as the living ledger.
    this.intervalNs = BigInt(Math.max(MAX_RECORDS_PER_CALL + 1, Math.round(1e9 / this.tps)));
    this.startNs = timestampFromMillis(options.startMs ?? this.clock());
    this.lastNs = this.startNs - 1n;
    this.traffic = createTraffic({ seed: String(options.seed ?? 1), accounts: options.accounts ?? 20_000 });
  }

  advance(): void {
    const nowNs = timestampFromMillis(this.clock());
    this.generate(nowNs);
    this.prune(nowNs);
  }

  page(query: ReplayQuery): readonly ReplayRecord[] {
    const { ring, head } = this;
    // Visibility rises with the timestamp: everything visible is before the first record not yet visible.
    const visibleEnd = firstIndex(ring, head, (r) => r.visibleAt > query.nowNs);
    const lower = query.lower;
    const upper = query.upper;
    const from = lower === null ? head : firstIndex(ring, head, (r) => r.ts >= lower);
    const to = Math.min(
      visibleEnd,
      upper === null ? ring.length : firstIndex(ring, head, (r) => r.ts > upper),
    );
    if (from >= to) return [];
    return query.order === 'asc'
      ? ring.slice(from, Math.min(to, from + query.limit))
      : ring.slice(Math.max(from, to - query.limit), to).reverse();
  }

  oldestNs(): bigint | undefined {
    return this.ring[this.head]?.ts;
  }

  stats(): ReplayStats {
    const nowNs = timestampFromMillis(this.clock());
    return { tps: this.tps, ...this.counters, retained: this.ring.length - this.head, nowNs };
  }

  private generate(nowNs: bigint): void {
    const { startNs, intervalNs } = this;
    const due = nowNs >= startNs ? (nowNs - startNs) / intervalNs + 1n : 0n;
    const oldest = (nowNs - this.maxCatchUpNs - startNs) / intervalNs;
    if (oldest > this.slot) {
      this.counters.skippedSlots += Number(oldest - this.slot);
      this.slot = oldest;
    }
    for (; this.slot < due; this.slot++) {
      const slotNs = startNs + this.slot * intervalNs;
      for (const { tx } of this.traffic.generate(slotNs > this.lastNs ? slotNs : this.lastNs + 1n)) {
        const ts = tx.consensusTimestamp;
        // A record is served from the end of its record file plus the lag, as in the living ledger.
        const visibleAt = (ts / this.fileNs + 1n) * this.fileNs + this.lagNs;
        this.ring.push({ ts, visibleAt, bytes: Buffer.from(serializeJson(tx.json)) });
        this.lastNs = ts;
        this.counters.transactions++;
      }
    }
  }

  private prune(nowNs: bigint): void {
    const cut = nowNs - this.retentionNs;
    while (this.head < this.ring.length && (this.ring[this.head] as ReplayRecord).ts < cut) {
      this.head++;
      this.counters.pruned++;
    }
    if (this.head >= COMPACT_AT) {
      this.ring.splice(0, this.head);
      this.head = 0;
    }
  }
}

/** The first index at or after `from` where the (monotonic: false…false, true…true) predicate holds. */
function firstIndex(list: readonly ReplayRecord[], from: number, test: (r: ReplayRecord) => boolean): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(list[mid] as ReplayRecord)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
