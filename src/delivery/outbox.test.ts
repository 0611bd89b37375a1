import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../state/store.js';
import { createOutbox } from './outbox.js';
import { testAlert } from '../../test/helpers/alerts.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
  dirs.push(dir);
  return dir;
}

describe('outbox', () => {
  it('enqueues inside the caller transaction: a rollback leaves nothing behind', () => {
    const store = openStateStore({ dir: ':memory:' });
    const outbox = createOutbox(store, () => 1000);

    expect(() =>
      store.transaction(() => {
        outbox.enqueue(testAlert(), ['ops']);
        throw new Error('cursor update failed');
      }),
    ).toThrow('cursor update failed');

    expect(outbox.due(2000)).toEqual([]);
  });

  it('records delivery per channel and enqueues each alert and channel once', () => {
    const store = openStateStore({ dir: ':memory:' });
    const outbox = createOutbox(store, () => 1000);
    const alert = testAlert();
    store.transaction(() => outbox.enqueue(alert, ['ops', 'mail', 'ops']));
    store.transaction(() => outbox.enqueue(alert, ['ops']));

    outbox.markSent([alert.id], 'ops', 1500);

    expect(outbox.status(alert.id, 'ops')).toBe('sent');
    expect(outbox.status(alert.id, 'mail')).toBe('pending');
    expect(outbox.due(2000).map((r) => r.channel)).toEqual(['mail']);
    expect(outbox.depth()).toEqual(new Map([['mail', 1]]));
  });

  it('keeps a rescheduled delivery until its next attempt and counts the attempt', () => {
    const store = openStateStore({ dir: ':memory:' });
    const outbox = createOutbox(store, () => 1000);
    const alert = testAlert();
    outbox.enqueue(alert, ['ops']);

    outbox.reschedule([alert.id], 'ops', 5000, 'http_500');

    expect(outbox.due(4999)).toEqual([]);
    expect(outbox.due(5000)).toMatchObject([{ channel: 'ops', attempts: 1, createdAt: 1000, nextAt: 5000 }]);
    expect(outbox.nextDueAt()).toBe(5000);
  });

  it('moves a delivery to the dead-letter list with its reason', () => {
    const store = openStateStore({ dir: ':memory:' });
    const outbox = createOutbox(store, () => 1000);
    const alert = testAlert();
    outbox.enqueue(alert, ['ops']);

    outbox.deadLetter([alert.id], 'ops', 9000, 'permanent (http_404)');

    expect(outbox.due(10_000)).toEqual([]);
    expect(outbox.deadLetters()).toEqual([
      {
        alertId: alert.id,
        channel: 'ops',
        ruleId: 'large-debit',
        attempts: 1,
        reason: 'permanent (http_404)',
        at: 9000,
      },
    ]);
  });

  it('survives a restart: pending deliveries are due again, sent ones are not', () => {
    const dir = tempDir();
    const first = openStateStore({ dir });
    const before = createOutbox(first, () => 1000);
    const [a, b] = [testAlert({ id: 'a' }), testAlert({ id: 'b' })];
    first.transaction(() => {
      before.enqueue(a, ['ops']);
      before.enqueue(b, ['ops']);
    });
    before.markSent(['a'], 'ops', 1100);
    first.close();

    const second = openStateStore({ dir });
    const after = createOutbox(second, () => 2000);

    expect(after.due(2000).map((r) => r.alert.id)).toEqual(['b']);
    expect(after.due(2000)[0]?.alert).toEqual(b);
    second.close();
  });
});
