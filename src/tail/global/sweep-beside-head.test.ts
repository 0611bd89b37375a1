// The immediate global tail's sweep is a poll of its own (global-tail.ts, docs/tailing.md "Race safety"): a
// sweep the service is slow to answer holds up no head read, and sweeps running beside head reads never move a
// cursor backwards, never miss and never repeat a record. Against the embedded simulator (with rows that
// become visible late) behind a real loopback proxy that holds the sweep's requests (`timestamp=lte:`) until
// the test lets them through. The clocks are injected: the ledger and the tailer move only when a test says so.
import { afterEach, describe, expect, it } from 'vitest';
import { type HoldProxy, startHoldProxy } from '../../../test/helpers/hold-proxy.js';
import { formatTimestamp, parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator } from '@ledger-sentinel/simulator/server';
import { createRng } from '@ledger-sentinel/simulator/rng';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { createLedgerClient } from '../../ledger/client.js';
import { type StateStore, openStateStore } from '../../state/store.js';
import { clientTailSource } from '../source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { TailConfig } from '../tail-config.js';
import type { RecordHandler } from '../streams/record-handler.js';
import { createTailer } from '../tailer.js';
import { type Tailer } from '../tailer-types.js';

const START_MS = 1_700_000_000_000;
const T0 = BigInt(START_MS) * 1_000_000n;
const MS = 1_000_000n;
const WATCHED = 1000n;
const OTHER = 999n;
const signal = new AbortController().signal;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A row every 100 ms of consensus time; two of three paid by the watched account. */
class Ledger {
  readonly store = new SimulatorStore();
  readonly watched: bigint[] = [];
  /** The newest row. */
  last = T0;

  /** Adds rows up to `until`; `delayOf` gives a row's visibility delay after its consensus time (0: at once). */
  growTo(until: bigint, delayOf: (ts: bigint) => bigint = () => 0n): void {
    for (let ts = this.last + 100n * MS; ts <= until; ts += 100n * MS) {
      const n = (ts - T0) / (100n * MS);
      const payer = n % 3n === 2n ? OTHER : WATCHED;
      if (payer === WATCHED) this.watched.push(ts);
      const delay = delayOf(ts);
      const tx = makeSimTransaction(sampleTransactionRow(ts, payer));
      this.store.addTransaction(delay > 0n ? { ...tx, visibleAt: ts + delay } : tx);
      this.last = ts;
    }
  }
}

interface Setup {
  readonly ledger: Ledger;
  readonly proxy: HoldProxy;
  readonly store: StateStore;
  readonly tailer: Tailer;
  now: number;
}

/** Hands records over into a table of the same store; prepare yields, as an enriching handler does. */
function storeHandler(store: StateStore): RecordHandler<readonly string[]> {
  store.db.exec('CREATE TABLE IF NOT EXISTS delivered (ts TEXT NOT NULL)');
  const insert = store.db.prepare('INSERT INTO delivered (ts) VALUES (?)');
  return {
    prepare: async (batch) => {
      await new Promise((resolve) => setImmediate(resolve));
      return batch.map((r) =>
        r.source === 'transactions' ? r.record.consensus_timestamp : r.record.timestamp,
      );
    },
    apply: (keys) => {
      for (const k of keys) insert.run(k);
    },
  };
}

function delivered(store: StateStore): bigint[] {
  return (store.db.prepare('SELECT ts FROM delivered').all() as { ts: string }[]).map((r) =>
    parseTimestamp(r.ts),
  );
}

function globalCursor(store: StateStore): { safe: bigint; read: bigint } {
  const row = store.db
    .prepare("SELECT safe, read FROM tail_cursor WHERE stream = 'global'")
    .safeIntegers(true)
    .get() as { safe: bigint; read: bigint } | undefined;
  return row ?? { safe: -1n, read: -1n };
}

async function setup(extra: Record<string, unknown> = {}): Promise<Setup> {
  const ledger = new Ledger();
  const s = { ledger, now: START_MS } as { -readonly [K in keyof Setup]: Setup[K] };
  const sim = await startSimulator({
    store: ledger.store,
    config: defaultSimulatorConfig({ now: () => BigInt(s.now) * MS }),
  });
  closers.push(() => sim.close());
  s.proxy = await startHoldProxy(sim.url);
  closers.push(() => s.proxy.close());
  const client = createLedgerClient({ baseUrl: s.proxy.url, requestsPerSecond: 10_000 });
  closers.push(() => client.close());
  s.store = openStateStore({ dir: ':memory:' });
  closers.push(async () => s.store.close());
  s.tailer = createTailer({
    store: s.store,
    source: clientTailSource(client),
    handler: storeHandler(s.store),
    accounts: watchedAccounts(AccountsConfig.parse([{ id: `0.0.${WATCHED}`, sources: ['transactions'] }])),
    // A short poll_interval: a round stops waiting for a held sweep soon (the round's patience).
    config: TailConfig.parse({
      strategy: 'global',
      global_mode: 'immediate',
      overlap: '10s',
      sweep_interval: '4s',
      poll_interval: '100ms',
      start: formatTimestamp(T0),
      ...extra,
    }),
    clock: () => s.now,
    pageLimit: 10,
  });
  return s;
}

/** The ledger and the clock move by `ms`, then one round. */
async function step(s: Setup, ms = 2_000, delayOf?: (ts: bigint) => bigint): Promise<void> {
  s.now += ms;
  s.ledger.growTo(BigInt(s.now) * MS, delayOf);
  await s.tailer.round(signal);
}

function repeats(values: readonly bigint[]): bigint[] {
  const seen = new Set<bigint>();
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)));
}

describe('global sweep beside the head read', () => {
  it('a sweep the service holds up does not hold up the next head reads', async () => {
    const s = await setup();
    s.proxy.holding = true;
    await step(s, 20_000); // head read of 20 s, then the first sweep, which the proxy holds
    expect(await s.proxy.waiting()).toBe(true);

    await step(s);
    await step(s);

    const newest = BigInt(s.now) * MS;
    expect(delivered(s.store)).toContain(newest); // handed over while the sweep still waits
    expect(s.proxy.held()).toBeGreaterThan(0);
    expect(globalCursor(s.store).read).toBe(newest);
    s.proxy.release();
    s.proxy.holding = false;
    await s.tailer.settled();
    await step(s);
    await s.tailer.settled();
    const all = delivered(s.store);
    expect(repeats(all)).toEqual([]);
    expect(new Set(all)).toEqual(new Set(s.ledger.watched));
    expect(globalCursor(s.store).safe).toBeGreaterThan(T0);
  });

  it('a head read that overran its round is read again as soon as it ends, not a round later', async () => {
    // Patience for the round that waits on the old head read (a bound, not a figure): it needs a few ms.
    const s = await setup({ poll_interval: '2s' });
    let first = true;
    s.proxy.hold = (url) => {
      const head = first && !url.includes('timestamp=lte');
      first &&= !head;
      return head;
    };
    s.proxy.holding = true;
    s.now += 20_550; // 205 rows: the last of 21 pages is short, so the walk asks nothing past the newest row
    s.ledger.growTo(BigInt(s.now) * MS);
    await s.tailer.round(signal); // the head read's first answer waits past the round's patience
    expect(await s.proxy.waiting()).toBe(true);

    const round = s.tailer.round(signal);
    s.proxy.release();
    await round;

    const after = `timestamp=gt:${formatTimestamp(s.ledger.last)}`;
    const heads = s.proxy.requests
      .map(decodeURIComponent)
      .filter((u) => !u.includes('lte') && u.includes(after));
    expect(heads).toHaveLength(1); // the next head read, in the same round
    expect(globalCursor(s.store).read).toBe(s.ledger.last);
    await s.tailer.settled();
    // The first sweep waited for the overrunning head read, and still swept once it had read to the end.
    expect(s.proxy.requests.some((u) => u.includes('timestamp=lte'))).toBe(true);
  });

  it.each([1, 2, 3, 4])(
    'seed %i: sweeps held at random beside head reads never move a cursor back, miss or repeat a record',
    async (seed) => {
      const s = await setup();
      const rng = createRng(seed);
      const random = () => rng.next();
      // One row in ten shows up late, up to 8 s after its consensus time (within the 10 s overlap).
      const delayOf = () => (random() < 0.1 ? BigInt(Math.floor(random() * 8_000)) * MS : 0n);
      const cursors: { safe: bigint; read: bigint }[] = [];

      for (let round = 0; round < 30; round++) {
        s.proxy.holding = random() < 0.5;
        if (random() < 0.4) s.proxy.release();
        await step(s, 1_000 + Math.floor(random() * 2_000), delayOf);
        cursors.push(globalCursor(s.store));
      }
      s.proxy.holding = false;
      s.proxy.release();
      await s.tailer.settled();
      const last = BigInt(s.now) * MS;
      for (let round = 0; round < 10; round++) {
        await step(s);
        await s.tailer.settled();
        cursors.push(globalCursor(s.store));
      }

      const backwards = cursors.filter(
        (c, i) => i > 0 && (c.safe < cursors[i - 1]!.safe || c.read < cursors[i - 1]!.read),
      );
      expect(backwards).toEqual([]);
      expect(cursors.every((c) => c.read >= c.safe)).toBe(true);
      const safe = globalCursor(s.store).safe;
      expect(safe).toBeGreaterThanOrEqual(last); // the sweeps caught up past every row of the held rounds
      const all = delivered(s.store);
      expect(repeats(all)).toEqual([]);
      const expected = s.ledger.watched.filter((ts) => ts <= safe);
      expect(new Set(all.filter((ts) => ts <= safe))).toEqual(new Set(expected));
    },
  );
});
