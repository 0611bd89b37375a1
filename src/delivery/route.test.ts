import { describe, expect, it } from 'vitest';
import type { Alert } from '../rules/alert/alert.js';
import { findSilence, routeAlert } from './route.js';
import { Routes, Silences } from '../notifiers/schema.js';
import { testAlert } from '../../test/helpers/alerts.js';

const routes = Routes.parse([
  { match: { severity: ['critical'] }, notify: ['pager'] },
  { match: { labels: { team: 'treasury' } }, notify: ['treasury-mail'] },
  { match: { rule: ['failed-tx'] }, notify: ['ops'] },
  { notify: ['archive'] },
]);

describe('routeAlert', () => {
  it.each<[string, Partial<Alert>, string[]]>([
    ['rule notify plus every matching route', {}, ['ops', 'pager', 'treasury-mail', 'archive']],
    ['severity not matched', { severity: 'info', notify: [] }, ['treasury-mail', 'archive']],
    [
      'labels from the account count',
      { labels: {}, severity: 'warning', notify: [] },
      ['treasury-mail', 'archive'],
    ],
    ['labels not matched', { labels: {}, account: undefined, severity: 'warning', notify: [] }, ['archive']],
    [
      'rule matched, no duplicates',
      { ruleId: 'failed-tx', notify: ['ops'], severity: 'info', labels: {}, account: undefined },
      ['ops', 'archive'],
    ],
  ])('%s', (_name, overrides, expected) => {
    const channels = routeAlert(testAlert(overrides), routes);

    expect(channels).toEqual(expected);
  });
});

describe('findSilence', () => {
  const silences = Silences.parse([
    { rule: 'large-debit', ends_at: '2024-01-01T00:00:00Z', comment: 'rule' },
    {
      account: '0.0.999',
      starts_at: '2024-02-01T00:00:00Z',
      ends_at: '2024-02-01T02:00:00Z',
      comment: 'window',
    },
    {
      labels: { team: 'payments' },
      notifiers: ['pager'],
      ends_at: '2030-01-01T00:00:00Z',
      comment: 'pager only',
    },
  ]);

  it.each<[string, Partial<Alert>, string, string, string | undefined]>([
    ['by rule before its end', {}, 'ops', '2023-12-31T23:59:59Z', 'rule'],
    ['by rule after its end', {}, 'ops', '2024-01-01T00:00:00Z', undefined],
    [
      'maintenance window, inside',
      { ruleId: 'x', account: { id: '0.0.999', name: 'n', labels: {} } },
      'ops',
      '2024-02-01T01:00:00Z',
      'window',
    ],
    [
      'maintenance window, before',
      { ruleId: 'x', account: { id: '0.0.999', name: 'n', labels: {} } },
      'ops',
      '2024-01-31T23:00:00Z',
      undefined,
    ],
    [
      'labels, on the named notifier',
      { ruleId: 'x', labels: { team: 'payments' } },
      'pager',
      '2024-03-01T00:00:00Z',
      'pager only',
    ],
    [
      'labels, other notifier',
      { ruleId: 'x', labels: { team: 'payments' } },
      'ops',
      '2024-03-01T00:00:00Z',
      undefined,
    ],
  ])('%s', (_name, overrides, channel, at, expected) => {
    const silence = findSilence(testAlert(overrides), channel, silences, Date.parse(at));

    expect(silence?.comment).toBe(expected);
  });
});
