// A row dated inside tail.max_clock_skew — now + 40 s, on an account nobody watches, or a watched account's own
// staking reward — must not carry the head, and through it any other stream's cursor, past rows not written yet
// (issue: 0 of 6 markers alerted, every per-account cursor at head − overlap). On every strategy and for both
// record sources, against the simulator behind a real loopback HTTP server, on an injected clock: every marker
// written after the skewed row, with its own current time, is handed over exactly once; no cursor is ever ahead
// of the clock; the skewed row is counted and logged once (docs/tailing.md, "Timestamps from the future").
import { afterEach, describe, expect, it } from 'vitest';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { createLedgerClient } from '../../../src/ledger/client.js';
import { createMetrics } from '../../../src/observability/metrics.js';
import { openStateStore, type StateStore } from '../../../src/state/store.js';
import { clientTailSource } from '../../../src/tail/source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { TailConfig } from '../../../src/tail/tail-config.js';
import type { RecordHandler } from '../../../src/tail/streams/record-handler.js';
import { CursorStore } from '../../../src/tail/cursor/cursor-store.js';
import { createTailer } from '../../../src/tail/tailer.js';
import { captureLogs } from '../../helpers/log-capture.js';

const START_MS = 1_700_000_000_000;
const MS = 1_000_000n;
const A = 1001n;
const B = 1002n;
const UNWATCHED = 999n;
const REWARD_ACCOUNT = 800n;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A ledger whose rows the test writes, each visible at once. */
class Ledger {
  readonly store = new SimulatorStore();

  constructor() {
    for (const id of [A, B, UNWATCHED]) this.store.addEntity({ id: `0.0.${id}` });
  }

  transaction(ts: bigint, payer: bigint): string {
    this.store.addTransaction(makeSimTransaction(sampleTransactionRow(ts, payer)));
    return `tx:${formatTimestamp(ts)}`;
  }

  /** A staking reward payout: on the rewards endpoint and in the transaction's staking_reward_transfers. */
  payout(ts: bigint, account: bigint): string {
    const transfers = [
      { account: REWARD_ACCOUNT, amount: -5n },
      { account, amount: 5n },
    ];
    const row = sampleTransactionRow(ts, UNWATCHED, { transfers, stakingRewards: [{ account, amount: 5n }] });
    this.store.addTransaction(makeSimTransaction(row));
    this.store.addReward({ accountId: account, amount: 5n, timestamp: ts });
    return `rw:${formatTimestamp(ts)}`;
  }
}

function storeHandler(store: StateStore): RecordHandler<readonly string[]> {
  store.db.exec('CREATE TABLE IF NOT EXISTS delivered (k TEXT NOT NULL)');
  const insert = store.db.prepare('INSERT INTO delivered (k) VALUES (?)');
  return {
    prepare: async (batch) =>
      batch.map((r) =>
        r.source === 'transactions' ? `tx:${r.record.consensus_timestamp}` : `rw:${r.record.timestamp}`,
      ),
    apply: (keys) => {
      for (const k of keys) insert.run(k);
    },
  };
}

function delivered(store: StateStore): string[] {
  return (store.db.prepare('SELECT k FROM delivered').all() as { k: string }[]).map((r) => r.k);
}

async function setup(tail: Record<string, unknown>, binding: boolean) {
  const ledger = new Ledger();
  const s = { now: START_MS };
  const sim = await startSimulator({
    store: ledger.store,
    config: defaultSimulatorConfig({ now: () => BigInt(s.now) * MS, bindTimestampRange: binding }),
  });
  closers.push(() => sim.close());
  const client = createLedgerClient({ baseUrl: sim.url, requestsPerSecond: 10_000 });
  closers.push(() => client.close());
  const store = openStateStore({ dir: ':memory:' });
  closers.push(async () => store.close());
  const logs = captureLogs();
  const metrics = createMetrics();
  const tailer = createTailer({
    store,
    source: clientTailSource(client),
    handler: storeHandler(store),
    accounts: watchedAccounts(AccountsConfig.parse([{ id: `0.0.${A}` }, { id: `0.0.${B}` }])),
    config: TailConfig.parse({
      overlap: '10s',
      sweep_interval: '4s',
      start: formatTimestamp(BigInt(START_MS) * MS),
      ...tail,
    }),
    clock: () => s.now,
    metrics,
    logger: logs.logger,
    pageLimit: 25,
  });
  return { ledger, s, store, tailer, logs, metrics };
}

const STRATEGIES = [
  { strategy: 'per-account' },
  { strategy: 'global', global_mode: 'immediate' },
  { strategy: 'global', global_mode: 'settled' },
  { strategy: 'auto', reevaluate_rounds: 5 },
];
const SKEWED = ['an unwatched account’s transaction', 'a watched account’s staking reward'] as const;
// With the 60-day binding on (as on the public mainnet), a query without `lte:` stops at the service's own now, so
// only the head probe (`lte:` now + skew) sees the row early; without it, every query serves it at once.
const CASES = STRATEGIES.flatMap((tail) =>
  SKEWED.flatMap((skewed) => [true, false].map((binding) => ({ tail, skewed, binding }))),
);

describe('a row dated inside max_clock_skew', () => {
  it.each(CASES)('makes no stream skip a row ($skewed, $tail, binding $binding)', async (c) => {
    const { tail, skewed, binding } = c;
    const t = await setup(tail, binding);
    const signal = new AbortController().signal;
    const markers: string[] = [];
    const ahead: bigint[] = [];
    /** `ms` of ledger: each second a filler row (the head moves), then one round. */
    const step = async (ms: number, mark: boolean) => {
      for (let passed = 0; passed < ms; passed += 1000) {
        t.s.now += 1000;
        const now = BigInt(t.s.now) * MS;
        t.ledger.transaction(now - 100n * MS, UNWATCHED);
        if (!mark) continue;
        markers.push(t.ledger.transaction(now - 200n * MS, A), t.ledger.transaction(now - 300n * MS, B));
        markers.push(t.ledger.payout(now - 400n * MS, A), t.ledger.payout(now - 500n * MS, B));
      }
      await t.tailer.round(signal);
      const clock = BigInt(t.s.now) * MS;
      for (const c of new CursorStore(t.store).all().values()) ahead.push(c.safe - clock, c.read - clock);
    };
    for (let i = 0; i < 10; i++) await step(2_000, true);

    const at = BigInt(t.s.now) * MS + 40_000n * MS;
    const skewedKey =
      skewed === 'an unwatched account’s transaction'
        ? t.ledger.transaction(at, UNWATCHED)
        : t.ledger.payout(at, A);
    for (let i = 0; i < 25; i++) await step(2_000, true); // 50 s: past the skewed row's own time
    for (let i = 0; i < 10; i++) await step(2_000, false); // settled reads trail the head by the overlap

    const got = delivered(t.store);
    const missing = markers.filter((m) => !got.includes(m));
    expect(missing).toEqual([]);
    expect(got.length).toBe(new Set(got).size); // nothing twice
    if (skewed === 'a watched account’s staking reward') expect(got).toContain(skewedKey);
    expect(ahead.filter((d) => d > 0n)).toEqual([]); // no cursor ever ahead of the clock
    // Counted and logged once, whenever a head or a cursor would have followed it; with the binding on, only a
    // head probe can (per account and settled: every round; immediate: none while caught up).
    const seen = binding && tail.global_mode === 'immediate' ? 0 : 1;
    const counted = (await t.metrics.headAhead.get()).values[0]?.value ?? 0;
    const lines = t.logs.text().match(/row dated ahead of this host’s clock/g) ?? [];
    if (tail.strategy === 'auto') expect(counted).toBeLessThanOrEqual(1);
    else expect(counted).toBe(seen);
    expect(lines).toHaveLength(counted);
    if (counted) expect(t.tailer.future.lastAhead?.timestamp).toBe(formatTimestamp(at));
    expect(t.logs.text()).not.toContain('record from the future');
  });
});
