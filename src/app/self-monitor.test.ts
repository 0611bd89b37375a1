import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../ledger/client.js';
import { timestampFromMillis } from '../ledger/timestamp.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { createLogger } from '../observability/logger.js';
import type { Alert } from '../rules/alert.js';
import { defaultSimulatorConfig } from '../simulator/config.js';
import { sampleTransactionRow } from '../simulator/sample-rows.js';
import { startSimulator } from '../simulator/server.js';
import { SimulatorStore } from '../simulator/store.js';
import { makeSimTransaction } from '../simulator/transaction-json.js';
import { openStateStore } from '../state/store.js';
import { clientTailSource } from '../tail/client-source.js';
import { AccountsConfig, TailConfig, watchedAccounts } from '../tail/config.js';
import type { StreamStaleness } from '../tail/staleness.js';
import { createTailer } from '../tail/tailer.js';
import type { WatchedAccount } from '../tail/watched-account.js';
import { SelfMonitoringConfig } from './config.js';
import { createSelfMonitor, type SelfMonitorDeps } from './self-monitor.js';
import { createTailHealth } from './tail-loop.js';

function setup(overrides: Record<string, unknown> = {}, options: Partial<SelfMonitorDeps> = {}) {
  const metrics = createMetrics();
  const health = createTailHealth();
  const time = { now: 1_000_000 };
  const emitted: Alert[] = [];
  const streams: StreamStaleness[] = [];
  const monitor = createSelfMonitor({
    config: SelfMonitoringConfig.parse({ notify: ['ops', 'pager'], delivery_failures: 3, ...overrides }),
    health,
    accounts: [{ id: '0.0.7', name: 'hot', labels: {}, priority: 0, rewardsPath: '0.0.7' }],
    staleness: () => streams,
    metrics,
    clock: () => time.now,
    startedAt: time.now,
    emit: (alerts) => emitted.push(...alerts),
    log: createLogger({ level: 'silent', secrets: ['x-never-x'] }),
    ...options,
  });
  return { metrics, health, time, emitted, monitor, streams };
}

const summary = (alerts: readonly Alert[]) =>
  alerts.map((a) => `${a.ruleId}:${a.status}:${a.notify.join('+')}`);

describe('self-monitoring checks', () => {
  it('fires when the query service has not answered for query_service_down_after, and resolves on an answer', async () => {
    const { monitor, time, health, emitted } = setup();
    health.markPolled(time.now);

    time.now += 120_001;
    await monitor.check();
    health.markPolled(time.now);
    await monitor.check();

    expect(summary(emitted)).toEqual([
      'sentinel-query-service-down:firing:ops+pager',
      'sentinel-query-service-down:resolved:ops+pager',
    ]);
  });

  it('fires for a stale account, naming it', async () => {
    const { monitor, streams, health, time, emitted } = setup();
    health.markPolled(time.now);
    streams.push({ account: '0.0.7', source: 'transactions', seconds: 601 });

    await monitor.check();

    expect(summary(emitted)).toEqual(['sentinel-account-stale:firing:ops+pager']);
    expect(emitted[0]?.account?.name).toBe('hot');
  });

  it('fires after delivery_failures failed attempts in a row, not to the failing notifier', async () => {
    const { monitor, metrics, health, time, emitted } = setup();
    health.markPolled(time.now);
    metrics.notifications.inc({ notifier: 'ops', outcome: 'retry', reason: 'http_500' }, 2);
    await monitor.check();
    const afterTwo = emitted.length;

    metrics.notifications.inc({ notifier: 'ops', outcome: 'dead', reason: 'http_500' });
    await monitor.check();
    metrics.notifications.inc({ notifier: 'ops', outcome: 'sent', reason: '' });
    await monitor.check();

    expect(afterTwo).toBe(0);
    expect(summary(emitted)).toEqual([
      'sentinel-delivery-failing:firing:pager',
      'sentinel-delivery-failing:resolved:pager',
    ]);
  });
});

describe('self-monitoring on a real tailer', () => {
  let closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.reverse()) await close();
    closers = [];
  });

  async function tailerOn(accounts: readonly WatchedAccount[], clock: () => number, metrics: Metrics) {
    const ledger = new SimulatorStore();
    const newest = timestampFromMillis(clock() - 1_000);
    ledger.addTransaction(makeSimTransaction(sampleTransactionRow(newest, 1000n)));
    const config = defaultSimulatorConfig({ now: () => timestampFromMillis(clock()) });
    const simulator = await startSimulator({ store: ledger, config });
    const client = createLedgerClient({ baseUrl: simulator.url });
    closers.push(
      () => simulator.close(),
      () => client.close(),
    );
    return createTailer({
      store: openStateStore({ dir: ':memory:' }),
      source: clientTailSource(client),
      handler: { prepare: async () => null, apply: () => undefined },
      accounts,
      config: TailConfig.parse({ strategy: 'per-account', start: 'now' }),
      metrics,
      clock,
      stalenessTop: 50,
    });
  }

  it('fires for every stale stream, also beyond the 50 exported as staleness series', async () => {
    const entries = Array.from({ length: 60 }, (_, i) => ({ id: 2000 + i, sources: ['transactions'] }));
    const accounts = watchedAccounts(AccountsConfig.parse(entries));
    let streams = () => [] as readonly StreamStaleness[];
    const { monitor, metrics, health, time, emitted } = setup({}, { accounts, staleness: () => streams() });
    const tailer = await tailerOn(accounts, () => time.now, metrics);
    streams = () => tailer.streamStaleness();
    await tailer.round(new AbortController().signal);
    time.now += 600_000;
    health.markPolled(time.now); // the service answers; the cursors are 601 s behind

    await monitor.check();

    const stale = new Set(emitted.map((a) => a.account?.id));
    expect(emitted.every((a) => a.ruleId === 'sentinel-account-stale')).toBe(true);
    expect(stale.size).toBe(60);
    expect((await metrics.staleness.get()).values).toHaveLength(50);
  });
});
