import { describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { createLogger } from '../observability/logger.js';
import type { Alert } from '../rules/alert.js';
import { SelfMonitoringConfig } from './config.js';
import { createSelfMonitor } from './self-monitor.js';
import { createTailHealth } from './tail-loop.js';

function setup(overrides: Record<string, unknown> = {}) {
  const metrics = createMetrics();
  const health = createTailHealth();
  const time = { now: 1_000_000 };
  const emitted: Alert[] = [];
  const monitor = createSelfMonitor({
    config: SelfMonitoringConfig.parse({ notify: ['ops', 'pager'], delivery_failures: 3, ...overrides }),
    health,
    accounts: [{ id: '0.0.7', name: 'hot', labels: {}, priority: 0, rewardsPath: '0.0.7' }],
    metrics,
    clock: () => time.now,
    startedAt: time.now,
    emit: (alerts) => emitted.push(...alerts),
    log: createLogger({ level: 'silent', secrets: ['x-never-x'] }),
  });
  return { metrics, health, time, emitted, monitor };
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
    const { monitor, metrics, health, time, emitted } = setup();
    health.markPolled(time.now);
    metrics.staleness.set({ account: '0.0.7', source: 'transactions' }, 601);

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
