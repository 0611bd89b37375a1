import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import type { Channel } from './channels.js';
import { createDeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker.js';
import { NotifyError, type Notification, type Notifier } from '../notifiers/notifier.js';
import { createOutbox } from './outbox.js';
import { createPacers } from './pacer.js';
import type { Silence } from '../notifiers/schema.js';
import { testAlert, testAlerts } from '../../test/helpers/alerts.js';
import { testClock } from '../../test/helpers/clock.js';
import { startHoldingSink, type HoldingSink } from '../../test/helpers/holding-sink.js';
import { captureLogs } from '../../test/helpers/log-capture.js';
import { manualTimers } from '../../test/helpers/manual-timers.js';
import { webhook } from '../notifiers/webhook/webhook.js';

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
    const { outbox, worker } = setup([ops.notifier], { sleep: manualTimers().sleep }, 60_000);
    outbox.enqueue(testAlert(), ['ops']);

    await worker.flush(5000);
    await worker.stop();

    expect(ops.sent).toHaveLength(1);
  });

  it('stop ends the loop in its idle sleep, after many wake-ups as after none', async () => {
    const timers = manualTimers();
    const { worker } = setup([recordingNotifier('ops').notifier], { sleep: timers.sleep, idleMs: 60_000 });
    const loop = worker.start();
    for (let i = 0; i < 200; i++) {
      await timers.waitForSleep(60_000);
      worker.poke();
    }
    await timers.waitForSleep(60_000);

    // Only stop's own signal can end this sleep: no timer is fired.
    await Promise.all([loop, worker.stop()]);

    expect(worker.lastPassAt()).toBeDefined();
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

// Overlapping passes and shutdown, against a real HTTP receiver that holds its answers until released: the test,
// not timing, decides which send is on the wire. Timers fire only when the test fires them.
const GRACE_MS = 7000;
const first = testAlert();
const second = testAlert({
  ruleId: 'failed-tx',
  key: 'failed-tx/0.0.1234',
  id: 'failed-tx/0.0.1234/firing/1',
});
const sinks: HoldingSink[] = [];
afterEach(async () => {
  await Promise.all(sinks.splice(0).map((sink) => sink.close()));
});

async function httpSetup(groupWaitMs = 0) {
  const sink = await startHoldingSink();
  sinks.push(sink);
  const clock = testClock();
  const timers = manualTimers();
  const outbox = createOutbox(openStateStore({ dir: ':memory:' }), clock.now);
  const { logger } = captureLogs();
  const deps = { now: clock.now, sleep: timers.sleep, logger, stdout: process.stdout };
  const config = webhook.config.parse({ kind: 'webhook', url: `${sink.origin}/hook`, signing_key: 'k' });
  const notifier = webhook.create('hook', config, { ...deps, pacers: createPacers(deps) });
  const channels = new Map<string, Channel>([['hook', { notifier, groupWaitMs, deadlineMs: 3_600_000 }]]);
  const newWorker = () =>
    createDeliveryWorker({ ...deps, outbox, channels, random: () => 0, metrics: createMetrics() });
  return { sink, clock, timers, outbox, worker: newWorker(), newWorker };
}

/** The alert ids the receiver got, one entry per request that carried them. */
function receivedIds(sink: HoldingSink): string[] {
  return sink.bodies.flatMap((body) =>
    (JSON.parse(body) as { alerts: { id: string }[] }).alerts.map((a) => a.id),
  );
}

describe('delivery worker: one pass at a time, and a graceful drain', () => {
  it('a flush during a running pass waits for it and sends each alert exactly once', async () => {
    const { sink, outbox, worker } = await httpSetup();
    outbox.enqueue(first, ['hook']);
    void worker.start();
    await sink.waitForRequests(1);
    outbox.enqueue(second, ['hook']);

    const flushed = worker.flush(GRACE_MS);
    sink.release();
    await flushed;
    await worker.stop();

    expect(receivedIds(sink)).toEqual([first.id, second.id]);
    expect(outbox.status(first.id, 'hook')).toBe('sent');
    expect(outbox.status(second.id, 'hook')).toBe('sent');
  });

  it('a flush queued behind the running pass still ends at its grace, without aborting that pass', async () => {
    const { sink, timers, outbox, worker } = await httpSetup();
    outbox.enqueue(first, ['hook']);
    void worker.start();
    await sink.waitForRequests(1);

    const flushed = worker.flush(GRACE_MS);
    await timers.waitForSleep(GRACE_MS);
    timers.fire(GRACE_MS);
    await flushed;
    sink.release();
    await worker.drain(GRACE_MS);

    expect(sink.aborted()).toBe(0);
    expect(receivedIds(sink)).toEqual([first.id]);
    expect(outbox.status(first.id, 'hook')).toBe('sent');
  });

  it('a poke during a pass is not lost: the loop goes again without waiting for its idle timer', async () => {
    const { sink, outbox, worker } = await httpSetup();
    outbox.enqueue(first, ['hook']);
    void worker.start();
    await sink.waitForRequests(1);

    outbox.enqueue(second, ['hook']);
    worker.poke();
    sink.release();
    await sink.waitForRequests(2);
    await worker.stop();

    expect(receivedIds(sink)).toEqual([first.id, second.id]);
  });

  it('drain lets a send on the wire finish, and it is not sent again after a restart', async () => {
    const { sink, outbox, worker, newWorker } = await httpSetup();
    outbox.enqueue(first, ['hook']);
    void worker.start();
    await sink.waitForRequests(1);

    const drained = worker.drain(GRACE_MS);
    sink.release();
    await drained;
    const afterRestart = await newWorker().runOnce({ ignoreGroupWait: true });

    expect(sink.aborted()).toBe(0);
    expect(receivedIds(sink)).toEqual([first.id]);
    expect(outbox.status(first.id, 'hook')).toBe('sent');
    expect(afterRestart).toBe(0);
  });

  it('drain then sends what is pending, groups still waiting included', async () => {
    const { sink, clock, outbox, worker } = await httpSetup(60_000);
    outbox.enqueue(first, ['hook']);
    clock.advance(60_000);
    void worker.start();
    await sink.waitForRequests(1);
    outbox.enqueue(second, ['hook']);

    const drained = worker.drain(GRACE_MS);
    sink.release();
    await drained;

    expect(receivedIds(sink)).toEqual([first.id, second.id]);
    expect(outbox.depth().get('hook')).toBeUndefined();
  });

  it.each([
    ['a send of the loop', 0],
    ['a send of the final flush', 60_000],
  ])(
    'drain past its grace aborts %s; the row stays pending and goes out after the next start',
    async (_, wait) => {
      const { sink, timers, outbox, worker, newWorker } = await httpSetup(wait);
      outbox.enqueue(first, ['hook']);
      void worker.start();
      const drained = wait > 0 ? worker.drain(GRACE_MS) : undefined;
      await sink.waitForRequests(1);

      const draining = drained ?? worker.drain(GRACE_MS);
      await timers.waitForSleep(GRACE_MS);
      timers.fire(GRACE_MS);
      await draining;
      await sink.waitForAborts(1);
      const statusAfterDrain = outbox.status(first.id, 'hook');
      sink.release();
      await newWorker().runOnce({ ignoreGroupWait: true });

      expect(statusAfterDrain).toBe('pending');
      expect(receivedIds(sink)).toEqual([first.id, first.id]);
      expect(outbox.status(first.id, 'hook')).toBe('sent');
    },
  );
});
