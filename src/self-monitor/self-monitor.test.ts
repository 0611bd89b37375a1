import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient } from '../ledger/client.js';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { createLogger } from '../observability/logger.js';
import type { Alert } from '../rules/alert/alert.js';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { openStateStore } from '../state/store.js';
import { clientTailSource } from '../tail/source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../accounts/accounts-config.js';
import { TailConfig } from '../tail/tail-config.js';
import type { StreamStaleness } from '../tail/health/staleness-summary.js';
import { createTailer } from '../tail/tailer.js';
import type { WatchedAccount } from '../accounts/watched-account.js';
import { SelfMonitoringConfig } from './self-monitoring-config.js';
import { createSelfMonitor, type SelfMonitorDeps, type SelfMonitorState } from './self-monitor.js';
import { createSelfMonitorRepo } from './self-monitor-repo.js';
import { createTailHealth } from '../tail/loop/daemon-loop.js';

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
    notifiers: ['ops', 'pager'],
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
    streams.push({ account: '0.0.7', source: 'transactions', seconds: 1 });
    await monitor.check();

    time.now += 600_000;
    health.markPolled(time.now); // other streams answer; this one has not moved
    streams[0] = { account: '0.0.7', source: 'transactions', seconds: 601 };
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

describe('staleness after an outage (held until the stream has been polled since the recovery)', () => {
  const stream = (seconds: number) => ({ account: '0.0.7', source: 'transactions', seconds });

  /** A monitor that polled once; then the service is unreachable for `outageMs` and answers again. */
  async function outageThenRecovery(outage: 'down' | 'failing') {
    const run = setup({ account_stale_after: '60s' });
    const { monitor, streams, health, time } = run;
    health.markPolled(time.now);
    streams.push(stream(1));
    await monitor.check();
    const outageMs = outage === 'down' ? 130_000 : 70_000;
    time.now += outageMs;
    if (outage === 'down') health.lastReachableAt = time.now - outageMs;
    else health.failedRounds = 5; // failing, not yet query_service_down_after
    streams[0] = stream(outageMs / 1000 + 1);
    await monitor.check();
    health.markPolled(time.now); // one stream of the round answered; this one is still backing off
    await monitor.check();
    return run;
  }

  it.each(['down', 'failing'] as const)(
    'fires no stale-cursor alert for a stream polled after the recovery (query service %s)',
    async (outage) => {
      const { monitor, streams, time, emitted } = await outageThenRecovery(outage);

      time.now += 5_000;
      streams[0] = stream(0.5);
      await monitor.check();

      expect(summary(emitted).filter((s) => s.startsWith('sentinel-account-stale'))).toEqual([]);
    },
  );

  it('fires for a stream still not moving account_stale_after after the recovery', async () => {
    const { monitor, streams, time, emitted } = await outageThenRecovery('down');
    const before = summary(emitted);

    time.now += 60_000;
    streams[0] = stream(191);
    await monitor.check();

    expect(before).not.toContain('sentinel-account-stale:firing:ops+pager');
    expect(summary(emitted).slice(before.length)).toEqual(['sentinel-account-stale:firing:ops+pager']);
  });

  it('keeps a stale alert from before the outage firing through it, and resolves it once the stream moves', async () => {
    const { monitor, streams, health, time, emitted } = setup({ account_stale_after: '60s' });
    health.markPolled(time.now);
    streams.push(stream(1));
    await monitor.check();
    time.now += 70_000;
    health.markPolled(time.now);
    streams[0] = stream(71);
    await monitor.check();

    health.failedRounds = 3;
    time.now += 10_000;
    streams[0] = stream(81);
    await monitor.check();
    health.markPolled(time.now);
    await monitor.check();
    const throughRecovery = summary(emitted);
    streams[0] = stream(0.5);
    await monitor.check();

    expect(throughRecovery).toEqual(['sentinel-account-stale:firing:ops+pager']);
    expect(summary(emitted)).toEqual([
      'sentinel-account-stale:firing:ops+pager',
      'sentinel-account-stale:resolved:ops+pager',
    ]);
  });
});

describe('self-monitoring across a restart (state in the state store)', () => {
  /** One process's monitor on a shared store: its state is loaded from and saved to the store, as runtime.ts does. */
  function life(
    store: ReturnType<typeof openStateStore>,
    now: number,
    options: Partial<SelfMonitorDeps> = {},
  ) {
    const repo = createSelfMonitorRepo(store);
    const emitted: Alert[] = [];
    const emit = (alerts: readonly Alert[], state: SelfMonitorState) =>
      store.transaction(() => {
        emitted.push(...alerts);
        repo.save(state);
      });
    const process = setup({}, { state: repo.load(), emit, startedAt: now, ...options });
    process.time.now = now;
    return { ...process, emitted };
  }

  it('keeps a query-service-down alert firing through a restart, without firing it again, until a poll answers', async () => {
    const store = openStateStore({ dir: ':memory:' });
    const first = life(store, 1_000_000);
    first.time.now += 120_001;
    await first.monitor.check();
    expect(summary(first.emitted)).toEqual(['sentinel-query-service-down:firing:ops+pager']);

    const second = life(store, first.time.now + 5_000);
    await second.monitor.check();
    second.time.now += 60_000;
    await second.monitor.check();
    const beforeAnswer = [...second.emitted];
    second.health.markPolled(second.time.now);
    await second.monitor.check();

    expect(beforeAnswer).toEqual([]);
    expect(second.monitor.firing().map((a) => a.ruleId)).toEqual([]);
    expect(summary(second.emitted)).toEqual(['sentinel-query-service-down:resolved:ops+pager']);
    expect(second.emitted[0]?.startsAt).toBe(first.emitted[0]?.startsAt);
  });

  it('holds back staleness alerts after a restart until the stream moves, or account_stale_after passes', async () => {
    const store = openStateStore({ dir: ':memory:' });
    const first = life(store, 1_000_000);
    first.time.now += 120_001;
    await first.monitor.check();

    const second = life(store, first.time.now + 1_000);
    second.streams.push({ account: '0.0.7', source: 'transactions', seconds: 900 });
    await second.monitor.check();
    const whileUnconfirmed = [...second.emitted];
    second.health.markPolled(second.time.now);
    await second.monitor.check();
    const afterAnswer = [...second.emitted];
    second.time.now += 600_000;
    second.health.markPolled(second.time.now);
    second.streams[0] = { account: '0.0.7', source: 'transactions', seconds: 1500 };
    await second.monitor.check();

    expect(whileUnconfirmed).toEqual([]);
    expect(summary(afterAnswer)).toEqual(['sentinel-query-service-down:resolved:ops+pager']);
    expect(summary(second.emitted.slice(afterAnswer.length))).toEqual([
      'sentinel-account-stale:firing:ops+pager',
    ]);
  });

  /** A first life on a fresh store in which `failures` deliveries to ops failed, checked once. */
  async function failingLife(failures: number) {
    const store = openStateStore({ dir: ':memory:' });
    const first = life(store, 1_000_000);
    first.health.markPolled(first.time.now);
    first.metrics.notifications.inc({ notifier: 'ops', outcome: 'retry', reason: 'http_500' }, failures);
    await first.monitor.check();
    return { store, first };
  }

  it('carries a run of failed deliveries over a restart, and resolves on the first send after it', async () => {
    const { store, first } = await failingLife(2);

    // Two failures before the restart and one after make the three of delivery_failures.
    const second = life(store, first.time.now + 1_000);
    second.health.markPolled(second.time.now);
    await second.monitor.check();
    second.metrics.notifications.inc({ notifier: 'ops', outcome: 'dead', reason: 'http_500' });
    await second.monitor.check();
    const fired = [...second.emitted];

    const third = life(store, second.time.now + 1_000);
    third.health.markPolled(third.time.now);
    await third.monitor.check();
    const afterRestart = [...third.emitted];
    third.metrics.notifications.inc({ notifier: 'ops', outcome: 'sent', reason: '' });
    await third.monitor.check();

    expect(summary(fired)).toEqual(['sentinel-delivery-failing:firing:pager']);
    expect(afterRestart).toEqual([]);
    expect(summary(third.emitted)).toEqual(['sentinel-delivery-failing:resolved:pager']);
  });

  it('resolves the delivery alert of a notifier that is no longer configured', async () => {
    const { store, first } = await failingLife(3);

    const second = life(store, first.time.now + 1_000, { notifiers: ['pager'] });
    second.health.markPolled(second.time.now);
    await second.monitor.check();

    expect(summary(first.emitted)).toEqual(['sentinel-delivery-failing:firing:pager']);
    expect(summary(second.emitted)).toEqual(['sentinel-delivery-failing:resolved:pager']);
  });

  it('adopts nothing when the write fails, so the next check emits the same transition', async () => {
    const { monitor, time, health } = setup(
      {},
      {
        emit: () => {
          throw new Error('disk full');
        },
      },
    );
    health.markPolled(time.now);
    time.now += 120_001;

    await expect(monitor.check()).rejects.toThrow('disk full');
    expect(monitor.firing()).toEqual([]);
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
    health.markPolled(time.now);
    await monitor.check();
    time.now += 600_000;
    health.markPolled(time.now); // the service answers; the cursors have not moved for 601 s

    await monitor.check();

    const stale = new Set(emitted.map((a) => a.account?.id));
    expect(emitted.every((a) => a.ruleId === 'sentinel-account-stale')).toBe(true);
    expect(stale.size).toBe(60);
    expect((await metrics.staleness.get()).values).toHaveLength(50);
  });
});
