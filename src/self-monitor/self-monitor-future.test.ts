// The `sentinel-future-record` built-in alert: fires on a record from the future with how far ahead it was,
// stays firing while more come, resolves after future_record_resolve_after without one, and a restart while it
// fires does not resolve it at once.
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { createLogger } from '../observability/logger.js';
import type { Alert } from '../rules/alert/alert.js';
import type { FutureSighting } from '../tail/head/future-records.js';
import { SelfMonitoringConfig } from './self-monitoring-config.js';
import { createSelfMonitor, type SelfMonitorState } from './self-monitor.js';
import { createTailHealth } from '../tail/loop/daemon-loop.js';

function setup(state?: SelfMonitorState, startMs = 1_000_000) {
  const health = createTailHealth();
  const time = { now: startMs };
  health.markPolled(time.now);
  const emitted: Alert[] = [];
  const monitor = createSelfMonitor({
    config: SelfMonitoringConfig.parse({ notify: ['ops'], future_record_resolve_after: '10m' }),
    health,
    accounts: [],
    staleness: () => [],
    metrics: createMetrics(),
    clock: () => time.now,
    startedAt: time.now,
    notifiers: ['ops'],
    // Only this alert: the clock moves far past query_service_down_after without a poll.
    emit: (alerts) => emitted.push(...alerts.filter((a) => a.ruleId === 'sentinel-future-record')),
    log: createLogger({ level: 'silent', secrets: ['x-never-x'] }),
    ...(state ? { state } : {}),
  });
  return { health, time, emitted, monitor };
}

function sighting(atMs: number, seconds = 2_402_444_800): FutureSighting {
  const timestamp = '4102444800.000000000';
  return { atMs, seconds, timestamp, account: '0.0.1003', source: 'transactions' };
}

describe('sentinel-future-record', () => {
  it('fires with the seconds in the future, and resolves after a quiet period', async () => {
    const { monitor, time, health, emitted } = setup();

    health.lastFuture = sighting(time.now);
    await monitor.check();
    health.lastFuture = sighting(time.now + 300_000, 12);
    time.now += 300_000 + 599_000;
    await monitor.check();
    time.now += 2_000;
    await monitor.check();

    expect(emitted.map((a) => `${a.ruleId}:${a.status}`)).toEqual([
      'sentinel-future-record:firing',
      'sentinel-future-record:resolved',
    ]);
    expect(emitted[0]?.summary).toBe('The query service returned a record 2402444800 s in the future');
    expect(emitted[0]?.description).toContain('0.0.1003');
    expect(emitted[0]?.description).toContain('4102444800.000000000');
  });

  it('does not fire without a record from the future', async () => {
    const { monitor, emitted } = setup();

    await monitor.check();

    expect(emitted).toEqual([]);
  });

  it('after a restart while it fires, stays firing for the quiet period, then resolves', async () => {
    const first = setup();
    first.health.lastFuture = sighting(first.time.now);
    await first.monitor.check();
    const saved: SelfMonitorState = { firing: new Map(), streaks: new Map() };
    for (const a of first.monitor.firing()) saved.firing.set(a.key, a);

    const second = setup(saved, first.time.now + 3_600_000);
    await second.monitor.check();
    const early = [...second.emitted];
    second.time.now += 600_001;
    await second.monitor.check();

    expect(early).toEqual([]);
    expect(second.emitted.map((a) => `${a.ruleId}:${a.status}`)).toEqual(['sentinel-future-record:resolved']);
  });
});
