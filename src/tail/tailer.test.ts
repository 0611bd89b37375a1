// Scheduling: bounded concurrency, one poll per account at a time, priority order, per-stream backoff, the
// automatic strategy choice and a clean stop. The ledger here is an in-memory TailSource (the interface the
// real client satisfies); the end-to-end behaviour is tested against the simulator in test/integration/tail.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { transactionAt } from '../../test/fixtures/tail/transactions.js';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import { AccountsConfig, watchedAccounts } from '../accounts/accounts-config.js';
import { TailConfig } from './tail-config.js';
import type { RecordHandler } from './streams/record-handler.js';
import type { TailPage, TailSource, TransactionQuery } from './source/listing-source.js';
import { createTailer } from './tailer.js';

const HEAD = 1_700_000_000_000_000_000n;

interface Probe {
  source: TailSource;
  readonly calls: string[];
  maxInFlight: number;
  failing: Set<string>;
}

/** A ledger whose newest 100 transactions are `gapNs` apart, and whose accounts are quiet. */
function memoryLedger(gapNs: bigint): Probe {
  let inFlight = 0;
  const probe: Probe = {
    source: undefined as unknown as TailSource,
    calls: [],
    maxInFlight: 0,
    failing: new Set(),
  };
  async function* pages<T>(label: string, records: T[]): AsyncGenerator<TailPage<T>> {
    probe.calls.push(label);
    inFlight += 1;
    probe.maxInFlight = Math.max(probe.maxInFlight, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight -= 1;
    if (probe.failing.has(label)) throw new Error(`503 for ${label}`);
    yield { url: label, records, next: null };
  }
  const newest = Array.from({ length: 100 }, (_, i) => transactionAt(HEAD - BigInt(i) * gapNs));
  probe.source = {
    transactions: (q: TransactionQuery) =>
      q.order === 'desc' ? pages('head', newest) : pages(q.accountId ? `tx:${q.accountId}` : 'global', []),
    rewards: (path: string) => pages(`rw:${path}`, []),
  };
  return probe;
}

/** Runs `before` ahead of every transactions poll of `accountId` (the others untouched): a stream held up at will. */
function holdAccount(probe: Probe, accountId: string, before: (signal: AbortSignal) => Promise<void>): void {
  const inner = probe.source.transactions;
  probe.source = {
    ...probe.source,
    transactions: (q, o) =>
      q.accountId === accountId
        ? (async function* () {
            await before(o.signal);
            yield* inner(q, o);
          })()
        : inner(q, o),
  };
}

const handler: RecordHandler<null> = { prepare: async () => null, apply: () => undefined };

function accounts(n: number, priority = (_i: number) => 0) {
  return watchedAccounts(
    AccountsConfig.parse(
      Array.from({ length: n }, (_, i) => ({
        id: 100 + i,
        priority: priority(i),
        sources: ['transactions'],
      })),
    ),
  );
}

function tailer(ledger: Probe, n: number, config: Record<string, unknown>, extra = {}) {
  return createTailer({
    store: openStateStore({ dir: ':memory:' }),
    source: ledger.source,
    handler,
    accounts: accounts(n),
    config: TailConfig.parse({ strategy: 'per-account', ...config }),
    clock: () => 1_700_000_000_000,
    ...extra,
  });
}

describe('createTailer scheduling', () => {
  it('polls every account once per round, at most `concurrency` at a time', async () => {
    const ledger = memoryLedger(10_000_000n);
    const t = tailer(ledger, 20, { concurrency: 3 });

    await t.round(new AbortController().signal);

    const polls = ledger.calls.filter((c) => c.startsWith('tx:'));
    expect(polls.length).toBe(20);
    expect(new Set(polls).size).toBe(20);
    expect(ledger.maxInFlight).toBe(3);
  });

  it('polls higher-priority accounts first', async () => {
    const ledger = memoryLedger(10_000_000n);
    const t = createTailer({
      store: openStateStore({ dir: ':memory:' }),
      source: ledger.source,
      handler,
      accounts: accounts(4, (i) => i),
      config: TailConfig.parse({ strategy: 'per-account', concurrency: 1 }),
    });

    await t.round(new AbortController().signal);

    expect(ledger.calls.filter((c) => c.startsWith('tx:'))).toEqual([
      'tx:0.0.103',
      'tx:0.0.102',
      'tx:0.0.101',
      'tx:0.0.100',
    ]);
  });

  it('backs a failing account off without holding up the others, then retries it', async () => {
    const ledger = memoryLedger(10_000_000n);
    let now = 1_700_000_000_000;
    const t = tailer(ledger, 3, { poll_interval: '2s' }, { clock: () => now, random: () => 1 });
    const signal = new AbortController().signal;
    ledger.failing.add('tx:0.0.101');

    const first = await t.round(signal);
    ledger.calls.length = 0;
    await t.round(signal);
    const skipped = [...ledger.calls];
    now += 2_000;
    ledger.calls.length = 0;
    await t.round(signal);

    expect(first.failed).toBe(1);
    expect(skipped).toEqual(['head', 'tx:0.0.100', 'tx:0.0.102']);
    expect(ledger.calls).toContain('tx:0.0.101');
  });

  it.each([
    // 200 TPS: per-account 5 + 1 requests per interval; global (immediate) ⌈2 × 4 + 1 + 2 s/10 s⌉ = 10
    [5, 5_000_000n, 'per-account'],
    [20, 5_000_000n, 'global'],
    [10, 50_000_000n, 'global'],
    [2_000, 5_000_000n, 'global'],
  ])(
    'auto picks the cheaper strategy: %d accounts, one transaction every %d ns',
    async (n, gap, expected) => {
      const ledger = memoryLedger(gap);
      const t = tailer(ledger, n, { strategy: 'auto' });

      const report = await t.round(new AbortController().signal);

      expect(report.strategy).toBe(expected);
      expect(t.head.tps).toBeCloseTo(1e9 / Number(gap));
    },
  );

  it('records the active strategy, the staleness summary and failed polls as metrics', async () => {
    const ledger = memoryLedger(10_000_000n);
    ledger.failing.add('tx:0.0.101');
    const metrics = createMetrics();
    const t = tailer(ledger, 3, { concurrency: 1 }, { metrics });

    await t.round(new AbortController().signal);

    const value = async (name: string, labels: Record<string, string> = {}) =>
      (await metrics.registry.getSingleMetric(name)?.get())?.values.find((v) =>
        Object.entries(labels).every(([k, l]) => v.labels[k] === l),
      )?.value;
    expect(await value('ledger_sentinel_tail_strategy', { strategy: 'per-account' })).toBe(1);
    expect(await value('ledger_sentinel_tail_strategy', { strategy: 'global' })).toBe(0);
    expect(await value('ledger_sentinel_tail_poll_failures_total', { stream: 'transactions' })).toBe(1);
    expect(await value('ledger_sentinel_tail_staleness_max_seconds')).toBe(t.staleness().max);
  });

  it('does not wait for a stuck stream, never polls it twice at once, and polls it again once it settles', async () => {
    const ledger = memoryLedger(10_000_000n);
    let release = () => undefined as void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    holdAccount(ledger, '0.0.101', async () => {
      started += 1;
      await stuck;
    });
    const t = tailer(ledger, 3, { poll_interval: '100ms' });
    const signal = new AbortController().signal;

    await t.round(signal);
    await t.round(signal);
    const whileStuck = started;
    const others = ledger.calls.filter((c) => c === 'tx:0.0.100').length;
    release();
    await t.settled();
    const report = await t.round(signal);

    expect(whileStuck).toBe(1);
    expect(others).toBe(2);
    expect(report.failed).toBe(0);
    expect(started).toBe(2);
  });

  it("a stop reaches a poll that outlived its round; settled rounds leave no listener on the caller's signal", async () => {
    const ledger = memoryLedger(10_000_000n);
    const seen: unknown[] = [];
    holdAccount(ledger, '0.0.101', async (signal) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      seen.push(signal.reason);
      signal.throwIfAborted();
    });
    const t = tailer(ledger, 3, { poll_interval: '100ms' });
    const daemon = new AbortController();
    const quiet = new AbortController();
    const calm = tailer(memoryLedger(10_000_000n), 3, {});
    for (let i = 0; i < 20; i++) await calm.round(quiet.signal);
    await calm.settled();
    await new Promise((resolve) => setImmediate(resolve));

    await t.round(daemon.signal);
    await t.round(daemon.signal);
    const reason = new Error('daemon stopping');
    daemon.abort(reason);
    await t.settled();

    expect(seen).toEqual([reason]);
    expect(getEventListeners(quiet.signal, 'abort')).toHaveLength(0);
  });

  it('run() stops when the signal aborts, mid-sleep', async () => {
    const ledger = memoryLedger(10_000_000n);
    const controller = new AbortController();
    const sleeps: number[] = [];
    const t = tailer(
      ledger,
      2,
      {},
      {
        sleep: (ms: number, signal: AbortSignal) => {
          sleeps.push(ms);
          if (sleeps.length === 1) return Promise.resolve();
          const stopped = new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          );
          controller.abort();
          return stopped;
        },
      },
    );

    await t.run(controller.signal);

    expect(sleeps.length).toBe(2);
    expect(ledger.calls.filter((c) => c === 'head').length).toBe(2);
  });
});
