import { describe, expect, it } from 'vitest';
import { formatAmount, formatConsensusTime, formatHbar, notificationTitle } from './format.js';
import { testAlerts } from '../../test/helpers/alerts.js';

describe('formatHbar', () => {
  it.each([
    ['0', '0 HBAR'],
    ['1', '0.00000001 HBAR'],
    ['-150000000', '-1.5 HBAR'],
    ['100000000', '1 HBAR'],
    ['123456789012345678', '1,234,567,890.12345678 HBAR'],
    ['-9223372036854775808', '-92,233,720,368.54775808 HBAR'],
    ['12x', '12x tinybars'],
  ])('%s tinybars → %s', (tinybar, expected) => {
    const text = formatHbar(tinybar);

    expect(text).toBe(expected);
  });

  it('shows HBAR and tinybars together', () => {
    const text = formatAmount('-150000000');

    expect(text).toBe('-1.5 HBAR (-150000000 tinybars)');
  });
});

describe('formatConsensusTime', () => {
  it.each([
    ['1700000000.123456789', '2023-11-14 22:13:20.123456789 UTC'],
    ['1700000000.5', '2023-11-14 22:13:20.500000000 UTC'],
    ['1700000000', '2023-11-14 22:13:20.000000000 UTC'],
    ['garbage', 'garbage'],
  ])('%s → %s', (timestamp, expected) => {
    expect(formatConsensusTime(timestamp)).toBe(expected);
  });
});

describe('notificationTitle', () => {
  it('summarises a digest with count, rule, account and span', () => {
    const alerts = testAlerts(12).map((a, i) => ({
      ...a,
      startsAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i * 10)).toISOString(),
    }));

    const title = notificationTitle({ kind: 'digest', ruleId: 'large-debit', alerts });

    expect(title).toBe('12 alerts of rule large-debit on treasury-hot in 110 s');
  });
});
