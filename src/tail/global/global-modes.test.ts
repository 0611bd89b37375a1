// The global tail's two modes against an in-memory ledger whose rows can stay hidden behind newer ones
// (docs/ledger-api.md §17): immediate (head read every poll + a bounded sweep per sweep_interval) and settled (only rows
// at or below head − overlap). Time is injected: the ledger grows and the clock moves only when a test says
// so. Crashes are simulated by the source throwing between two transactions and a new tailer on the reopened
// state directory; the handler writes through the store, as the daemon's does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { transactionAt } from '../../../test/fixtures/tail/transactions.js';
import { formatTimestamp, parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { createLedgerClient } from '../../ledger/client.js';
import { type StateStore, openStateStore } from '../../state/store.js';
import { clientTailSource } from '../source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { TailConfig } from '../tail-config.js';
import type { RecordHandler } from '../streams/record-handler.js';
import type { TailPage, TailSource, TransactionQuery } from '../source/listing-source.js';
import { createTailer } from '../tailer.js';
import { type Tailer } from '../tailer-types.js';

const START_MS = 1_700_000_000_000;
const T0 = BigInt(START_MS) * 1_000_000n;
const MS = 1_000_000n;
const SECOND = 1_000n * MS;
const WATCHED = '0.0.100';
const signal = new AbortController().signal;

interface Row {
  readonly ts: bigint;
  readonly tx: Transaction;
  visible: boolean;
}

interface Request {
  readonly order: 'asc' | 'desc';
  readonly after: bigint;
  readonly upTo: bigint | undefined;
  readonly rows: readonly bigint[];
}

/** A transaction every 100 ms of consensus time; two of three involve the watched account. */
class FakeLedger {
  readonly rows: Row[] = [];
  readonly requests: Request[] = [];
  /** Rows that become visible once the newest visible row is this far past them. */
  readonly late = new Map<bigint, bigint>();
  /** Throws instead of the n-th page request or chain end from now on (a crash between two transactions). */
  crashAt: number | undefined;
  /** Page requests and chain ends since the last reset. */
  events = 0;

  /** Appends rows up to `until` (consensus time), then shows held-back rows whose delay has passed. */
  growTo(until: bigint): void {
    let ts = (this.rows.at(-1)?.ts ?? T0) + 100n * MS;
    for (; ts <= until; ts += 100n * MS) {
      const i = this.rows.length;
      const account = i % 3 === 2 ? '0.0.999' : WATCHED;
      this.rows.push({ ts, tx: transactionAt(ts, account), visible: !this.late.has(ts) });
    }
    this.release();
  }

  /** The newest visible row. */
  head(): bigint {
    const visible = this.rows.filter((r) => r.visible);
    return visible.at(-1)?.ts ?? T0;
  }

  release(): void {
    const head = this.head();
    for (const row of this.rows) {
      const delay = this.late.get(row.ts);
      if (!row.visible && delay !== undefined && head >= row.ts + delay) row.visible = true;
    }
  }

  /** Every row's timestamp that involves the watched account. */
  watchedRows(): bigint[] {
    return this.rows.filter((r) => r.tx.transfers.some((t) => t.account === WATCHED)).map((r) => r.ts);
  }

  private tick(): void {
    this.events += 1;
    if (this.crashAt !== undefined && this.events >= this.crashAt) throw new Error('killed');
  }

  readonly source: TailSource = {
    transactions: (query) => this.pages(query),
    rewards: async function* () {
      yield* [] as TailPage<never>[];
    },
  };

  private async *pages(query: TransactionQuery): AsyncGenerator<TailPage<Transaction>> {
    let after = parseTimestamp(query.after);
    const upTo = query.upTo === undefined ? undefined : parseTimestamp(query.upTo);
    let before: bigint | undefined;
    for (;;) {
      this.tick();
      await Promise.resolve();
      const matching = this.rows.filter(
        (r) =>
          r.visible &&
          r.ts > after &&
          (upTo === undefined || r.ts <= upTo) &&
          (before === undefined || r.ts < before) &&
          (query.accountId === undefined || r.tx.transfers.some((t) => t.account === query.accountId)),
      );
      if (query.order === 'desc') matching.reverse();
      const page = matching.slice(0, query.limit);
      this.requests.push({
        order: query.order,
        after: parseTimestamp(query.after),
        upTo,
        rows: page.map((r) => r.ts),
      });
      const full = page.length >= query.limit;
      yield {
        url: `request ${this.requests.length}`,
        records: page.map((r) => r.tx),
        next: full ? 'more' : null,
      };
      if (!full) break;
      const last = (page.at(-1) as Row).ts;
      if (query.order === 'asc') after = last;
      else before = last;
    }
    this.tick();
  }

  /** How often each row was returned by an ascending (non-probe) request. */
  readCounts(): Map<bigint, number> {
    const counts = new Map<bigint, number>();
    for (const r of this.requests)
      if (r.order === 'asc') for (const ts of r.rows) counts.set(ts, (counts.get(ts) ?? 0) + 1);
    return counts;
  }
}

/** Hands records over into a table of the same store, so a rolled-back page leaves no trace. */
function storeHandler(store: StateStore): RecordHandler<readonly string[]> {
  store.db.exec('CREATE TABLE IF NOT EXISTS delivered (ts TEXT NOT NULL)');
  const insert = store.db.prepare('INSERT INTO delivered (ts) VALUES (?)');
  return {
    prepare: async (batch) =>
      batch.map((r) => (r.source === 'transactions' ? r.record.consensus_timestamp : r.record.timestamp)),
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

interface Setup {
  readonly ledger: FakeLedger;
  store: StateStore;
  tailer: Tailer;
  now: number;
}

type Strategy = 'global' | 'per-account';

function config(
  mode: 'immediate' | 'settled',
  extra: Record<string, unknown> = {},
  strategy: Strategy = 'global',
) {
  return TailConfig.parse({
    strategy,
    global_mode: mode,
    overlap: '10s',
    start: formatTimestamp(T0),
    ...extra,
  });
}

function tailerFor(s: Omit<Setup, 'tailer'>, tailConfig: TailConfig, pageLimit = 10): Tailer {
  return createTailer({
    store: s.store,
    source: s.ledger.source,
    handler: storeHandler(s.store),
    accounts: watchedAccounts(AccountsConfig.parse([{ id: WATCHED, sources: ['transactions'] }])),
    config: tailConfig,
    clock: () => s.now,
    pageLimit,
  });
}

function setup(tailConfig: TailConfig, pageLimit = 10): Setup {
  const partial = { ledger: new FakeLedger(), store: openStateStore({ dir: ':memory:' }), now: START_MS };
  const s = partial as Setup;
  s.tailer = tailerFor(partial, tailConfig, pageLimit);
  return s;
}

/** Pages the new rows of each step need at least (pages of `limit`, one at least): the yardstick. */
function minimumPages(steps: number, rowsPerStep: number, limit: number): number {
  return steps * Math.max(1, Math.ceil(rowsPerStep / limit));
}

/** The ledger grows by `ms` of consensus time and the clock by as much; then one round. */
async function step(s: Setup, ms = 2_000): Promise<void> {
  s.now += ms;
  s.ledger.growTo(T0 + BigInt(s.now - START_MS) * MS);
  await s.tailer.round(signal);
}

function counts(values: readonly bigint[]): Map<bigint, number> {
  const map = new Map<bigint, number>();
  for (const v of values) map.set(v, (map.get(v) ?? 0) + 1);
  return map;
}

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('global tail, immediate mode', () => {
  it('hands new rows over on the poll that sees them, and a late row once, through the sweep', async () => {
    const s = setup(config('immediate'));
    const late = T0 + 2_000n * MS;
    s.ledger.late.set(late, 6n * SECOND); // trails newer rows by 6 s < overlap
    await step(s, 5_000);
    const first = new Set(delivered(s.store));

    for (let i = 0; i < 10; i++) await step(s);

    expect(first.has(T0 + 4_900n * MS)).toBe(true); // at once, not overlap later
    expect(first.has(late)).toBe(false);
    const all = delivered(s.store);
    expect(all.filter((ts) => ts === late)).toHaveLength(1);
    expect([...counts(all).values()].every((n) => n === 1)).toBe(true);
    expect(new Set(all)).toEqual(new Set(s.ledger.watchedRows()));
    const sweeps = s.ledger.requests.filter((r) => r.upTo !== undefined);
    expect(sweeps.some((r) => r.rows.includes(late))).toBe(true);
  });

  it('misses a row hidden for longer than the overlap (the documented limit, as before)', async () => {
    const s = setup(config('immediate'));
    const late = T0 + 1_000n * MS;
    s.ledger.late.set(late, 14n * SECOND);

    for (let i = 0; i < 20; i++) await step(s);

    expect(s.ledger.rows.find((r) => r.ts === late)?.visible).toBe(true);
    expect(delivered(s.store)).not.toContain(late);
  });

  it.each([
    ['10s', 5],
    ['4s', 2],
  ])('sweeps at most once per sweep_interval (%s, polls every 2 s)', async (sweep, every) => {
    const s = setup(config('immediate', { sweep_interval: sweep }));
    const sweptIn: number[] = [];

    for (let round = 0; round < 30; round++) {
      const before = s.ledger.requests.length;
      await step(s);
      if (s.ledger.requests.slice(before).some((r) => r.upTo !== undefined)) sweptIn.push(round);
    }

    const gaps = sweptIn.slice(1).map((r, i) => r - (sweptIn[i] as number));
    expect(gaps.length).toBeGreaterThan(2);
    expect(gaps.every((g) => g === every)).toBe(true);
  });

  it('reads every row at most twice (head read + sweep), in at most twice the minimum pages', async () => {
    const s = setup(config('immediate'), 8);
    for (let i = 0; i < 42; i++) await step(s); // 84 s, 20 rows a step

    const reads = s.ledger.readCounts();
    const early = s.ledger.rows.filter((r) => r.ts <= T0 + 60n * SECOND);
    expect(early).toHaveLength(600);
    expect(early.every((r) => reads.get(r.ts) === 2)).toBe(true);
    expect([...reads.values()].every((n) => n <= 2)).toBe(true);
    const asc = s.ledger.requests.filter((r) => r.order === 'asc');
    const sweeps = asc.filter((r, i) => r.upTo !== undefined && asc[i - 1]?.upTo !== r.upTo).length;
    expect(s.ledger.requests.filter((r) => r.order === 'desc')).toEqual([]); // no head probe
    // 20 rows in pages of 8: 3 pages a step at least; the sweep's share adds its last page per sweep.
    expect(asc.length).toBeLessThanOrEqual(2 * minimumPages(42, 20, 8) + sweeps);
  });
});

describe('global tail, settled mode', () => {
  it('reads each row once and hands over only rows at or below head − overlap', async () => {
    const s = setup(config('settled'));
    const late = T0 + 20_000n * MS;
    s.ledger.late.set(late, 7n * SECOND);

    for (let i = 0; i < 40; i++) {
      await step(s);
      const bound = s.ledger.head() - 10n * SECOND;
      expect(delivered(s.store).every((ts) => ts <= bound)).toBe(true);
    }

    const all = delivered(s.store);
    const bound = s.ledger.head() - 10n * SECOND;
    expect(all).toContain(late);
    expect([...counts(all).values()].every((n) => n === 1)).toBe(true);
    expect(new Set(all)).toEqual(new Set(s.ledger.watchedRows().filter((ts) => ts <= bound)));
    const reads = s.ledger.readCounts();
    expect([...reads.values()].every((n) => n === 1)).toBe(true);
    expect(reads.size).toBe(s.ledger.rows.filter((r) => r.ts <= bound).length);
    // Every non-probe request is bounded above.
    expect(s.ledger.requests.filter((r) => r.order === 'asc').every((r) => r.upTo !== undefined)).toBe(true);
  });

  it('costs the minimum pages plus one head probe a poll', async () => {
    const s = setup(config('settled'), 8);
    for (let i = 0; i < 30; i++) await step(s);

    const asc = s.ledger.requests.filter((r) => r.order === 'asc');
    const reads = s.ledger.readCounts();
    const chains = asc.filter((r) => r.rows.length < 8).length; // each read ends on a short page
    expect([...reads.values()].every((n) => n === 1)).toBe(true);
    expect(reads.size).toBe(20 * chains);
    expect(asc.length).toBe(minimumPages(chains, 20, 8));
    expect(s.ledger.requests.filter((r) => r.order === 'desc')).toHaveLength(30);
  });
});

describe('global tail, crash safety', () => {
  // Each tailer instance runs until the source "kills" it at its crashAt-th request or chain end, i.e. between
  // two transactions at any point of a poll; then a new tailer opens the same state directory.
  const plans: [string, readonly (readonly [Strategy, 'immediate' | 'settled'])[]][] = [
    ['immediate', [['global', 'immediate']]],
    ['settled', [['global', 'settled']]],
    [
      'switching strategy and mode across restarts',
      [
        ['global', 'immediate'],
        ['per-account', 'immediate'],
        ['global', 'settled'],
        ['global', 'immediate'],
        ['per-account', 'settled'],
      ],
    ],
  ];

  it.each(plans)('%s: a kill at any point neither loses nor repeats a record', async (_name, plan) => {
    const dir = mkdtempSync(join(tmpdir(), 'global-modes-'));
    dirs.push(dir);
    const ledger = new FakeLedger();
    for (let t = 3_000n; t < 120_000n; t += 7_300n) ledger.late.set(T0 + t * MS, 6n * SECOND);
    const s: Omit<Setup, 'tailer'> = { ledger, store: openStateStore({ dir }), now: START_MS };
    let restarts = 0;
    let tailer = tailerFor(s, config(plan[0]![1], {}, plan[0]![0]));
    const crashEvery = [3, 7, 2, 11, 5, 4];
    ledger.crashAt = crashEvery[0];
    for (let i = 0; i < 60; i++) {
      s.now += 2_000;
      ledger.growTo(T0 + BigInt(Math.min(s.now - START_MS, 100_000)) * MS);
      try {
        await tailer.round(signal);
      } catch (err) {
        // round() only throws for the head probe, and here only with the fake's simulated kill; a failed global
        // poll is counted and backed off. Any other error is a defect and fails the test.
        if (!(err instanceof Error && /killed/.test(err.message))) throw err;
      }
      if (ledger.events >= (ledger.crashAt ?? Infinity)) {
        restarts += 1;
        s.store.close();
        s.store = openStateStore({ dir });
        const [strategy, mode] = plan[restarts % plan.length]!;
        tailer = tailerFor(s, config(mode, {}, strategy));
        ledger.events = 0;
        ledger.crashAt = restarts < 20 ? crashEvery[restarts % crashEvery.length] : undefined;
      }
    }
    // Quiet until every row is settled, then a few more polls.
    s.now += 30_000;
    for (let i = 0; i < 12; i++) {
      s.now += 2_000;
      ledger.growTo(T0 + BigInt(s.now - START_MS) * MS);
      await tailer.round(signal);
    }

    const all = delivered(s.store);
    const through = T0 + 100_000n * MS;
    expect(restarts).toBeGreaterThanOrEqual(10);
    expect(all.filter((ts) => ts <= through).sort()).toEqual(
      ledger.watchedRows().filter((ts) => ts <= through),
    );
    expect([...counts(all).values()].every((n) => n === 1)).toBe(true);
    s.store.close();
  });
});

describe('clientTailSource upper bound', () => {
  it('sends timestamp=gt:&timestamp=lte: and follows next inside the range', async () => {
    const store = new SimulatorStore();
    for (let i = 1; i <= 25; i++)
      store.addTransaction(makeSimTransaction(sampleTransactionRow(T0 + BigInt(i) * SECOND, 1000n)));
    const running = await startSimulator({
      store,
      config: defaultSimulatorConfig({ now: () => T0 + 60n * SECOND }),
    });
    const client = createLedgerClient({ baseUrl: running.url });
    try {
      const source = clientTailSource(client);
      const urls: string[] = [];
      const rows: string[] = [];
      const query = {
        after: formatTimestamp(T0 + 2n * SECOND),
        upTo: formatTimestamp(T0 + 20n * SECOND),
        order: 'asc' as const,
        limit: 10,
      };
      for await (const page of source.transactions(query, { signal, priority: 0 })) {
        urls.push(page.url);
        rows.push(...page.records.map((r) => r.consensus_timestamp));
      }

      expect(urls[0]).toBe(
        '/api/v1/transactions?timestamp=gt:1700000002.000000000&timestamp=lte:1700000020.000000000&limit=10&order=asc',
      );
      expect(rows).toEqual(
        Array.from({ length: 18 }, (_, i) => formatTimestamp(T0 + BigInt(i + 3) * SECOND)),
      );
    } finally {
      await client.close();
      await running.close();
    }
  });
});
