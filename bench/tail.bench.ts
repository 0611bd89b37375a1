// Requests and staleness of the two tail strategies (and auto's pick) for 10, 1,000 and 10,000 watched
// accounts, each with a transactions and a rewards stream, on the living simulator at 200 TPS, against the
// minimum pages the new records need. The global strategy runs in both of its modes: `global` is the default
// `immediate` (head read every poll + a bounded sweep per sweep_interval), `global settled` reads only rows at
// or below head − overlap (docs/tailing.md, "Race safety").
//
// Time is simulated and moves only while something waits: every request goes through the client's real
// RequestBudget (50 requests/s, burst 50) whose clock is the ledger's and whose sleep moves the ledger on, and
// after each round the bench waits out the rest of the poll interval as tailer.run() does (without jitter).
// HTTP round trips take no simulated time. 2 % of rows are held back 6 s (late visibility).
//
// Minimum pages, per round, for the records that became visible since the previous round started:
//   global view       max(1, ceil(new transactions / 100))        (one chain, polled every round)
//   per-account view  Σ over streams of max(1, ceil(new records of the stream / 100)), where a transaction
//                     stream's records are the new transactions involving the account (the service's
//                     account.id union) and a rewards stream's are the account's new payouts; every stream is
//                     polled every round, so each costs at least one page.
// The head probe is overhead of the design and not in the minimum. auto uses the view of the strategy it ran;
// "req ÷ global min" divides by the global view for every row, the one yardstick across strategies.
// The measurement starts after WARMUP_MS of rounds (overlap + sweep interval), in the global modes' steady state.
// Staleness (now − read cursor, includes the simulator's 2 s ingestion lag) is sampled over every stream just
// before each round; p50 is the median over rounds of that moment's p50, p99 and max the worst over rounds.
//
// Run: npm run bench:tail [-- --accounts 10,1000]
import { loadavg } from 'node:os';
import { createLedgerClient } from '../src/ledger/client.js';
import { createRequestBudget } from '../src/ledger/request-budget.js';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { openStateStore } from '../src/state/store.js';
import type { GroundTruth } from '@ledger-sentinel/simulator/ground-truth';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { payerBranchEligible, type SimTransaction } from '@ledger-sentinel/simulator/store';
import { clientTailSource } from '../src/tail/source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../src/accounts/accounts-config.js';
import { TailConfig } from '../src/tail/tail-config.js';
import type { RecordHandler } from '../src/tail/streams/record-handler.js';
import type { Strategy } from '../src/tail/strategy/strategy-cost.js';
import { createTailer } from '../src/tail/tailer.js';
import { type Tailer } from '../src/tail/tailer-types.js';

const TPS = 200;
const BUDGET = 50;
const INTERVAL_MS = 2_000;
const MEASURE_MS = 60_000;
/**
 * Rounds before the measurement: overlap + sweep interval, so the global modes are in their steady state (a
 * settled read or a sweep only starts once head − overlap has passed the start position).
 */
const WARMUP_MS = 20_000;
const START_MS = 1_700_000_000_000;
/** Consensus time a record can be older than its visibility: record file + lag + late delay, rounded up. */
const VISIBILITY_SPAN_NS = timestampFromMillis(12_000);

interface SimLedger {
  readonly running: RunningLivingLedger;
  now(): number;
  advance(ms: number): void;
}

interface Row {
  readonly accounts: number;
  readonly strategy: string;
  readonly streams: number;
  readonly rounds: number;
  readonly requestsPerMinute: number;
  readonly minPagesPerMinute: number;
  readonly ratio: number;
  /** Requests ÷ the global view's minimum, whatever the strategy: the same yardstick for every row. */
  readonly globalRatio: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly wallSeconds: number;
}

async function startLedger(accounts: number): Promise<SimLedger> {
  let nowMs = START_MS;
  const running = await startLivingLedger({
    seed: `bench-${accounts}`,
    tps: TPS,
    lagMs: 2_000,
    recordFileMs: 2_000,
    lateVisibility: { fraction: 0.02, delay_ms: 6_000 },
    clock: () => nowMs,
    startMs: START_MS,
    maxCatchUpMs: 3_600_000,
    traffic: { accounts: Math.max(200, accounts * 2) },
  });
  const advance = (ms: number) => {
    nowMs += ms;
    running.ledger.advance();
  };
  return { running, now: () => nowMs, advance };
}

/** Accounts of the service's account.id union (docs/ledger-api.md §5.3) for one transaction. */
function unionOf(tx: SimTransaction): Set<bigint> {
  const accounts = new Set<bigint>(tx.transfers.map((t) => t.account));
  for (const t of tx.tokenTransfers) accounts.add(t.account);
  if (payerBranchEligible(tx)) accounts.add(tx.payer);
  return accounts;
}

/** The minimum pages of both views for what became visible in (fromNs, toNs]; see the header. */
function minPages(
  truth: GroundTruth,
  watched: ReadonlySet<bigint>,
  fromNs: bigint,
  toNs: bigint,
): Record<Strategy, number> {
  const range = { fromNs: fromNs - VISIBILITY_SPAN_NS, toNs };
  const fresh = (visibleAt: bigint) => visibleAt > fromNs && visibleAt <= toNs;
  const records = truth.transactions(range).filter((r) => fresh(r.visibleAt));
  const perStream = new Map<string, number>();
  const add = (key: string) => perStream.set(key, (perStream.get(key) ?? 0) + 1);
  for (const r of records) for (const a of unionOf(r.tx)) if (watched.has(a)) add(`t${a}`);
  for (const r of truth.rewards(range))
    if (fresh(r.visibleAt) && watched.has(r.accountId)) add(`r${r.accountId}`);
  let pages = watched.size * 2;
  for (const n of perStream.values()) pages += Math.max(1, Math.ceil(n / 100)) - 1;
  return { global: Math.max(1, Math.ceil(records.length / 100)), 'per-account': pages };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A strategy row of the table: the tail.strategy value, and for the global strategy its mode. */
type Contender = Strategy | 'auto' | 'global settled';

function tailConfig(contender: Contender): TailConfig {
  const [strategy, globalMode] =
    contender === 'global settled' ? (['global', 'settled'] as const) : ([contender, 'immediate'] as const);
  return TailConfig.parse({
    strategy,
    global_mode: globalMode,
    poll_interval: `${INTERVAL_MS}ms`,
    concurrency: 16,
  });
}

function createBenchTailer(ledger: SimLedger, ids: readonly number[], contender: Contender) {
  const budget = createRequestBudget({
    requestsPerSecond: BUDGET,
    clock: ledger.now,
    sleep: async (ms) => ledger.advance(ms),
  });
  const client = createLedgerClient({ baseUrl: ledger.running.url, budget, clock: ledger.now });
  const handler: RecordHandler<number> = { prepare: async (b) => b.length, apply: () => undefined };
  const tailer = createTailer({
    store: openStateStore({ dir: ':memory:' }),
    source: clientTailSource(client),
    handler,
    accounts: watchedAccounts(AccountsConfig.parse(ids.map((id) => ({ id })))),
    config: tailConfig(contender),
    clock: ledger.now,
  });
  return { tailer, client };
}

/** One round, then the rest of the poll interval. */
async function roundAndWait(ledger: SimLedger, tailer: Tailer, signal: AbortSignal): Promise<void> {
  const started = ledger.now();
  await tailer.round(signal);
  const rest = INTERVAL_MS - (ledger.now() - started);
  if (rest > 0) ledger.advance(rest);
}

async function measure(accounts: number, strategy: Contender): Promise<Row> {
  const wallStart = performance.now();
  const ledger = await startLedger(accounts);
  ledger.advance(30_000);
  const population = ledger.running.ledger.traffic.population.accounts;
  const ids = Array.from({ length: accounts }, (_, i) => population[2 * i]?.num as number);
  const watched = new Set(ids.map((id) => BigInt(id)));
  const { tailer, client } = createBenchTailer(ledger, ids, strategy);
  const signal = new AbortController().signal;
  const truth = ledger.running.ledger.truth;
  const requests = () => ledger.running.faultStats().requests;

  const warmupFrom = ledger.now();
  let prevNs = timestampFromMillis(ledger.now());
  await roundAndWait(ledger, tailer, signal); // start: cursors at the head, strategy chosen
  while (ledger.now() - warmupFrom < WARMUP_MS) {
    prevNs = timestampFromMillis(ledger.now()); // the first measured round counts from the last warm-up round
    await roundAndWait(ledger, tailer, signal);
  }
  const startMs = ledger.now();
  const requestsBefore = requests();
  const p50: number[] = [];
  const p99: number[] = [];
  let max = 0;
  let pages = 0;
  let globalPages = 0;
  let rounds = 0;
  for (; ledger.now() - startMs < MEASURE_MS || rounds < 3; rounds++) {
    const s = tailer.staleness();
    p50.push(s.p50);
    p99.push(s.p99);
    max = Math.max(max, s.max);
    const nowNs = timestampFromMillis(ledger.now());
    const min = minPages(truth, watched, prevNs, nowNs);
    pages += min[tailer.strategy() ?? 'per-account'];
    globalPages += min.global;
    prevNs = nowNs;
    await roundAndWait(ledger, tailer, signal);
  }
  const minutes = (ledger.now() - startMs) / 60_000;
  const sent = requests() - requestsBefore;
  await client.close();
  await ledger.running.close();
  const chosen = tailer.strategy() ?? '-';
  return {
    accounts,
    strategy: strategy === 'auto' ? `auto → ${chosen}` : strategy,
    streams: accounts * 2,
    rounds,
    requestsPerMinute: Math.round(sent / minutes),
    minPagesPerMinute: Math.round(pages / minutes),
    ratio: round2(sent / pages),
    globalRatio: round2(sent / globalPages),
    p50: round1(median(p50)),
    p99: round1(Math.max(...p99)),
    max: round1(max),
    wallSeconds: round1((performance.now() - wallStart) / 1000),
  };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function accountCounts(argv: readonly string[]): number[] {
  const at = argv.indexOf('--accounts');
  const list = at >= 0 ? (argv[at + 1] ?? '') : '10,1000,10000';
  return list.split(',').map(Number);
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const loadBefore = load();
const rows: Row[] = [];
for (const accounts of accountCounts(process.argv.slice(2)))
  for (const strategy of ['per-account', 'global', 'global settled', 'auto'] as const)
    rows.push(await measure(accounts, strategy));

console.log(
  `tail strategies at ${TPS} TPS, poll interval ${INTERVAL_MS / 1000}s, overlap 10s, ` +
    `requests through a ${BUDGET} req/s RequestBudget on simulated time; load average ${loadBefore} → ${load()}`,
);
console.table(
  rows.map((r) => ({
    accounts: r.accounts,
    strategy: r.strategy,
    streams: r.streams,
    rounds: r.rounds,
    'req/min': r.requestsPerMinute,
    'req/s': round1(r.requestsPerMinute / 60),
    'min pages/min': r.minPagesPerMinute,
    'req ÷ min pages': r.ratio,
    'req ÷ global min': r.globalRatio,
    'p50 staleness s': r.p50,
    'p99 staleness s': r.p99,
    'max staleness s': r.max,
    'wall s': r.wallSeconds,
  })),
);
