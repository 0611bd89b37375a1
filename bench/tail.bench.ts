// Requests and staleness of the two tail strategies (and auto's pick) for 10, 1,000 and 10,000 watched
// accounts on the living simulator at 200 TPS, against the minimum pages the new records need.
//
// Time is simulated: each round the ledger moves on by max(poll interval, requests / budget) — what the
// shared 50 requests/s budget would make a round last — so a minute of ledger time runs in seconds.
// Staleness is sampled just before each round (its worst moment), over every watched stream; it includes the
// simulator's 2 s ingestion lag and record-file cadence. 2 % of rows are held back 6 s (late visibility).
// Run: npm run bench:tail
import { createLedgerClient } from '../src/ledger/client.js';
import { openStateStore } from '../src/state/store.js';
import { clientTailSource } from '../src/tail/client-source.js';
import { AccountsConfig, TailConfig, watchedAccounts } from '../src/tail/config.js';
import type { RecordHandler } from '../src/tail/record-handler.js';
import { createTailer } from '../src/tail/tailer.js';
import { startTailLedger } from '../test/integration/tail/living-ledger.js';

const TPS = 200;
const BUDGET = 50;
const INTERVAL_MS = 2_000;
const LEDGER_MINUTES = 1;

interface Row {
  accounts: number;
  strategy: string;
  chosen: string;
  requestsPerMinute: number;
  requestsPerSecond: number;
  minPagesPerMinute: number;
  p99Staleness: number;
  maxStaleness: number;
}

async function measure(accounts: number, strategy: 'per-account' | 'global' | 'auto'): Promise<Row> {
  const startMs = 1_700_000_000_000;
  const ledger = await startTailLedger({
    seed: `bench-${accounts}`,
    accounts: Math.max(200, accounts * 2),
    tps: TPS,
    lateFraction: 0.02,
    delayMs: 6_000,
    startMs,
  });
  ledger.advance(30_000);
  const client = createLedgerClient({ baseUrl: ledger.url, requestsPerSecond: 1e9 });
  const watched = watchedAccounts(
    AccountsConfig.parse(
      Array.from({ length: accounts }, (_, i) => ({
        id: ledger.accounts[2 * i]?.num,
        sources: ['transactions'],
      })),
    ),
  );
  let delivered = 0;
  const handler: RecordHandler<number> = {
    prepare: async (b) => b.length,
    apply: (n) => void (delivered += n),
  };
  const tailer = createTailer({
    store: openStateStore({ dir: ':memory:' }),
    source: clientTailSource(client),
    handler,
    accounts: watched,
    config: TailConfig.parse({ strategy, poll_interval: `${INTERVAL_MS}ms`, concurrency: 16 }),
    clock: ledger.now,
  });
  const signal = new AbortController().signal;
  await tailer.round(signal); // start: cursors at the head, strategy chosen
  const before = ledger.requests();
  let minPages = 0;
  let roundMs = INTERVAL_MS;
  let spentMs = 0;
  const p99: number[] = [];
  let max = 0;
  for (let rounds = 0; spentMs < LEDGER_MINUTES * 60_000 || rounds < 3; rounds++) {
    ledger.advance(roundMs);
    const s = tailer.staleness();
    p99.push(s.p99);
    max = Math.max(max, s.max);
    const requestsBefore = ledger.requests();
    const deliveredBefore = delivered;
    await tailer.round(signal);
    const requests = ledger.requests() - requestsBefore;
    minPages += Math.ceil((delivered - deliveredBefore) / 100);
    roundMs = Math.max(INTERVAL_MS, (requests * 1000) / BUDGET);
    spentMs += roundMs;
  }
  const minutes = spentMs / 60_000;
  const requests = ledger.requests() - before;
  await client.close();
  await ledger.close();
  return {
    accounts,
    strategy,
    chosen: tailer.strategy() ?? '-',
    requestsPerMinute: Math.round(requests / minutes),
    requestsPerSecond: round1(requests / minutes / 60),
    minPagesPerMinute: Math.round(minPages / minutes),
    p99Staleness: round1(Math.max(...p99)),
    maxStaleness: round1(max),
  };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

const rows: Row[] = [];
for (const accounts of [10, 1_000, 10_000])
  for (const strategy of ['per-account', 'global', 'auto'] as const)
    rows.push(await measure(accounts, strategy));

console.log(
  `tail strategies at ${TPS} TPS, poll interval ${INTERVAL_MS / 1000}s, budget ${BUDGET} req/s, overlap 10s`,
);
console.table(
  rows.map((r) => ({
    accounts: r.accounts,
    strategy: r.strategy === 'auto' ? `auto→${r.chosen}` : r.strategy,
    'req/min': r.requestsPerMinute,
    'req/s': r.requestsPerSecond,
    'min pages/min': r.minPagesPerMinute,
    'req ÷ min pages': r.minPagesPerMinute > 0 ? round1(r.requestsPerMinute / r.minPagesPerMinute) : '-',
    'p99 staleness s': r.p99Staleness,
    'max staleness s': r.maxStaleness,
  })),
);
