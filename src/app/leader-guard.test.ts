// The send-time leadership check through the real delivery worker and a Slack-like webhook server: a replica that
// no longer leads by its own clock puts nothing on the wire, and the row stays pending (not an attempt) for the
// replica that leads.
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackSink, type SlackSink } from '../../test/helpers/slack-sink.js';
import { createChannels } from '../delivery/channels.js';
import { createDeliveryWorker } from '../delivery/delivery-worker.js';
import { createOutbox } from '../delivery/outbox.js';
import { Notifiers } from '../notifiers/schema.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { testClock } from '../../test/helpers/clock.js';
import { captureLogs } from '../../test/helpers/log-capture.js';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import { guardChannels } from './leader-guard.js';

let sink: SlackSink | undefined;
afterEach(() => sink?.close());

describe('guardChannels', () => {
  it('sends nothing while this replica does not lead, and the same row once it leads', async () => {
    sink = await startSlackSink();
    const clock = testClock();
    const logs = captureLogs();
    const config = Notifiers.parse({
      ops: { kind: 'slack', webhook_url: sink.webhookUrl, group_wait: '0s' },
    });
    const deps = { now: clock.now, sleep: clock.sleep, logger: logs.logger, stdout: process.stdout };
    let leading = false;
    const channels = guardChannels(createChannels(config, deps), () => leading);
    const store = openStateStore({ dir: ':memory:' });
    const outbox = createOutbox(store, clock.now);
    const worker = createDeliveryWorker({
      ...{ outbox, channels, now: clock.now, sleep: clock.sleep },
      ...{ random: () => 0.5, logger: logs.logger, metrics: createMetrics() },
    });
    const alert = testAlert({ id: 'a1' });
    outbox.enqueue(alert, ['ops']);

    await worker.runOnce();
    const whileStandby = { sent: sink.accepted().length, status: outbox.status(alert.id, 'ops') };
    leading = true;
    await worker.runOnce();

    expect(whileStandby).toEqual({ sent: 0, status: 'pending' });
    expect(sink.accepted()).toHaveLength(1);
    expect(outbox.status(alert.id, 'ops')).toBe('sent');
    store.close();
  });
});
