import { describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import type { Channel } from './channels.js';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker.js';
import { NotifyError, type Notification, type Notifier } from './notifier.js';
import { createOutbox } from './outbox.js';
import type { Silence } from './schema.js';
import { testAlert, testAlerts } from './testing/alerts.js';
import { testClock } from './testing/clock.js';
import { captureLogs } from './testing/log-capture.js';

/** A notifier that records what it was given and fails with the scripted errors first. */
function recordingNotifier(name: string, failures: NotifyError[] = []) {
  const sent: Notification[] = [];
  const notifier: Notifier = {
    name,
    kind: 'test',
    send(notification) {
      const failure = failures.shift();
      if (failure) return Promise.reject(failure);
      sent.push(notification);
      return Promise.resolve();
    },
  };
  return { notifier, sent };
}

function setup(channelList: Notifier[], extra: Partial<DeliveryWorkerOptions> = {}, groupWaitMs = 0) {
  const clock = testClock();
  const store = openStateStore({ dir: ':memory:' });
  const outbox = createOutbox(store, clock.now);
  const channels = new Map<string, Channel>(
    channelList.map((n) => [n.name, { notifier: n, groupWaitMs, deadlineMs: 3_600_000 }]),
  );
  const logs = captureLogs();
  const metrics = createMetrics();
  const worker = createDeliveryWorker({
    outbox,
    channels,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0,
    logger: logs.logger,
    metrics,
    ...extra,
  });
  return { clock, store, outbox, worker, logs, metrics };
}

describe('delivery worker', () => {
  it('folds a burst of one rule into one digest after the group wait', async () => {
    const ops = recordingNotifier('ops');
    const { clock, store, outbox, worker } = setup([ops.notifier], {}, 10_000);
    store.transaction(() => testAlerts(12).forEach((a) => outbox.enqueue(a, ['ops'])));

    const early = await worker.runOnce();
    clock.advance(10_000);
    const ready = await worker.runOnce();

    expect(early).toBe(0);
    expect(ready).toBe(1);
    expect(ops.sent).toHaveLength(1);
    expect(ops.sent[0]).toMatchObject({ kind: 'digest', ruleId: 'large-debit' });
    expect(ops.sent[0]?.kind === 'digest' && ops.sent[0].alerts).toHaveLength(12);
    expect(outbox.depth().get('ops')).toBeUndefined();
  });

  it('retries after a failure and then records the send once', async () => {
    const failure = new NotifyError('down', { retryable: true, reason: 'http_503' });
    const ops = recordingNotifier('ops', [failure, failure]);
    const { clock, outbox, worker } = setup([ops.notifier]);
    outbox.enqueue(testAlert(), ['ops']);

    for (let pass = 0; pass < 3; pass++) {
      await worker.runOnce();
      clock.advance((outbox.nextDueAt() ?? clock.now()) - clock.now());
    }
    await worker.runOnce();

    expect(ops.sent).toHaveLength(1);
    expect(outbox.status(testAlert().id, 'ops')).toBe('sent');
  });

  it('delivers to each channel independently: one failing channel does not repeat the other', async () => {
    const ops = recordingNotifier('ops');
    const mail = recordingNotifier('mail', [new NotifyError('down', { retryable: true, reason: 'network' })]);
    const { clock, outbox, worker } = setup([ops.notifier, mail.notifier]);
    outbox.enqueue(testAlert(), ['ops', 'mail']);

    await worker.runOnce();
    clock.advance(60_000);
    await worker.runOnce();

    expect(ops.sent).toHaveLength(1);
    expect(mail.sent).toHaveLength(1);
  });

  it('records silenced deliveries instead of sending them', async () => {
    const ops = recordingNotifier('ops');
    const silences: Silence[] = [
      { account: 'treasury-hot', ends_at: '2030-01-01T00:00:00Z', comment: 'maintenance' },
    ];
    const { outbox, worker, logs } = setup([ops.notifier], { silences });
    outbox.enqueue(testAlert(), ['ops']);

    await worker.runOnce();

    expect(ops.sent).toHaveLength(0);
    expect(outbox.status(testAlert().id, 'ops')).toBe('silenced');
    expect(logs.entries()).toContainEqual(
      expect.objectContaining({ msg: 'notification silenced', silence: 'maintenance' }),
    );
  });

  it('dead-letters deliveries to a notifier that no longer exists, with a metric', async () => {
    const { outbox, worker, metrics } = setup([]);
    outbox.enqueue(testAlert(), ['gone']);

    await worker.runOnce();

    expect(outbox.deadLetters()).toMatchObject([
      { channel: 'gone', reason: expect.stringContaining('unknown notifier') },
    ]);
    expect((await metrics.deadLetters.get()).values).toMatchObject([
      { labels: { notifier: 'gone' }, value: 1 },
    ]);
  });

  it('flush sends waiting groups at once; stop ends the loop', async () => {
    const ops = recordingNotifier('ops');
    const { outbox, worker } = setup([ops.notifier], {}, 60_000);
    outbox.enqueue(testAlert(), ['ops']);

    await worker.flush(5000);
    await worker.stop();

    expect(ops.sent).toHaveLength(1);
  });

  it('the loop sends what was enqueued before start', async () => {
    const ops = recordingNotifier('ops');
    const { outbox, worker } = setup([ops.notifier], { idleMs: 1 });
    outbox.enqueue(testAlert(), ['ops']);
    const sentOnce = new Promise<void>((resolve) => {
      const send = ops.notifier.send.bind(ops.notifier);
      ops.notifier.send = async (n, s) => {
        await send(n, s);
        resolve();
      };
    });

    const loop = worker.start();
    await sentOnce;
    await Promise.all([loop, worker.stop()]);

    expect(ops.sent).toHaveLength(1);
  });
});
