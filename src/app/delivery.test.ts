import { afterEach, describe, expect, it } from 'vitest';
import type { Channel } from '../delivery/channels.js';
import { createOutbox } from '../delivery/outbox.js';
import { createPacers } from '../delivery/pacer.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { testClock } from '../../test/helpers/clock.js';
import { startHoldingSink, type HoldingSink } from '../../test/helpers/holding-sink.js';
import { captureLogs } from '../../test/helpers/log-capture.js';
import { manualTimers } from '../../test/helpers/manual-timers.js';
import { webhook } from '../notifiers/webhook/webhook.js';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import { startDelivery } from './delivery.js';

const inFlight = testAlert();
const waiting = testAlert({
  ruleId: 'failed-tx',
  key: 'failed-tx/0.0.1234',
  id: 'failed-tx/0.0.1234/firing/1',
});
let sink: HoldingSink | undefined;
afterEach(() => sink?.close());

/** A runtime's delivery with one send on the wire (held by the receiver) and one group still waiting. */
async function deliveryWithSendOnTheWire() {
  const receiver = await startHoldingSink();
  sink = receiver;
  const clock = testClock();
  const outbox = createOutbox(openStateStore({ dir: ':memory:' }), clock.now);
  const timers = manualTimers();
  const deps = { now: clock.now, sleep: timers.sleep, logger: captureLogs().logger, stdout: process.stdout };
  const config = webhook.config.parse({ kind: 'webhook', url: `${receiver.origin}/hook`, signing_key: 'k' });
  const notifier = webhook.create('hook', config, { ...deps, pacers: createPacers(deps) });
  const channels = new Map<string, Channel>([
    ['hook', { notifier, groupWaitMs: 60_000, deadlineMs: 3_600_000 }],
  ]);
  outbox.enqueue(inFlight, ['hook']);
  clock.advance(60_000);
  const delivery = startDelivery({ ...deps, outbox, channels, random: () => 0, metrics: createMetrics() });
  await receiver.waitForRequests(1);
  outbox.enqueue(waiting, ['hook']);
  return { receiver, timers, outbox, delivery };
}

function receivedIds(receiver: HoldingSink): string[] {
  return receiver.bodies.flatMap((body) =>
    (JSON.parse(body) as { alerts: { id: string }[] }).alerts.map((a) => a.id),
  );
}

describe('startDelivery', () => {
  it('stop() without a grace (reload) lets the send in flight finish and leaves waiting groups pending', async () => {
    const { receiver, outbox, delivery } = await deliveryWithSendOnTheWire();

    const stopped = delivery.stop();
    receiver.release();
    await stopped;

    expect(receiver.aborted()).toBe(0);
    expect(receivedIds(receiver)).toEqual([inFlight.id]);
    expect(outbox.status(inFlight.id, 'hook')).toBe('sent');
    expect(outbox.status(waiting.id, 'hook')).toBe('pending');
  });

  it('stop(graceMs) (shutdown) lets the send in flight finish, then sends what is pending, each once', async () => {
    const { receiver, timers, outbox, delivery } = await deliveryWithSendOnTheWire();

    const stopped = delivery.stop(20_000);
    await timers.waitForSleep(20_000);
    receiver.release();
    await stopped;

    expect(receiver.aborted()).toBe(0);
    expect(receivedIds(receiver)).toEqual([inFlight.id, waiting.id]);
    expect(outbox.depth().get('hook')).toBeUndefined();
  });
});
