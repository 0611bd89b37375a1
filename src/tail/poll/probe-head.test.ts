// The head probe against the embedded simulator, with the 60-day range binding on (the public mainnet, the
// living ledger's default) and off: it finds the newest visible row however old it is, in a bounded number of
// requests, and `start: now` begins there.
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../ledger/client.js';
import { parseTimestamp, timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator, type RunningSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { openStateStore } from '../../state/store.js';
import { clientTailSource } from '../source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { TailConfig } from '../tail-config.js';
import { FutureRecords } from '../head/future-records.js';
import { HeadTracker } from '../head/head-tracker.js';
import { PROBE_MAX_PAGES, probeHead, recentFrom } from './probe-head.js';
import { type RecordHandler, recordTimestamp } from '../streams/record-handler.js';
import type { TailContext } from '../poll/poll-context.js';
import type { TailSource } from '../source/listing-source.js';
import { CursorStore } from '../cursor/cursor-store.js';
import { createTailer } from '../tailer.js';

const NOW_MS = 1_700_000_000_000;
const NOW = timestampFromMillis(NOW_MS);
const SECOND = 1_000_000_000n;
const DAY = 86_400n * SECOND;
const signal = new AbortController().signal;

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/** 150 rows one second apart, the newest `age` before now. */
async function staticLedger(age: bigint, bind: boolean, rows = 150) {
  const store = new SimulatorStore();
  for (let i = 0; i < rows; i++)
    store.addTransaction(makeSimTransaction(sampleTransactionRow(NOW - age - BigInt(i) * SECOND, 1000n)));
  const config = defaultSimulatorConfig({ bindTimestampRange: bind, now: () => NOW });
  const running: RunningSimulator = await startSimulator({ store, config });
  return connect(running.url, () => running.close());
}

function connect(url: string, close: () => Promise<void>) {
  const client: LedgerClient = createLedgerClient({ baseUrl: url });
  closers.push(close, () => client.close());
  const requests: string[] = [];
  const inner = clientTailSource(client);
  const source: TailSource = {
    async *transactions(query, options) {
      for await (const page of inner.transactions(query, options)) {
        requests.push(page.url);
        yield page;
      }
    },
    rewards: (path, query, options) => inner.rewards(path, query, options),
  };
  return { source, requests };
}

function context(source: TailSource): TailContext {
  return {
    state: new CursorStore(openStateStore({ dir: ':memory:' })),
    source,
    handler: { prepare: async () => null, apply: () => undefined },
    head: new HeadTracker(),
    future: new FutureRecords({ clock: () => NOW_MS, maxClockSkewMs: 300_000 }),
    overlapNs: 10n * SECOND,
    pageLimit: 100,
  };
}

describe('probeHead', () => {
  it.each([
    [true, '10 s', 10n * SECOND],
    [false, '10 s', 10n * SECOND],
    [true, '10 days', 10n * DAY],
    [false, '10 days', 10n * DAY],
    [true, '100 days', 100n * DAY],
    [false, '100 days', 100n * DAY],
  ])('binding %s, newest row %s old: finds it and samples the rate', async (bind, _label, age) => {
    const { source } = await staticLedger(age, bind);
    const ctx = context(source);

    const pages = await probeHead(ctx, signal, NOW);

    expect(ctx.head.head).toBe(NOW - age);
    expect(ctx.head.tps).toBeCloseTo(1);
    expect(pages).toBeLessThanOrEqual(1 + PROBE_MAX_PAGES);
  });

  it('asks for the last day only, up to now + max_clock_skew, in one request, when the ledger is live', async () => {
    const { source, requests } = await staticLedger(10n * SECOND, true);

    await probeHead(context(source), signal, NOW);

    expect(requests).toEqual([
      '/api/v1/transactions?timestamp=gt:1699913600.000000000&timestamp=lte:1700000300.000000000&limit=100&order=desc',
    ]);
  });

  it('gives up on an empty ledger within the page bound, and walks back only once', async () => {
    const { source, requests } = await staticLedger(0n, true, 0);
    const ctx = context(source);

    const first = await probeHead(ctx, signal, NOW);
    const second = await probeHead(ctx, signal, NOW);

    expect(ctx.head.head).toBeUndefined();
    expect(first).toBe(1 + PROBE_MAX_PAGES);
    expect(second).toBe(1);
    expect(requests).toHaveLength(2 + PROBE_MAX_PAGES);
  });

  it('follows next through an empty page after a known head older than 60 days (binding on)', async () => {
    const { source } = await staticLedger(100n * DAY, true);
    const ctx = context(source);
    ctx.head.observe(NOW - 100n * DAY - 10n * SECOND);

    await probeHead(ctx, signal, NOW);

    expect(ctx.head.head).toBe(NOW - 100n * DAY);
  });
});

describe('start: now on the living ledger', () => {
  it.each([true, false])(
    'binding %s: the first round starts at the newest visible row and estimates the rate',
    async (bind) => {
      const clock = () => NOW_MS;
      const ledger: RunningLivingLedger = await startLivingLedger({
        seed: 'probe',
        tps: 20,
        clock,
        startMs: NOW_MS - 60_000,
        bindTimestampRange: bind,
      });
      const { source } = connect(ledger.url, () => ledger.close());
      const store = openStateStore({ dir: ':memory:' });
      const accounts = watchedAccounts(AccountsConfig.parse([{ id: 1003, sources: ['transactions'] }]));
      const handler = { prepare: async () => null, apply: () => undefined };
      const config = TailConfig.parse({ strategy: 'per-account', start: 'now' });
      const tailer = createTailer({ store, source, handler, accounts, config, clock });
      ledger.ledger.advance();
      const [newest] = ledger.ledger.store.scanTransactions(
        { lower: null, upper: null, order: 'desc', limit: 1, nowNs: NOW },
        () => true,
      );

      await tailer.round(signal);

      expect(newest).toBeDefined();
      expect(tailer.head.head).toBe(newest?.tx.consensusTimestamp);
      expect(new CursorStore(store).cursor('tx:0.0.1003')?.safe).toBe(newest?.tx.consensusTimestamp);
      expect(tailer.head.tps).toBeGreaterThan(10);
    },
  );
});

describe('start: now before the service shows any row', () => {
  it('starts where the empty search began, so rows older than the wall clock that show up later are read', async () => {
    let now = NOW_MS - 500;
    const ledger = await startLivingLedger({
      seed: 'fresh',
      tps: 20,
      clock: () => now,
      startMs: NOW_MS - 1000,
    });
    const { source } = connect(ledger.url, () => ledger.close());
    ledger.ledger.advance();
    ledger.ledger.inject(largeDebit('0.0.1003', 5_000_000_000_000n, '0.0.1001'));
    ledger.ledger.advance(); // consensus time NOW − 0.5 s, visible only after its record file closes + 2 s lag
    now = NOW_MS;
    const delivered: bigint[] = [];
    const handler: RecordHandler<readonly bigint[]> = {
      prepare: async (batch) => batch.map((r) => parseTimestamp(recordTimestamp(r))),
      apply: (stamps) => delivered.push(...stamps),
    };
    const accounts = watchedAccounts(AccountsConfig.parse([{ id: 1003, sources: ['transactions'] }]));
    const config = TailConfig.parse({ strategy: 'per-account', start: 'now' });
    const store = openStateStore({ dir: ':memory:' });
    const tailer = createTailer({ store, source, handler, accounts, config, clock: () => now });

    await tailer.round(signal);
    const startedAt = new CursorStore(store).cursor('tx:0.0.1003');
    now = NOW_MS + 10_000;
    await tailer.round(signal);

    expect(startedAt).toEqual({ safe: recentFrom(NOW), read: NOW });
    expect(delivered.filter((ts) => ts < NOW)).not.toEqual([]);
  });
});
