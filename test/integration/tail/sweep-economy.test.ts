// What the global sweep costs and what it still guarantees (docs/tailing.md, "The request floor"), on the
// simulator's living ledger with the late-visibility fault: in the steady state the sweep re-reads every row
// once (the floor: at most twice the minimum) and hands over each held-back row the head read ran past; after
// a restart on a two-minute backlog the head read proves the backlog complete and the sweep skips it — with
// nothing missed and nothing twice either way.
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../../src/ledger/client.js';
import { createMetrics, type Metrics } from '../../../src/observability/metrics.js';
import { openStateStore, type StateStore } from '../../../src/state/store.js';
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { clientTailSource } from '../../../src/tail/source/client-source.js';
import { watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { TailConfig } from '../../../src/tail/tail-config.js';
import { createTailer } from '../../../src/tail/tailer.js';
import { compare, groundTruth, recordingHandler, watchEntries } from './harness.js';
import { startTailLedger, type TailLedger } from './living-ledger.js';

const START_MS = 1_700_000_000_000;
const START = BigInt(START_MS) * 1_000_000n;
const signal = new AbortController().signal;

let ledger: TailLedger | undefined;
let client: LedgerClient | undefined;
let store: StateStore | undefined;

afterEach(async () => {
  await client?.close();
  await ledger?.close();
  store?.close();
});

async function arrange(seed: string) {
  ledger = await startTailLedger({
    seed,
    accounts: 60,
    tps: 50,
    lateFraction: 0.05,
    delayMs: 8_000,
    startMs: START_MS,
  });
  client = createLedgerClient({ baseUrl: ledger.url, requestsPerSecond: 1e6 });
  store = openStateStore({ dir: ':memory:' });
  const accounts = watchedAccounts(watchEntries(ledger.accounts, 12, 4));
  const handler = recordingHandler();
  const metrics = createMetrics();
  const tailer = () =>
    createTailer({
      store: store as StateStore,
      source: clientTailSource(client as LedgerClient),
      handler,
      accounts,
      config: TailConfig.parse({ strategy: 'global', start: String(START_MS / 1000) }),
      metrics,
      clock: (ledger as TailLedger).now,
    });
  return { ledger, client, accounts, handler, metrics, tailer };
}

/**
 * Keys at least 30 s older than now: a row held back 8 s is visible about 12 s after its consensus time and
 * swept within overlap + sweep_interval after that; a younger held-back row may rightly still be on its way.
 */
function settled(keys: Iterable<string>, nowMs: number): string[] {
  const cutoff = BigInt(nowMs - 30_000) * 1_000_000n;
  return [...keys].filter((k) => parseTimestamp(k.split(':')[2] ?? '0') <= cutoff);
}

async function pages(metrics: Metrics): Promise<{ head: number; sweep: number }> {
  const values = (await metrics.globalPages.get()).values;
  const of = (read: string) => values.find((v) => v.labels.read === read)?.value ?? 0;
  return { head: of('head'), sweep: of('sweep') };
}

async function rounds(ledger: TailLedger, tailer: { round(s: AbortSignal): Promise<unknown> }, n: number) {
  for (let i = 0; i < n; i++) {
    ledger.advance(2_000);
    await tailer.round(signal);
  }
}

describe('the global sweep', () => {
  it('steady state: re-reads each row once (≤ 2 × the head read) and hands over every held-back row', async () => {
    const a = await arrange('sweep-steady');
    const tailer = a.tailer();

    await rounds(a.ledger, tailer, 100);
    a.ledger.advance(60_000);
    await rounds(a.ledger, tailer, 3);
    const truth = await groundTruth(a.client, a.accounts, START);
    const read = await pages(a.metrics);
    const late = (await a.metrics.sweepLateRecords.get()).values[0]?.value ?? 0;

    expect(a.ledger.heldBack()).toBeGreaterThan(100);
    const now = a.ledger.now();
    const result = compare(settled(a.handler.keys, now), new Set(settled(truth, now)));
    expect(result).toEqual({ missing: [], duplicated: [], unexpected: [] });
    expect(compare(a.handler.keys, truth).duplicated).toEqual([]);
    expect(late).toBeGreaterThan(0);
    // 100 rows a round fill one page plus a short one; the sweep reads the same rows in full pages.
    expect(read.sweep).toBeGreaterThan(0.8 * (read.head / 2));
    expect(read.sweep).toBeLessThanOrEqual(read.head);
  });

  it('after a restart on a two-minute backlog, the sweep skips what the head read proved complete', async () => {
    const a = await arrange('sweep-backlog');
    await rounds(a.ledger, a.tailer(), 20);
    const before = await pages(a.metrics);

    a.ledger.advance(120_000); // the daemon is down; 6,000 rows and their held-back share pile up
    const restarted = a.tailer();
    await rounds(a.ledger, restarted, 5);
    const after = await pages(a.metrics);
    await rounds(a.ledger, restarted, 20);
    a.ledger.advance(60_000);
    await rounds(a.ledger, restarted, 3);
    const truth = await groundTruth(a.client, a.accounts, START);

    const head = after.head - before.head;
    const sweep = after.sweep - before.sweep;
    expect(head).toBeGreaterThan(60); // the backlog: 6,000 rows in pages of 100
    expect(sweep).toBeLessThan(head / 4); // without the proof the sweep would read the backlog again
    const now = a.ledger.now();
    const result = compare(settled(a.handler.keys, now), new Set(settled(truth, now)));
    expect(result).toEqual({ missing: [], duplicated: [], unexpected: [] });
    expect(compare(a.handler.keys, truth).duplicated).toEqual([]);
  });
});
