// One record dated 2100 among several watched accounts, on every strategy: it is handed over (once), counted and
// logged once, and neither the head nor any cursor follows it, so every later record of every account is still
// read; a restart on the same state reads on. A cursor already poisoned on disk is repaired at start.
import { describe, expect, it } from 'vitest';
import { transactionAt } from '../../../test/fixtures/tail/transactions.js';
import type { StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import { parseTimestamp, timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { createMetrics } from '../../observability/metrics.js';
import { openStateStore, type StateStore } from '../../state/store.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { TailConfig } from '../tail-config.js';
import type { RecordHandler, TailRecord } from '../streams/record-handler.js';
import type { TailPage, TailSource, TransactionQuery } from '../source/listing-source.js';
import { CursorStore } from '../cursor/cursor-store.js';
import { createTailer } from '../tailer.js';

const S = 1_000_000_000n;
const YEAR_2100 = 4_102_444_800n * S;
const SKEW_MS = 300_000;
const IDS = ['0.0.100', '0.0.101', '0.0.102'];
const FILLER = '0.0.999';

/** An in-memory ledger on a clock the test moves; every row is visible at once. */
function memoryLedger() {
  const ledger = { nowMs: 1_700_000_000_000, rows: [] as Transaction[], ignoreUpTo: false };
  async function* one<T>(records: T[]): AsyncGenerator<TailPage<T>> {
    await new Promise((resolve) => setImmediate(resolve));
    yield { url: 'memory', records, next: null };
  }
  const source: TailSource = {
    transactions(q: TransactionQuery) {
      const after = parseTimestamp(q.after);
      const upTo = q.upTo === undefined || ledger.ignoreUpTo ? undefined : parseTimestamp(q.upTo);
      const rows = ledger.rows.filter((tx) => {
        const ts = parseTimestamp(tx.consensus_timestamp);
        const mine = q.accountId === undefined || tx.transfers.some((t) => t.account === q.accountId);
        return mine && ts > after && (upTo === undefined || ts <= upTo);
      });
      rows.sort((a, b) => (a.consensus_timestamp < b.consensus_timestamp ? -1 : 1));
      if (q.order === 'desc') rows.reverse();
      return one(rows.slice(0, q.limit));
    },
    rewards: () => one<StakingReward>([]),
  };
  return { ledger, source };
}

function collector() {
  const got: { account: string; ts: string; stateTimeNs?: bigint }[] = [];
  const handler: RecordHandler<readonly TailRecord[]> = {
    prepare: async (batch) => batch,
    apply: (batch) => {
      for (const r of batch) {
        const ts = (r.record as Transaction).consensus_timestamp;
        got.push({
          account: r.account.id,
          ts,
          ...(r.stateTimeNs === undefined ? {} : { stateTimeNs: r.stateTimeNs }),
        });
      }
    },
  };
  return { got, handler };
}

const accounts = watchedAccounts(AccountsConfig.parse(IDS.map((id) => ({ id, sources: ['transactions'] }))));

function tailerOn(store: StateStore, l: ReturnType<typeof memoryLedger>, tail: Record<string, unknown>) {
  const { got, handler } = collector();
  const logs = captureLogs();
  const metrics = createMetrics();
  const config = TailConfig.parse({ overlap: '1s', sweep_interval: '1s', ...tail });
  const tailer = createTailer({
    ...{ store, source: l.source, handler, accounts, config, metrics },
    ...{ logger: logs.logger, clock: () => l.ledger.nowMs, pageLimit: 1000 },
  });
  return { tailer, got, logs, metrics };
}

/** `seconds` of ledger: each second one row for the next watched account and one filler row (moves the head). */
function grow(l: ReturnType<typeof memoryLedger>, seconds: number, added: Transaction[]): void {
  for (let i = 0; i < seconds; i++) {
    l.ledger.nowMs += 1000;
    const now = timestampFromMillis(l.ledger.nowMs);
    const tx = transactionAt(now - 200_000_000n, IDS[added.length % IDS.length]);
    added.push(tx);
    l.ledger.rows.push(tx, transactionAt(now - 100_000_000n, FILLER));
  }
}

async function rounds(
  t: ReturnType<typeof tailerOn>,
  l: ReturnType<typeof memoryLedger>,
  n: number,
  added: Transaction[],
) {
  for (let i = 0; i < n; i++) {
    grow(l, 1, added);
    await t.tailer.round(new AbortController().signal);
  }
}

function bound(l: ReturnType<typeof memoryLedger>): bigint {
  return timestampFromMillis(l.ledger.nowMs + SKEW_MS);
}

// Settled global reads stop at head − overlap, and the head never passes the bound: the record is never read
// there (docs/tailing.md), so it is neither evaluated nor reported, and poisons nothing.
const STRATEGIES = [
  { tail: { strategy: 'per-account' }, evaluated: true },
  { tail: { strategy: 'global', global_mode: 'immediate' }, evaluated: true },
  { tail: { strategy: 'global', global_mode: 'settled' }, evaluated: false },
];

describe('a record from the future', () => {
  it.each(STRATEGIES)('moves no cursor, and every later record is read (%o)', async ({ tail, evaluated }) => {
    const l = memoryLedger();
    const store = openStateStore({ dir: ':memory:' });
    const added: Transaction[] = [];
    grow(l, 3, []);
    const first = tailerOn(store, l, tail);
    await first.tailer.round(new AbortController().signal);

    l.ledger.rows.push(transactionAt(YEAR_2100, '0.0.100'));
    await rounds(first, l, 12, added);
    const state = new CursorStore(store);
    const cursors = [...state.all().values()];
    const second = tailerOn(store, l, tail);
    await rounds(second, l, 12, added);
    // Settled reads stop at head − overlap: a few quiet seconds hand over the last rows.
    for (let i = 0; i < 3; i++) {
      l.ledger.nowMs += 1000;
      l.ledger.rows.push(transactionAt(timestampFromMillis(l.ledger.nowMs), FILLER));
      await second.tailer.round(new AbortController().signal);
    }

    const all = [...first.got, ...second.got];
    const future = all.filter((r) => r.ts === '4102444800.000000000');
    expect(future.map((r) => [r.account, r.ts])).toEqual(
      evaluated ? [['0.0.100', '4102444800.000000000']] : [],
    );
    // Rule state takes a stand-in time for it, not 2100; every other record keeps its own.
    for (const r of future) expect(r.stateTimeNs! <= bound(l)).toBe(true);
    expect(all.filter((r) => r.stateTimeNs !== undefined)).toHaveLength(future.length);
    for (const tx of added) expect(all.filter((r) => r.ts === tx.consensus_timestamp)).toHaveLength(1);
    expect(cursors.length).toBeGreaterThan(0);
    for (const c of cursors) expect(c.safe <= bound(l) && c.read <= bound(l)).toBe(true);
    expect(second.tailer.head.head! <= bound(l)).toBe(true);
    const counted = (await first.metrics.futureRecords.get()).values.find(
      (v) => v.labels.source === 'transactions',
    );
    expect(counted?.value).toBe(evaluated ? 1 : 0);
    expect(first.logs.text().match(/record from the future/g) ?? []).toHaveLength(evaluated ? 1 : 0);
    expect(second.logs.text()).not.toContain('record from the future');
    if (evaluated)
      expect(first.tailer.future.last).toMatchObject({
        account: '0.0.100',
        timestamp: '4102444800.000000000',
      });
  });

  it('a cursor already beyond now + max_clock_skew is repaired at start, loudly', async () => {
    const l = memoryLedger();
    const store = openStateStore({ dir: ':memory:' });
    grow(l, 3, []);
    const poisoned = new CursorStore(store);
    store.transaction(() => {
      poisoned.reset('tx:0.0.100', { safe: YEAR_2100, read: YEAR_2100 });
      poisoned.reset('tx:0.0.101', { safe: YEAR_2100 - 10n * S, read: YEAR_2100 });
      poisoned.reset('tx:0.0.102', { safe: timestampFromMillis(l.ledger.nowMs) - S, read: YEAR_2100 });
    });
    const t = tailerOn(store, l, { strategy: 'per-account' });
    const added: Transaction[] = [];

    await t.tailer.round(new AbortController().signal);
    await rounds(t, l, 6, added);

    const errors = t.logs.entries().filter((e) => e.level === 50);
    expect(errors.map((e) => e.stream).sort()).toEqual(['tx:0.0.100', 'tx:0.0.101', 'tx:0.0.102']);
    expect(String(errors[0]?.msg)).toContain('cursor beyond now + tail.max_clock_skew repaired');
    for (const tx of added) expect(t.got.filter((r) => r.ts === tx.consensus_timestamp)).toHaveLength(1);
    for (const c of new CursorStore(store).all().values()) expect(c.read <= bound(l)).toBe(true);
  });

  it('the head probe does not take a future row for the head, even from a service that ignores lte:', async () => {
    const l = memoryLedger();
    l.ledger.ignoreUpTo = true;
    const store = openStateStore({ dir: ':memory:' });
    grow(l, 3, []);
    l.ledger.rows.push(transactionAt(YEAR_2100, '0.0.100'));
    const t = tailerOn(store, l, { strategy: 'per-account' });

    await t.tailer.round(new AbortController().signal);

    const newest = l.ledger.rows.filter((r) => r.transfers[0]?.account === FILLER).at(-1);
    expect(t.tailer.head.head).toBe(parseTimestamp(newest?.consensus_timestamp ?? '0'));
  });

  it('a record within the clock skew is handed over, but moves no head until the clock has passed it', async () => {
    const l = memoryLedger();
    const store = openStateStore({ dir: ':memory:' });
    grow(l, 3, []);
    const t = tailerOn(store, l, { strategy: 'per-account' });
    await t.tailer.round(new AbortController().signal);
    const before = t.tailer.head.head;
    const ahead = timestampFromMillis(l.ledger.nowMs + 60_000);

    l.ledger.rows.push(transactionAt(ahead, '0.0.101'));
    await t.tailer.round(new AbortController().signal);
    await t.tailer.round(new AbortController().signal);

    expect(t.tailer.head.head).toBe(before);
    expect(t.got.filter((r) => r.ts === t.got.at(-1)?.ts)).toHaveLength(1);
    expect(t.got.at(-1)?.stateTimeNs).toBeUndefined(); // its own time: it is not from the future
    expect(t.tailer.future.last).toBeUndefined();
    expect(t.tailer.future.lastAhead).toMatchObject({ aheadMs: 60_000 });
    expect(t.logs.text().match(/row dated ahead of this host’s clock/g) ?? []).toHaveLength(1);
    expect((await t.metrics.headAhead.get()).values[0]?.value).toBe(1);
    for (const c of new CursorStore(store).all().values())
      expect(
        c.safe <= timestampFromMillis(l.ledger.nowMs) && c.read <= timestampFromMillis(l.ledger.nowMs),
      ).toBe(true);

    l.ledger.nowMs += 61_000;
    await t.tailer.round(new AbortController().signal);
    expect(t.tailer.head.head).toBe(ahead);
  });
});
