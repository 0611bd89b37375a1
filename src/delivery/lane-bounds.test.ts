// What bounds one channel's lane: a slow receiver holds only its own lane and is abandoned after its send timeout;
// a redirect is reported as such and never followed. Real loopback receivers; the test decides when a send is late.
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import type { Channel } from './channels.js';
import { createDeliveryWorker } from './delivery-worker.js';
import type { Notifier } from '../notifiers/notifier.js';
import { createOutbox } from './outbox.js';
import { testClock } from '../../test/helpers/clock.js';
import { captureLogs } from '../../test/helpers/log-capture.js';
import { startHoldingSink, type HoldingSink } from '../../test/helpers/holding-sink.js';
import { manualTimers } from '../../test/helpers/manual-timers.js';
import {
  alertFor,
  closeAll,
  closeLater,
  deliverySetup as setup,
  receivers,
} from '../../test/helpers/receivers.js';

afterEach(closeAll);

describe('a slow receiver', () => {
  it('holds only its own channel: the loop delivers the others while its send is on the wire', async () => {
    const r = await receivers();
    const slow: HoldingSink = await startHoldingSink();
    closeLater(slow);
    const timers = manualTimers();
    const env = setup(r, { webhook_url: `${slow.origin}/services/T/B/slow` }, { sleep: timers.sleep });
    env.outbox.enqueue(alertFor('s'), ['slack']);
    void env.worker.start();
    await slow.waitForRequests(1);

    env.store.transaction(() => {
      env.outbox.enqueue(alertFor('m'), ['mail']);
      env.outbox.enqueue(alertFor('h'), ['hook']);
    });
    env.worker.poke();
    await Promise.all([r.smtp.waitForMessages(1), r.hook.waitForRequests(1)]);
    const slowStillHeld = slow.bodies.length === 1 && slow.aborted() === 0;
    slow.release();
    await env.worker.drain(Infinity);

    expect(slowStillHeld).toBe(true);
    expect(env.outbox.status('m', 'mail')).toBe('sent');
    expect(env.outbox.status('h', 'hook')).toBe('sent');
    expect(env.outbox.status('s', 'slack')).toBe('sent');
  });

  it('is abandoned after its send timeout and retried; the row stays pending, never dead', async () => {
    const r = await receivers();
    const slow: HoldingSink = await startHoldingSink();
    closeLater(slow);
    const late = new AbortController();
    const env = setup(r, { webhook_url: `${slow.origin}/services/T/B/slow` }, { timeout: () => late.signal });
    env.outbox.enqueue(alertFor('s'), ['slack']);

    const pass = env.worker.runOnce();
    await slow.waitForRequests(1);
    late.abort();
    await pass;

    expect(env.outbox.status('s', 'slack')).toBe('pending');
    expect(env.logs.entries()).toContainEqual(
      expect.objectContaining({
        msg: 'notification failed, will retry',
        err: expect.objectContaining({ reason: 'send_timeout' }),
      }),
    );
  });
});

describe('a Slack redirect', () => {
  it('is reported as a redirect that was not followed, not as "could not be reached"', async () => {
    const r = await receivers();
    r.slack.script({ status: 307, headers: { location: `${r.hook.origin}/elsewhere` } });
    const env = setup(r);
    env.outbox.enqueue(alertFor('a'), ['slack']);

    await env.worker.runOnce();

    expect(r.hook.requests).toHaveLength(0);
    expect(env.outbox.deadLetters()).toMatchObject([{ reason: 'permanent (http_307)' }]);
    const failure = env.logs.entries().find((e) => e.msg === 'notification dead-lettered');
    expect(failure?.err).toMatchObject({
      message: expect.stringMatching(
        /answered HTTP 307: the receiver redirects, and redirects are not followed/,
      ),
    });
  });

  it('from a webhook receiver is reported the same way and not followed to the other origin', async () => {
    const r = await receivers();
    r.hook.script({ status: 308, headers: { location: `${r.slack2.origin}/elsewhere` } });
    const env = setup(r);
    env.outbox.enqueue(alertFor('a'), ['hook']);

    await env.worker.runOnce();

    expect(r.slack2.requests).toHaveLength(0);
    expect(env.outbox.deadLetters()).toMatchObject([{ reason: 'permanent (http_308)' }]);
    const failure = env.logs.entries().find((e) => e.msg === 'notification dead-lettered');
    expect(failure?.err).toMatchObject({
      message: expect.stringMatching(/HTTP 308: the receiver redirects/),
    });
  });
});

describe('a notifier that ignores its abort signal (as nodemailer does)', () => {
  it('does not hold a drain past its grace: the send is cut, its row stays pending', async () => {
    let started = () => {};
    const onWire = new Promise<void>((resolve) => (started = resolve));
    const deaf: Notifier = {
      name: 'deaf',
      kind: 'test',
      send: () => (started(), new Promise<void>(() => {})),
    };
    const clock = testClock();
    const timers = manualTimers();
    const outbox = createOutbox(openStateStore({ dir: ':memory:' }), clock.now);
    const channels = new Map<string, Channel>([
      ['deaf', { notifier: deaf, groupWaitMs: 0, deadlineMs: 3_600_000 }],
    ]);
    const worker = createDeliveryWorker({
      outbox,
      channels,
      now: clock.now,
      sleep: timers.sleep,
      random: () => 0,
      logger: captureLogs().logger,
      metrics: createMetrics(),
    });
    outbox.enqueue(alertFor('a'), ['deaf']);
    void worker.start();
    await onWire;

    const drained = worker.drain(7000);
    await timers.waitForSleep(7000);
    timers.fire(7000);
    await drained;

    expect(outbox.status('a', 'deaf')).toBe('pending');
  });
});
