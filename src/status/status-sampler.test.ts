import { describe, expect, it } from 'vitest';
import { testAlert } from '../../test/helpers/alerts.js';
import { createOutbox } from '../delivery/outbox.js';
import { openStateStore } from '../state/store.js';
import { alertsPerHour } from './status-sampler.js';

const HOUR = 3_600_000;

describe('alerts per hour for the status page chart', () => {
  it('counts firing alerts by hour and severity over the last 24 hours, without reminders or resolves', () => {
    const now = Date.UTC(2030, 0, 2, 12, 30);
    let clock = now;
    const store = openStateStore({ dir: ':memory:' });
    const outbox = createOutbox(store, () => clock);
    const enqueue = (at: number, overrides: Parameters<typeof testAlert>[0]) => {
      clock = at;
      outbox.enqueue(testAlert(overrides), ['ops']);
    };
    enqueue(now - 25 * HOUR, { id: 'too-old' });
    enqueue(now - 2 * HOUR, { id: 'a|firing|1' });
    enqueue(now - 2 * HOUR, { id: 'b|firing|1', severity: 'warning' });
    enqueue(now - 2 * HOUR, { id: 'a|firing|1|repeat-1' });
    enqueue(now - 1000, { id: 'c|firing|1' });
    enqueue(now - 1000, { id: 'c|resolved|1', status: 'resolved' });

    const hours = alertsPerHour(store)(now);

    const start = Math.floor(now / HOUR) * HOUR;
    expect(hours.sort((x, y) => x.hour - y.hour)).toEqual([
      { hour: start - 2 * HOUR, critical: 1, warning: 1, info: 0 },
      { hour: start, critical: 1, warning: 0, info: 0 },
    ]);
  });
});
