// The sentinel-account-unresolved alert: fires for an account left unresolved longer than account_stale_after,
// resolves once it is resolved, and is held back while the query service is down.
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { createLogger } from '../observability/logger.js';
import type { Alert } from '../rules/alert/alert.js';
import { AccountsConfig, watchedAccounts } from '../accounts/accounts-config.js';
import { SelfMonitoringConfig } from './self-monitoring-config.js';
import type { UnresolvedAccount } from './unresolved-conditions.js';
import { createSelfMonitor, createSelfMonitorState } from './self-monitor.js';
import { createTailHealth } from '../tail/loop/daemon-loop.js';
import { unresolvedConditions } from './unresolved-conditions.js';

const ALIAS = 'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ';
const [ACCOUNT] = watchedAccounts(AccountsConfig.parse([{ id: ALIAS, name: 'cold' }]));
const PENDING: UnresolvedAccount = {
  account: ACCOUNT as NonNullable<typeof ACCOUNT>,
  entry: 'accounts[3].id',
  since: 0,
};

describe('unresolved account conditions', () => {
  it.each([
    [600_000, 0],
    [600_001, 1],
  ])('at %i ms after it was left unresolved: %i condition(s)', (now, count) => {
    expect(unresolvedConditions([PENDING], 600_000, now)).toHaveLength(count);
  });

  it('names the config entry and the lookup', () => {
    const [condition] = unresolvedConditions([PENDING], 1000, 61_000);

    expect(condition).toMatchObject({
      key: `sentinel-account-unresolved|${ALIAS}`,
      severity: 'warning',
      summary: 'Account cold is not known to the query service',
      description: `accounts[3].id (${ALIAS}) has not resolved to an account id for 61 s: it is not tailed, so no alert can fire for it. Check the address or alias; the lookup is retried.`,
    });
  });

  it('is held back while the query service is down, fires once it answers, and resolves once resolved', async () => {
    const state = createSelfMonitorState();
    const emitted: Alert[] = [];
    const time = { now: 1_000_000 };
    const health = createTailHealth();
    const monitor = (unresolved: readonly UnresolvedAccount[]) =>
      createSelfMonitor({
        config: SelfMonitoringConfig.parse({ notify: ['ops'], account_stale_after: '10s' }),
        health,
        accounts: [],
        staleness: () => [],
        metrics: createMetrics(),
        notifiers: ['ops'],
        clock: () => time.now,
        startedAt: 0,
        emit: (alerts) => emitted.push(...alerts),
        log: createLogger({ level: 'silent', secrets: ['x-never-x'] }),
        state,
        unresolved,
      });
    const pending = [{ ...PENDING, since: time.now }];

    health.markPolled(time.now);
    time.now += 5_000;
    await monitor(pending).check();
    time.now += 300_000;
    await monitor(pending).check();
    const duringOutage = emitted.map((a) => `${a.ruleId}:${a.status}`);
    health.markPolled(time.now);
    await monitor(pending).check();
    await monitor([]).check();

    expect(duringOutage).toEqual(['sentinel-query-service-down:firing']);
    expect(emitted.slice(1).map((a) => `${a.ruleId}:${a.status}`)).toEqual([
      'sentinel-account-unresolved:firing',
      'sentinel-query-service-down:resolved',
      'sentinel-account-unresolved:resolved',
    ]);
  });
});
