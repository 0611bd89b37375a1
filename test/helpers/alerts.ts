// Builders for notifier tests (not part of the runtime; imported only by *.test.ts).
import type { Alert, AlertRecord } from '../../src/rules/alert/alert.js';

export function testRecord(overrides: Partial<AlertRecord> = {}): AlertRecord {
  return {
    kind: 'transaction',
    consensusTimestamp: '1700000000.123456789',
    transactionId: '0.0.1234-1700000000-000000001',
    type: 'CRYPTOTRANSFER',
    result: 'INSUFFICIENT_ACCOUNT_BALANCE',
    amountTinybar: '-150000000',
    memo: 'payroll',
    explorerUrl: 'https://hashscan.io/mainnet/transaction/1700000000.123456789',
    ...overrides,
  };
}

export function testAlert(overrides: Partial<Alert> = {}, n = 1): Alert {
  return {
    key: `large-debit/0.0.1234`,
    id: `large-debit/0.0.1234/firing/${n}`,
    ruleId: 'large-debit',
    severity: 'critical',
    status: 'firing',
    summary: 'Large debit on treasury-hot',
    description: 'treasury-hot sent more than 1 HBAR',
    labels: { team: 'treasury' },
    account: { id: '0.0.1234', name: 'treasury-hot', labels: { team: 'treasury' } },
    startsAt: new Date(Date.UTC(2023, 10, 14, 22, 13, n)).toISOString(),
    records: [testRecord()],
    matchCount: 1,
    notify: ['ops'],
    annotations: {},
    ...overrides,
  };
}

/** `count` alerts of one rule with distinct ids. */
export function testAlerts(count: number, overrides: Partial<Alert> = {}): Alert[] {
  return Array.from({ length: count }, (_, i) =>
    testAlert({ id: `large-debit/0.0.1234/firing/${i + 1}`, ...overrides }, i + 1),
  );
}
