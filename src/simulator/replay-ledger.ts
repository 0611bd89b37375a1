// The replay ledger: the living ledger's traffic for load tests at the ledger's design peak (10,000 TPS and
// beyond), at a fraction of its cost. Each transaction is generated once, serialized once to its wire bytes and
// kept in a ring ordered by consensus timestamp, with nothing else: no per-account index, no ground truth, no
// entities, no late rows. A page for `timestamp=gt:X&limit=N&order=asc` is two binary searches and a slice of
// pre-built buffers. Visibility follows the living ledger (the end of the record file plus the ingestion lag), so
// it rises with the timestamp and the visible records are always a prefix of the ring.
import { timestampFromMillis } from '../ledger/timestamp.js';
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
  const tps = options.tps ?? 10_000;
  if (!(tps > 0 && tps <= 1_000_000))
    throw new RangeError(`replay ledger: tps must be in (0, 1000000], got ${tps}`);
  const clock = options.clock ?? Date.now;
  const fileNs = timestampFromMillis(options.recordFileMs ?? 2000);
  const lagNs = timestampFromMillis(options.lagMs ?? 2000);
  const retentionNs = timestampFromMillis(options.retentionMs ?? 60_000);
  const maxCatchUpNs = timestampFromMillis(options.maxCatchUpMs ?? 10_000);
  // Room for the child records of one logical transaction at consecutive nanoseconds, as the living ledger.
  const intervalNs = BigInt(Math.max(MAX_RECORDS_PER_CALL + 1, Math.round(1e9 / tps)));
  const startNs = timestampFromMillis(options.startMs ?? clock());
  const traffic: Traffic = createTraffic({
    seed: String(options.seed ?? 1),
    accounts: options.accounts ?? 20_000,
  });
  const ring: ReplayRecord[] = [];
  let head = 0; // index of the oldest retained record in `ring`
  let slot = 0n;
  let lastNs = startNs - 1n;
  const counters = { transactions: 0, pruned: 0, skippedSlots: 0 };

  const visibleAt = (ts: bigint) => (ts / fileNs + 1n) * fileNs + lagNs;

  function generate(nowNs: bigint): void {
    const due = nowNs >= startNs ? (nowNs - startNs) / intervalNs + 1n : 0n;
    const oldest = (nowNs - maxCatchUpNs - startNs) / intervalNs;
    if (oldest > slot) {
      counters.skippedSlots += Number(oldest - slot);
      slot = oldest;
    }
    for (; slot < due; slot++) {
      const slotNs = startNs + slot * intervalNs;
      for (const { tx } of traffic.generate(slotNs > lastNs ? slotNs : lastNs + 1n)) {
        ring.push({
          ts: tx.consensusTimestamp,
          visibleAt: visibleAt(tx.consensusTimestamp),
          bytes: Buffer.from(serializeJson(tx.json)),
        });
        lastNs = tx.consensusTimestamp;
        counters.transactions++;
      }
    }
  }

  function prune(nowNs: bigint): void {
    const cut = nowNs - retentionNs;
    while (head < ring.length && (ring[head] as ReplayRecord).ts < cut) {
      head++;
      counters.pruned++;
    }
    if (head >= COMPACT_AT) {
      ring.splice(0, head);
      head = 0;
    }
  }

  return {
    advance() {
      const nowNs = timestampFromMillis(clock());
      generate(nowNs);
      prune(nowNs);
    },
    page(query) {
      // Visibility rises with the timestamp: everything visible is before the first record not yet visible.
      const visibleEnd = firstIndex(ring, head, (r) => r.visibleAt > query.nowNs);
      const from =
        query.lower === null ? head : firstIndex(ring, head, (r) => r.ts >= (query.lower as bigint));
      const upper = query.upper;
      const to = Math.min(
        visibleEnd,
        upper === null ? ring.length : firstIndex(ring, head, (r) => r.ts > upper),
      );
      if (from >= to) return [];
      return query.order === 'asc'
        ? ring.slice(from, Math.min(to, from + query.limit))
        : ring.slice(Math.max(from, to - query.limit), to).reverse();
    },
    oldestNs: () => ring[head]?.ts,
    stats() {
      return { tps, ...counters, retained: ring.length - head, nowNs: timestampFromMillis(clock()) };
    },
  };
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
