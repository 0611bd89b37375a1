import { describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { createLogger } from '../observability/logger.js';
import type { Alert } from '../rules/alert/alert.js';
import { openStateStore } from '../state/store.js';
import { createQuarantine, type NewQuarantinedRecord } from '../tail/quarantine/quarantine-store.js';
import { SelfMonitoringConfig } from './self-monitoring-config.js';
import { MAX_QUARANTINE_ALERTS, quarantineConditions } from './quarantine-conditions.js';
import { createSelfMonitor } from './self-monitor.js';
import { createTailHealth } from '../tail/loop/daemon-loop.js';

const HOT = {
  id: '0.0.1003',
  name: 'treasury-hot',
  labels: { role: 'treasury' },
  priority: 0,
  rewardsPath: '0.0.1003',
};

function record(ts: string, change: Partial<NewQuarantinedRecord> = {}): NewQuarantinedRecord {
  return {
    stream: 'tx:0.0.1003',
    source: 'transactions',
    accounts: ['0.0.1003'],
    timestamp: ts,
    transactionId: '0.0.1006-1764071991-000000003',
    path: 'transactions[3].memo_base64',
    field: 'memo_base64',
    reason: 'Invalid input: expected string, received object',
    pageUrl: '/api/v1/transactions?account.id=0.0.1003&timestamp=gt:1',
    index: 3,
    raw: '{}',
    ...change,
  };
}

describe('quarantine conditions', () => {
  it('names the record, the field and the account', () => {
    const store = openStateStore({ dir: ':memory:' });
    const q = createQuarantine(store, () => 5);
    q.add(record('1764072000.123456792'));

    const [c] = quarantineConditions({ records: q.list(), total: q.count() }, [HOT]);

    expect(c).toMatchObject({
      key: 'sentinel-record-quarantined|tx:0.0.1003|1764072000.123456792',
      ruleId: 'sentinel-record-quarantined',
      summary:
        'Ledger record 1764072000.123456792 (0.0.1006-1764071991-000000003) of treasury-hot could not be read',
      account: { id: '0.0.1003', name: 'treasury-hot' },
    });
    expect(c?.description).toContain('Field memo_base64 at transactions[3].memo_base64');
    expect(c?.description).toContain('quarantine ls');
  });

  it('keeps service text from formatting or linking in the alert', () => {
    const [c] = quarantineConditions(
      {
        records: [
          { ...record('<@here> *x*', { transactionId: '[a](http://e)' }), key: 'k', quarantinedAt: 0 },
        ],
        total: 1,
      },
      [],
    );

    expect(c?.summary).toBe('Ledger record ??here? ?x? ([a]?http:??e?) could not be read');
  });

  it('gives the oldest records an alert each and sums up the rest in one', () => {
    const records = Array.from({ length: MAX_QUARANTINE_ALERTS }, (_, i) => ({
      ...record(`1.${String(i).padStart(9, '0')}`),
      key: String(i),
      quarantinedAt: i,
    }));

    const conditions = quarantineConditions({ records, total: MAX_QUARANTINE_ALERTS + 7 }, [HOT]);

    expect(conditions).toHaveLength(MAX_QUARANTINE_ALERTS + 1);
    expect(conditions.at(-1)?.summary).toBe('7 more ledger records could not be read');
  });
});

describe('self-monitoring of the quarantine', () => {
  it('fires once per quarantined record, and resolves when it is released', async () => {
    const store = openStateStore({ dir: ':memory:' });
    const q = createQuarantine(store);
    const emitted: Alert[] = [];
    const monitor = createSelfMonitor({
      config: SelfMonitoringConfig.parse({ notify: ['ops'] }),
      health: createTailHealth(),
      accounts: [HOT],
      staleness: () => [],
      metrics: createMetrics(),
      clock: () => 1_000,
      startedAt: 1_000,
      notifiers: ['ops'],
      emit: (alerts) => emitted.push(...alerts),
      log: createLogger({ level: 'silent', secrets: ['x-never-x'] }),
      quarantined: () => ({ records: q.list(MAX_QUARANTINE_ALERTS), total: q.count() }),
    });
    q.add(record('1764072000.123456792'));

    await monitor.check();
    await monitor.check();
    q.remove('tx:0.0.1003', '1764072000.123456792');
    await monitor.check();

    expect(emitted.map((a) => `${a.ruleId}:${a.status}`)).toEqual([
      'sentinel-record-quarantined:firing',
      'sentinel-record-quarantined:resolved',
    ]);
    expect(emitted[0]?.account?.name).toBe('treasury-hot');
  });
});
