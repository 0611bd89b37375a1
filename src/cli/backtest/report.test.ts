import { describe, expect, it } from 'vitest';
import type { Alert } from '../../rules/alert/alert.js';
import { alertLine, progressBar, summarize, summaryTable } from './report.js';
import { parseTimeArg } from './parse-time.js';

function alert(ruleId: string, status: Alert['status'], account = '0.0.1'): Alert {
  return {
    key: `${ruleId}|${account}`,
    id: `${ruleId}|${account}|${status}`,
    ruleId,
    severity: 'warning',
    status,
    summary: 'line one\nFAKE line',
    description: '',
    labels: {},
    account: { id: account, name: `acct-${account}`, labels: {} },
    startsAt: '2023-11-14T22:13:20.000Z',
    records: [{ kind: 'transaction', consensusTimestamp: '1700000000.123456789' }],
    matchCount: 1,
    notify: [],
    annotations: {},
  };
}

describe('backtest report', () => {
  it('prints one line per alert at the record time, with control characters neutralised', () => {
    const line = alertLine(alert('large-debit', 'firing'));

    expect(line).toBe(
      '2023-11-14T22:13:20.123456789Z WARNING  firing   large-debit acct-0.0.1 (0.0.1): line one?FAKE line',
    );
  });

  it.each([
    [
      'a window firing: the newest record (the trigger), not the oldest listed',
      'firing',
      '1700000030.000000005',
    ],
    ['a resolve: its end time, not the oldest record of the episode', 'resolved', undefined],
  ] as const)('dates %s', (_name, status, trigger) => {
    const records = ['1700000000.000000001', '1700000010.000000002', '1700000030.000000005'].map((t) => ({
      kind: 'transaction' as const,
      consensusTimestamp: t,
    }));
    const base = { ...alert('burst', status), records, endsAt: '2023-11-14T22:14:00.000000000Z' };
    const withTrigger = trigger
      ? { ...base, trigger: { kind: 'transaction' as const, consensusTimestamp: trigger } }
      : base;

    const line = alertLine(withTrigger);

    expect(line.slice(0, 30)).toBe(
      status === 'firing' ? '2023-11-14T22:13:50.000000005Z' : '2023-11-14T22:14:00.000000000Z',
    );
  });

  it('says what resolved it and why it fired', () => {
    const resolved = {
      ...alert('quiet', 'resolved'),
      summary: 'no reward',
      resolution: 'reward 1 HBAR at t',
    };
    const firing = { ...alert('big', 'firing'), summary: 'big debit', why: 'net debit 5 HBAR ≥ 1 HBAR' };

    expect(alertLine(resolved)).toMatch(/: no reward — reward 1 HBAR at t$/);
    expect(alertLine(firing)).toMatch(/: big debit \(net debit 5 HBAR ≥ 1 HBAR\)$/);
  });

  it('counts per rule, every rule listed', () => {
    const alerts = [alert('a', 'firing'), alert('a', 'firing', '0.0.2'), alert('a', 'resolved')];

    const table = summaryTable(summarize(alerts, ['a', 'b']));

    expect(table.split('\n')).toEqual([
      'rule  firing  resolved  accounts',
      '----  ------  --------  --------',
      'a          2         1         2',
      'b          0         0         0',
    ]);
  });

  it.each([
    [0, '[----------]   0% 0 transactions, 0 alerts'],
    [0.5, '[#####-----]  50% 10 transactions, 1 alerts'],
    [1.7, '[##########] 100% 10 transactions, 1 alerts'],
  ])('draws the progress bar at %s', (done, expected) => {
    const bar = progressBar(done, done === 0 ? 0 : 10, done === 0 ? 0 : 1, 10);

    expect(bar).toBe(expected);
  });

  it.each([
    ['1700000000.5', 1_700_000_000_500_000_000n],
    ['1700000000', 1_700_000_000_000_000_000n],
    ['2023-11-14T22:13:20Z', 1_700_000_000_000_000_000n],
    ['2023-11-14', 1_699_920_000_000_000_000n],
    ['yesterday', undefined],
    ['2023-13-45T99:00:00Z', undefined],
  ])('parses the time %s', (text, expected) => {
    const ns = parseTimeArg(text);

    expect(ns).toBe(expected);
  });
});
