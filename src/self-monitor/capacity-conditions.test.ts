// Capacity on a real tailer against the simulator: the ledger runs at 250 TPS, then at 2 TPS, and the
// request budget is 2 requests/s. The demand estimate crosses the budget and back; the gauge, the log line,
// the /readyz line and the sentinel-capacity-exceeded alert follow it. And `strategy: auto` on one watched
// account moves between per-account and global as the rate changes.
import { afterEach, describe, expect, it } from 'vitest';
import { readinessChecks } from './readiness.js';
import { SelfMonitoringConfig } from './self-monitoring-config.js';
import { createSelfMonitor } from './self-monitor.js';
import { createTailHealth } from '../tail/loop/daemon-loop.js';
import { createLedgerClient } from '../ledger/client.js';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { createLogger } from '../observability/logger.js';
import { createMetrics } from '../observability/metrics.js';
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
import { createTailer } from '../tail/tailer.js';
import { type TailerOptions } from '../tail/tailer-types.js';

const START_MS = 1_700_000_000_000;
/** The ledger runs at 250 TPS until this offset from the start, then at 2 TPS. */
const BUSY_UNTIL_MS = 16_000;
const signal = new AbortController().signal;

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/**
 * A ledger at 250 TPS up to BUSY_UNTIL_MS, then 2 TPS, from 10 s before the start; `grow()` adds the rows up
 * to the clock (the simulator serves every row it holds).
 */
async function changingLedger(clock: () => number) {
  const store = new SimulatorStore();
  let next = timestampFromMillis(START_MS - 10_000);
  const grow = () => {
    const now = timestampFromMillis(clock());
    const busyUntil = timestampFromMillis(START_MS + BUSY_UNTIL_MS);
    for (; next <= now; next += next < busyUntil ? 4_000_000n : 500_000_000n)
      store.addTransaction(makeSimTransaction(sampleTransactionRow(next, 1000n)));
  };
  grow();
  const config = defaultSimulatorConfig({ now: () => timestampFromMillis(clock()) });
  const simulator = await startSimulator({ store, config });
  const client = createLedgerClient({ baseUrl: simulator.url });
  closers.push(
    () => simulator.close(),
    () => client.close(),
  );
  return { source: clientTailSource(client), grow };
}

function logLines() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ destination: { write: (l: string) => void lines.push(JSON.parse(l)) } });
  return { log, lines, messages: () => lines.map((l) => String(l.msg)) };
}

/** A tailer of account 0.0.5 on an in-memory store that hands records to nobody. */
function oneAccountTailer(
  source: TailerOptions['source'],
  config: TailConfig,
  more: Partial<TailerOptions>,
): ReturnType<typeof createTailer> {
  return createTailer({
    store: openStateStore({ dir: ':memory:' }),
    source,
    handler: { prepare: async () => null, apply: () => undefined },
    accounts: watchedAccounts(AccountsConfig.parse([{ id: 5 }])),
    config,
    ...more,
  });
}

describe('tail capacity against the request budget', () => {
  it('fires sentinel-capacity-exceeded while 250 TPS needs more than 2 requests/s, and resolves at 2 TPS', async () => {
    const time = { now: START_MS };
    const clock = () => time.now;
    const metrics = createMetrics();
    const { log, messages } = logLines();
    const ledger = await changingLedger(clock);
    const tailer = oneAccountTailer(ledger.source, TailConfig.parse({ strategy: 'global', start: 'now' }), {
      metrics,
      logger: log,
      clock,
      budgetRps: 2,
    });
    const health = createTailHealth();
    const emitted: Alert[] = [];
    const monitor = createSelfMonitor({
      config: SelfMonitoringConfig.parse({ notify: ['ops'] }),
      health,
      accounts: [],
      staleness: () => [],
      metrics,
      clock,
      startedAt: START_MS,
      notifiers: ['ops'],
      emit: (alerts) => emitted.push(...alerts),
      log: createLogger({ level: 'silent' }),
    });
    const ratios: number[] = [];
    const ready: string[] = [];
    const step = async () => {
      time.now += 2_000;
      ledger.grow();
      await tailer.round(signal);
      health.markPolled(time.now);
      health.capacity = tailer.capacity();
      ratios.push((await metrics.tailCapacityRatio.get()).values[0]?.value ?? NaN);
      console.log('DBG', tailer.head.tps, tailer.head.head, JSON.stringify(tailer.capacity()));
      const checks = readinessChecks({
        configLoaded: () => true,
        stateOpen: () => true,
        health: () => health,
        boundMs: () => 120_000,
        clock,
      });
      ready.push(`${checks.capacity?.ok}:${checks.capacity?.message}`);
      await monitor.check();
    };

    while (time.now < START_MS + BUSY_UNTIL_MS) await step();
    const busy = { alerts: emitted.map((a) => `${a.ruleId}:${a.status}`), ready: ready.at(-1) ?? '' };
    while (time.now < START_MS + BUSY_UNTIL_MS + 60_000) await step();

    expect(busy.alerts).toEqual(['sentinel-capacity-exceeded:firing']);
    expect(busy.ready).toMatch(/^true:exceeded: demand \d+\.\d req\/s of a 2 req\/s budget/);
    expect(Math.max(...ratios)).toBeGreaterThan(1);
    expect(ratios.at(-1)).toBeLessThan(0.7);
    expect(emitted.map((a) => `${a.ruleId}:${a.status}`)).toEqual([
      'sentinel-capacity-exceeded:firing',
      'sentinel-capacity-exceeded:resolved',
    ]);
    expect(emitted[0]?.description).toContain('ledger.requests_per_second');
    expect(ready.at(-1)).toMatch(/^true:demand /);
    const crossings = messages().filter((m) => m.startsWith('tail request demand'));
    expect(crossings).toHaveLength(2);
    expect((await metrics.tailBudget.get()).values[0]?.value).toBe(2);
  });

  it('auto tails one account per account at 250 TPS and switches to global once the rate drops', async () => {
    const time = { now: START_MS };
    const clock = () => time.now;
    const { log, lines } = logLines();
    const ledger = await changingLedger(clock);
    const config = TailConfig.parse({ strategy: 'auto', start: 'now', reevaluate_rounds: 1 });
    const tailer = oneAccountTailer(ledger.source, config, { logger: log, clock });
    const strategies: string[] = [];

    while (time.now < START_MS + BUSY_UNTIL_MS + 40_000) {
      time.now += 2_000;
      ledger.grow();
      await tailer.round(signal);
      strategies.push(tailer.strategy() ?? '-');
    }

    expect(strategies[0]).toBe('per-account');
    expect(strategies.at(-1)).toBe('global');
    const changes = lines.filter((l) => l.msg === 'tail strategy changed');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ from: 'per-account', to: 'global', perAccount: 3 });
    expect(Number(changes[0]?.global)).toBeLessThan(3);
  });
});
