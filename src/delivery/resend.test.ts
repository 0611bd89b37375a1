import { afterEach, describe, expect, it } from 'vitest';
import { startHttpSink, type HttpSink } from '../../test/helpers/http-sink.js';
import { createMetrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert/alert.js';
import { openStateStore } from '../state/store.js';
import { alertmanager } from '../notifiers/alertmanager/alertmanager.js';
import { createChannels } from './channels.js';
import { createDeliveryWorker } from './delivery-worker.js';
import { createOutbox } from './outbox.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { testClock } from '../../test/helpers/clock.js';
import { captureLogs } from '../../test/helpers/log-capture.js';
import { webhook } from '../notifiers/webhook/webhook.js';

const MINUTE = 60_000;
const STARTS = '2023-11-14T22:13:00.000Z';
/** A windowed alert: a resolve will follow. */
const windowed = testAlert({
  key: 'burst/0.0.1234',
  id: `burst/0.0.1234|firing|${STARTS}`,
  ruleId: 'burst',
  startsAt: STARTS,
  resolves: true,
});

let sinks: HttpSink[] = [];
afterEach(async () => {
  await Promise.all(sinks.map((s) => s.close()));
  sinks = [];
});

async function setup(groupWait = '0s') {
  const am = await startHttpSink();
  const hook = await startHttpSink();
  sinks.push(am, hook);
  const clock = testClock();
  const store = openStateStore({ dir: ':memory:' });
  const outbox = createOutbox(store, clock.now);
  const logs = captureLogs();
  const deps = { now: clock.now, sleep: clock.sleep, logger: logs.logger, stdout: process.stdout };
  const channels = createChannels(
    {
      am: alertmanager.config.parse({ kind: 'alertmanager', url: am.origin, group_wait: groupWait }),
      hook: webhook.config.parse({
        kind: 'webhook',
        url: `${hook.origin}/hook`,
        signing_key: 'k',
        group_wait: '0s',
      }),
    },
    deps,
  );
  const metrics = createMetrics();
  const worker = createDeliveryWorker({ ...deps, outbox, channels, random: () => 0, metrics });
  const emit = (alert: Alert) => store.transaction(() => outbox.enqueue(alert, ['am', 'hook']));
  return { am, hook, clock, outbox, worker, metrics, emit };
}

interface Posted {
  readonly labels: Record<string, string>;
  readonly endsAt?: string;
}

function posted(sink: HttpSink): Posted[][] {
  return sink.requests.map((r) => JSON.parse(r.body) as Posted[]);
}

async function counter(
  metric: ReturnType<typeof createMetrics>['notifications' | 'notificationResends'],
  labels: Record<string, string>,
): Promise<number> {
  const values = (await metric.get()).values;
  const match = values.filter((v) =>
    Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x),
  );
  return match.reduce((sum, v) => sum + v.value, 0);
}

describe('re-sending firing alerts to Alertmanager', () => {
  it('posts a still-firing alert again every resend_interval with endsAt 4 intervals ahead, to Alertmanager only', async () => {
    const { am, hook, clock, worker, metrics, emit } = await setup();
    emit(windowed);
    await worker.runOnce();

    clock.advance(MINUTE);
    await worker.runOnce();
    clock.advance(MINUTE);
    await worker.runOnce();

    const posts = posted(am);
    expect(posts).toHaveLength(3);
    expect(posts.map((p) => p[0]?.labels.alert_key)).toEqual(Array(3).fill('burst/0.0.1234'));
    expect(posts[2]?.[0]?.endsAt).toBe(new Date(clock.now() + 4 * MINUTE).toISOString());
    expect(hook.requests).toHaveLength(1);
    expect(await counter(metrics.notifications, { notifier: 'am', outcome: 'sent' })).toBe(1);
    expect(await counter(metrics.notificationResends, { notifier: 'am', outcome: 'sent' })).toBe(2);
  });

  it('stops after the resolve, which carries its resolve time as endsAt', async () => {
    const { am, clock, worker, emit } = await setup();
    emit(windowed);
    await worker.runOnce();
    const endsAt = new Date(clock.now()).toISOString();
    emit({ ...windowed, id: `${windowed.id}|resolved`, status: 'resolved', endsAt });

    await worker.runOnce();
    clock.advance(2 * MINUTE);
    await worker.runOnce();

    const posts = posted(am);
    expect(posts).toHaveLength(2);
    expect(posts[1]?.[0]?.endsAt).toBe(endsAt);
  });

  it('never posts a firing alert after its resolve when both fall in one pass', async () => {
    const { am, clock, worker, emit } = await setup();
    emit(windowed);
    await worker.runOnce();
    clock.advance(MINUTE);
    const endsAt = new Date(clock.now()).toISOString();
    emit({ ...windowed, id: `${windowed.id}|resolved`, status: 'resolved', endsAt });

    await worker.runOnce();

    const posts = posted(am).map((p) => p[0]?.endsAt === endsAt);
    expect(posts).toEqual([false, true]);
  });

  it.each([
    ['a per-record alert (Alertmanager ends it after resolve_timeout)', testAlert(), '0s'],
    ['an alert whose first delivery still waits in the outbox', windowed, '10m'],
  ])('does not re-send %s', async (_, alert, groupWait) => {
    const { am, clock, worker, emit } = await setup(groupWait);
    emit(alert);
    await worker.runOnce();

    clock.advance(MINUTE);
    await worker.runOnce();

    expect(posted(am)).toHaveLength(groupWait === '0s' ? 1 : 0);
    expect(posted(am)[0]?.[0]?.endsAt).toBeUndefined();
  });

  it('stops when the state behind the alert is dropped without a resolve (rule removed)', async () => {
    const { am, clock, outbox, worker, emit } = await setup();
    emit(windowed);
    await worker.runOnce();

    outbox.firing.forget([windowed.key]);
    clock.advance(MINUTE);
    await worker.runOnce();

    expect(posted(am)).toHaveLength(1);
  });

  it('counts a failed re-send apart, without dead-lettering or retrying it, and tries again an interval later', async () => {
    const { am, clock, outbox, worker, metrics, emit } = await setup();
    emit(windowed);
    await worker.runOnce();
    am.script({ status: 500 });

    clock.advance(MINUTE);
    await worker.runOnce();
    await worker.runOnce();
    clock.advance(MINUTE);
    await worker.runOnce();

    expect(am.requests.map((r) => r.answer.status)).toEqual([200, 500, 200]);
    expect(await counter(metrics.notificationResends, { outcome: 'failed' })).toBe(1);
    expect(await counter(metrics.notifications, { notifier: 'am', outcome: 'retry' })).toBe(0);
    expect(outbox.deadLetters()).toHaveLength(0);
  });
});
