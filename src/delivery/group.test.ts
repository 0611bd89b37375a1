import { describe, expect, it } from 'vitest';
import type { Alert } from '../rules/alert/alert.js';
import { nextGroupReadyAt, readyGroups } from './group.js';
import type { DeliveryRow } from './outbox.js';
import { testAlert } from '../../test/helpers/alerts.js';

function row(
  id: string,
  createdAt: number,
  extra: Partial<DeliveryRow> = {},
  alert: Partial<Alert> = {},
): DeliveryRow {
  return {
    alert: testAlert({ id, ...alert }),
    channel: 'ops',
    attempts: 0,
    createdAt,
    nextAt: createdAt,
    ...extra,
  };
}

const wait10s = () => 10_000;

describe('readyGroups', () => {
  it.each<[string, DeliveryRow[], number, string[][]]>([
    ['nothing before the wait', [row('a', 0), row('b', 5000)], 9999, []],
    ['one digest once the oldest waited', [row('a', 0), row('b', 5000)], 10_000, [['a', 'b']]],
    ['a single alert stays single', [row('a', 0)], 10_000, [['a']]],
    ['rules apart', [row('a', 0), row('b', 0, {}, { ruleId: 'other' })], 10_000, [['a'], ['b']]],
    [
      'firing and resolved apart',
      [row('a', 0), row('b', 0, {}, { status: 'resolved' })],
      10_000,
      [['a'], ['b']],
    ],
    ['channels apart', [row('a', 0), row('b', 0, { channel: 'mail' })], 10_000, [['a'], ['b']]],
    ['a retry does not wait', [row('a', 0, { attempts: 1 }), row('b', 9000)], 9500, [['a', 'b']]],
  ])('%s', (_name, rows, now, expected) => {
    const groups = readyGroups(rows, now, wait10s);

    expect(groups.map((g) => g.rows.map((r) => r.alert.id))).toEqual(expected);
  });

  it('makes a digest of several and a single of one', () => {
    const [digest, single] = readyGroups(
      [row('a', 0), row('b', 0), row('c', 0, { channel: 'mail' })],
      10_000,
      wait10s,
    );

    expect(digest?.notification).toMatchObject({ kind: 'digest', ruleId: 'large-debit' });
    expect(single?.notification).toMatchObject({ kind: 'single', alert: { id: 'c' } });
  });

  it('caps a digest; the rest waits for the next pass', () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(`r${i}`, 0));

    const groups = readyGroups(rows, 10_000, wait10s, 3);

    expect(groups[0]?.rows).toHaveLength(3);
  });
});

describe('nextGroupReadyAt', () => {
  it('is when the earliest fresh row has waited', () => {
    expect(nextGroupReadyAt([row('a', 5000), row('b', 2000), row('c', 0, { attempts: 2 })], wait10s)).toBe(
      12_000,
    );
  });
});
