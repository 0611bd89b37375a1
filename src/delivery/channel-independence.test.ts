// A receiver's Retry-After against real loopback receivers (a Slack-like webhook, a second Slack webhook, a plain
// webhook, an SMTP server): it is capped, never dead-letters, never holds another channel or URL, shows in the
// depth gauge and, held long enough, raises the self-monitoring delivery alert. Time is the injected clock: "before
// Slack's pause ended" is read from it at the moment each receiver got its message, never from wall time.
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpSink } from '../../test/helpers/http-sink.js';
import { SLACK } from '../../test/helpers/slack-sink.js';
import { SelfMonitoringConfig } from '../self-monitor/self-monitoring-config.js';
import { createSelfMonitor } from '../self-monitor/self-monitor.js';
import { createTailHealth } from '../tail/loop/daemon-loop.js';
import type { createMetrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert/alert.js';
import { Notifiers } from '../notifiers/schema.js';
import { testClock } from '../../test/helpers/clock.js';
import {
  alertFor,
  CAP_MS,
  closeAll,
  closeLater,
  deliverySetup as setup,
  deliverySetupFor,
  receivers,
} from '../../test/helpers/receivers.js';

afterEach(closeAll);

// The Slack context line starts with the rule id (rule-<id>), which alertFor derives from the alert id.
const idsIn = (body: string) => /"text":"rule-([\w-]+) · /.exec(body)?.[1];

async function depthOf(metrics: ReturnType<typeof createMetrics>, notifier: string) {
  return (await metrics.outboxDepth.get()).values.find((v) => v.labels.notifier === notifier)?.value;
}

describe('a receiver answering 429 Retry-After: 3600', () => {
  it('is not dead-lettered: retried after the 60 s cap and delivered once when Slack recovers', async () => {
    const r = await receivers();
    r.slack.script(SLACK.rateLimited(3600));
    const env = setup(r);
    const start = env.clock.now();
    env.outbox.enqueue(alertFor('a'), ['slack']);

    await env.worker.runOnce();
    const retryAt = env.outbox.nextDueAt();
    const early = await env.worker.runOnce();
    env.clock.advance((retryAt ?? 0) - env.clock.now());
    await env.worker.runOnce();

    expect(retryAt).toBe(start + CAP_MS);
    expect(early).toBe(0);
    expect(env.outbox.deadLetters()).toEqual([]);
    expect(r.slack.requests.map((q) => q.answer.status)).toEqual([429, 200]);
    expect(r.slack.accepted().map((m) => idsIn(JSON.stringify(m)))).toEqual(['a']);
    expect(env.outbox.status('a', 'slack')).toBe('sent');
  });

  it.each([
    ['an HTTP date an hour ahead', () => new Date(testClock().now() + 3_600_000).toUTCString(), 10_000],
    ['garbage', () => 'soon, maybe', 500],
    ['a negative number', () => '-30', 500],
  ])('caps or ignores a Retry-After of %s (max_retry_after 10s)', async (_name, value, expectedMs) => {
    const r = await receivers();
    r.slack.script({ status: 429, headers: { 'retry-after': value() }, body: 'rate_limited' });
    const env = setup(r, { max_retry_after: '10s' });
    const start = env.clock.now();
    env.outbox.enqueue(alertFor('a'), ['slack']);

    await env.worker.runOnce();

    // A cap of 10 s, or the first backoff step (500 ms with random() = 0) when the header says nothing usable.
    expect(env.outbox.nextDueAt()).toBe(start + expectedMs);
    expect(env.outbox.status('a', 'slack')).toBe('pending');
  });

  it('keeps email, a second Slack webhook and a webhook delivering while Slack is paused; the depth counts the paused rows', async () => {
    const r = await receivers();
    r.slack.script(SLACK.rateLimited(3600));
    const env = setup(r);
    const pauseEnds = env.clock.now() + CAP_MS;
    const arrivals = {
      mail: r.smtp.waitForMessages(1).then(() => env.clock.now()),
      hook: r.hook.waitForRequests(1).then(() => env.clock.now()),
      slack2: r.slack2.waitForRequests(1).then(() => env.clock.now()),
    };
    env.store.transaction(() => {
      for (const id of ['s1', 's2', 's3']) env.outbox.enqueue(alertFor(id), ['slack']);
      env.outbox.enqueue(alertFor('m'), ['mail']);
      env.outbox.enqueue(alertFor('h'), ['hook']);
      env.outbox.enqueue(alertFor('t'), ['slack2']);
    });

    await env.worker.runOnce();
    const arrived = { mail: await arrivals.mail, hook: await arrivals.hook, slack2: await arrivals.slack2 };
    const depthWhilePaused = {
      slack: await depthOf(env.metrics, 'slack'),
      mail: await depthOf(env.metrics, 'mail'),
    };
    env.clock.advance(pauseEnds - env.clock.now());
    await env.worker.runOnce();

    expect(arrived.mail).toBeLessThan(pauseEnds);
    expect(arrived.hook).toBeLessThan(pauseEnds);
    expect(arrived.slack2).toBeLessThan(pauseEnds);
    expect(depthWhilePaused).toEqual({ slack: 3, mail: 0 });
    // One request found the pause; the other two rows waited for it without being sent or counted as attempts.
    expect(r.slack.requests.filter((q) => q.answer.status === 429)).toHaveLength(1);
    expect(
      r.slack
        .accepted()
        .map((m) => idsIn(JSON.stringify(m)))
        .sort(),
    ).toEqual(['s1', 's2', 's3']);
    expect(env.outbox.deadLetters()).toEqual([]);
    expect(await depthOf(env.metrics, 'slack')).toBe(0);
  });

  it('a long pause raises sentinel-delivery-failing naming the channel and the Retry-After, and it resolves', async () => {
    const r = await receivers();
    r.slack.script(...Array.from({ length: 6 }, () => SLACK.rateLimited(3600)));
    const env = setup(r);
    const health = createTailHealth();
    const emitted: Alert[] = [];
    const monitor = createSelfMonitor({
      config: SelfMonitoringConfig.parse({ notify: ['mail', 'slack'], delivery_failures: 1000 }),
      health,
      accounts: [],
      staleness: () => [],
      metrics: env.metrics,
      pauses: () => env.pauses.list(),
      notifiers: ['slack', 'mail'],
      clock: env.clock.now,
      startedAt: env.clock.now(),
      emit: (alerts) => emitted.push(...alerts),
      log: env.logs.logger,
    });
    env.outbox.enqueue(alertFor('a'), ['slack']);

    for (let minute = 0; minute <= 6; minute++) {
      await env.worker.runOnce();
      env.clock.advance((env.outbox.nextDueAt() ?? env.clock.now()) - env.clock.now());
      health.markPolled(env.clock.now());
      await monitor.check();
    }

    expect(emitted.map((a) => `${a.ruleId}:${a.status}:${a.notify.join('+')}`)).toEqual([
      'sentinel-delivery-failing:firing:mail',
      'sentinel-delivery-failing:resolved:mail',
    ]);
    expect(emitted[0]?.description).toMatch(/slack.*HTTP 429 with Retry-After 3600 s/);
    expect(env.outbox.status('a', 'slack')).toBe('sent');
  });
});

describe('one webhook URL paused by its Retry-After', () => {
  it('holds every notifier on that URL, and no notifier on another URL', async () => {
    const paused = await startHttpSink();
    const other = await startHttpSink();
    closeLater(paused);
    closeLater(other);
    paused.script({ status: 429, headers: { 'retry-after': '3600' }, body: 'slow down' });
    const hook = (url: string) => ({ kind: 'webhook', url, signing_key: 'k', group_wait: '0s' });
    const { clock, outbox, pauses, worker } = deliverySetupFor(
      Notifiers.parse({
        a: hook(`${paused.origin}/hook`),
        b: hook(`${paused.origin}/hook`),
        c: hook(`${other.origin}/hook`),
      }),
    );
    outbox.enqueue(alertFor('x'), ['a']);
    await worker.runOnce();
    outbox.enqueue(alertFor('y'), ['b', 'c']);

    await worker.runOnce();
    const whilePaused = { requests: paused.requests.length, other: other.requests.length };
    clock.advance(CAP_MS);
    await worker.runOnce();

    expect(whilePaused).toEqual({ requests: 1, other: 1 });
    expect(outbox.status('y', 'c')).toBe('sent');
    expect(pauses.list().map((p) => p.channel)).toEqual([]);
    expect(paused.requests.map((q) => q.answer.status)).toEqual([429, 200, 200]);
    expect(outbox.status('x', 'a')).toBe('sent');
    expect(outbox.status('y', 'b')).toBe('sent');
    expect(outbox.deadLetters()).toEqual([]);
  });
});
