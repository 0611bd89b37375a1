// What the status page reads from the outbox: the latest alerts, the firing ones, each channel's last error.
import { describe, expect, it } from 'vitest';
import { openStateStore } from '../state/store.js';
import { createOutbox } from './outbox.js';
import { testAlert, testAlerts } from '../../test/helpers/alerts.js';

function outbox() {
  return createOutbox(openStateStore({ dir: ':memory:' }), () => 1000);
}

describe('outbox for the status page', () => {
  it('lists the latest alerts newest first, at most the limit', () => {
    const box = outbox();
    for (const alert of testAlerts(5)) box.enqueue(alert, ['ops']);

    expect(box.recent(3).map((a) => a.id)).toEqual([
      'large-debit/0.0.1234/firing/5',
      'large-debit/0.0.1234/firing/4',
      'large-debit/0.0.1234/firing/3',
    ]);
  });

  it('lists firing alerts that will resolve, not one-shot ones nor resolved ones', () => {
    const box = outbox();
    box.enqueue(testAlert({ key: 'a', id: 'a|firing', resolves: true }), ['ops']);
    box.enqueue(testAlert({ key: 'b', id: 'b|firing', resolves: true }), ['ops']);
    box.enqueue(testAlert({ key: 'c', id: 'c|firing' }), ['ops']);
    box.enqueue(testAlert({ key: 'b', id: 'b|resolved', resolves: true, status: 'resolved' }), ['ops']);

    expect(box.firing.list(10).map((a) => a.key)).toEqual(['a']);
    expect(box.firing.size()).toBe(1);
  });

  it("gives each channel's latest failure still retrying or dead-lettered, not a pause's postponement", () => {
    const box = outbox();
    const [a, b, c] = testAlerts(3);
    for (const alert of [a, b, c]) if (alert) box.enqueue(alert, ['ops', 'mail']);

    box.reschedule([a?.id ?? ''], 'ops', 5000, 'http_500');
    box.deadLetter([b?.id ?? ''], 'ops', 7000, 'http_400: bad payload');
    box.postpone([c?.id ?? ''], 'mail', 9000, 'paused');

    expect(box.lastErrors()).toEqual(
      new Map([['ops', { message: 'http_400: bad payload', at: 7000, state: 'dead-lettered' }]]),
    );
  });
});
