import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SLACK, startSlackSink, type SlackSink } from '../../../test/helpers/slack-sink.js';
import { createMetrics } from '../../observability/metrics.js';
import { openStateStore } from '../../state/store.js';
import { createChannels } from '../../delivery/channels.js';
import { createDeliveryWorker } from '../../delivery/delivery-worker.js';
import { NotifyError } from '../notifier.js';
import { createOutbox } from '../../delivery/outbox.js';
import { createPacers, type Pacers } from '../../delivery/pacer.js';
import { Notifiers } from '../schema.js';
import { testAlert, testRecord } from '../../../test/helpers/alerts.js';
import { testClock, type TestClock } from '../../../test/helpers/clock.js';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { slack } from './slack.js';

let sink: SlackSink;
afterEach(() => sink?.close());

function slackSetup(sinkUrl: string, dir = ':memory:', clock = testClock()) {
  const logs = captureLogs();
  const deps = { now: clock.now, sleep: clock.sleep, logger: logs.logger, stdout: process.stdout };
  const config = Notifiers.parse({ ops: { kind: 'slack', webhook_url: sinkUrl, group_wait: '0s' } });
  const channels = createChannels(config, deps);
  const store = openStateStore({ dir });
  const outbox = createOutbox(store, clock.now);
  const worker = createDeliveryWorker({
    outbox,
    channels,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    logger: logs.logger,
    metrics: createMetrics(),
  });
  return { clock, outbox, worker, store, logs };
}

/** Runs passes, jumping the clock to each next attempt, until nothing is pending. */
async function drain(env: ReturnType<typeof slackSetup>, maxPasses = 20): Promise<void> {
  for (let pass = 0; pass < maxPasses && env.outbox.nextDueAt() !== undefined; pass++) {
    await env.worker.runOnce();
    const next = env.outbox.nextDueAt();
    if (next !== undefined && next > env.clock.now()) env.clock.advance(next - env.clock.now());
  }
}

describe('slack notifier against a Slack-like webhook server', () => {
  it('loses nothing and sends nothing twice through an outage, a 429 and the recovery', async () => {
    sink = await startSlackSink();
    sink.script(SLACK.serverError, SLACK.serverError, SLACK.rateLimited(7), { status: 200, reset: true });
    const env = slackSetup(sink.webhookUrl);
    const alerts = ['a', 'b', 'c'].map((id) => testAlert({ id, ruleId: `rule-${id}` }));
    env.store.transaction(() => alerts.forEach((a) => env.outbox.enqueue(a, ['ops'])));

    await drain(env);

    const delivered = sink
      .accepted()
      .map((m) => /"text":"rule-(\w+) · /.exec(JSON.stringify(m.blocks?.at(-1)))?.[1]);
    expect(delivered.sort()).toEqual(['a', 'b', 'c']);
    alerts.forEach((a) => expect(env.outbox.status(a.id, 'ops')).toBe('sent'));
  });

  it('after a restart sends what was still pending, and nothing that was already sent', async () => {
    sink = await startSlackSink();
    sink.script(SLACK.ok, SLACK.serverError, SLACK.serverError);
    const dir = mkdtempSync(join(tmpdir(), 'slack-restart-'));
    const before = slackSetup(sink.webhookUrl, dir);
    const ids = ['a', 'b', 'c'];
    before.store.transaction(() =>
      ids.forEach((id) => before.outbox.enqueue(testAlert({ id, ruleId: `rule-${id}` }), ['ops'])),
    );
    await before.worker.runOnce();
    before.store.close();

    const after = slackSetup(sink.webhookUrl, dir, before.clock);
    after.clock.advance(60_000);
    await drain(after);

    const delivered = sink
      .accepted()
      .map((m) => /"text":"rule-(\w+) · /.exec(JSON.stringify(m.blocks?.at(-1)))?.[1]);
    expect(delivered.sort()).toEqual(ids);
    after.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('honours Retry-After: nothing is sent to the webhook before it has passed', async () => {
    sink = await startSlackSink();
    sink.script(SLACK.rateLimited(30));
    const env = slackSetup(sink.webhookUrl);
    env.outbox.enqueue(testAlert(), ['ops']);
    const start = env.clock.now();

    await drain(env);

    expect(sink.requests).toHaveLength(2);
    expect(env.clock.now() - start).toBeGreaterThanOrEqual(30_000);
  });

  it('paces to one message per second per webhook', async () => {
    sink = await startSlackSink();
    const env = slackSetup(sink.webhookUrl);
    ['a', 'b', 'c'].forEach((id) => env.outbox.enqueue(testAlert({ id, ruleId: `rule-${id}` }), ['ops']));

    await env.worker.runOnce();

    expect(sink.accepted()).toHaveLength(3);
    expect(env.clock.sleeps).toEqual([1000, 1000]);
  });

  it.each([
    ['invalid_payload', SLACK.invalidPayload, 'http_400'],
    ['no_service', SLACK.noService, 'http_404'],
  ])('dead-letters on %s without retrying', async (_name, answer, reason) => {
    sink = await startSlackSink();
    sink.script(answer);
    const env = slackSetup(sink.webhookUrl);
    env.outbox.enqueue(testAlert(), ['ops']);

    await drain(env);

    expect(sink.requests).toHaveLength(1);
    expect(env.outbox.deadLetters()).toMatchObject([{ reason: `permanent (${reason})` }]);
  });

  it('classifies each Slack answer', async () => {
    sink = await startSlackSink();
    sink.script(SLACK.rateLimited(5), SLACK.serverError, SLACK.invalidPayload);
    const clock = testClock();
    const notifier = slack.create(
      'ops',
      slack.config.parse({ kind: 'slack', webhook_url: sink.webhookUrl, min_interval: '0s' }),
      {
        now: clock.now,
        sleep: clock.sleep,
        pacers: createPacers(clock),
        logger: captureLogs().logger,
        stdout: process.stdout,
      },
    );
    const send = () =>
      notifier.send({ kind: 'single', alert: testAlert() }, new AbortController().signal).then(
        () => 'ok',
        (e: unknown) => e,
      );

    const limited = await send();
    clock.advance(5000); // the 429's Retry-After
    const results = [limited, await send(), await send(), await send()];

    expect(results[0]).toMatchObject({ retryable: true, retryAfterMs: 5000, reason: 'http_429' });
    expect(results[1]).toMatchObject({ retryable: true, reason: 'http_500' });
    expect(results[2]).toMatchObject({
      retryable: false,
      reason: 'http_400',
      message: expect.stringContaining('invalid_payload'),
    });
    expect(results[3]).toBe('ok');
    results.slice(0, 3).forEach((r) => expect(r).toBeInstanceOf(NotifyError));
  });

  it('delivers hostile memos escaped', async () => {
    sink = await startSlackSink();
    const env = slackSetup(sink.webhookUrl);
    const memo = '<!channel> <@U123> <https://evil.example|click> @here `rm -rf`';
    env.outbox.enqueue(testAlert({ records: [testRecord({ memo })] }), ['ops']);

    await drain(env);

    const body = sink.requests[0]?.body ?? '';
    expect(body).toContain('&lt;!channel&gt;');
    expect(body).not.toMatch(/<!channel>|<@U123>|<https:\/\/evil|@here/);
  });
});

describe('slack pacing is per webhook, across notifiers', () => {
  function channelsFor(notifiers: Record<string, object>, clock: TestClock, pacers?: Pacers) {
    const config = Notifiers.parse(notifiers);
    const logger = captureLogs().logger;
    const deps = { now: clock.now, sleep: clock.sleep, logger, stdout: process.stdout };
    return createChannels(config, pacers ? { ...deps, pacers } : deps);
  }
  const send = (channels: ReturnType<typeof channelsFor>, name: string) =>
    channels.get(name)?.notifier.send({ kind: 'single', alert: testAlert() }, new AbortController().signal);

  it('paces two notifiers on one webhook together', async () => {
    sink = await startSlackSink();
    const clock = testClock();
    const hook = { kind: 'slack', webhook_url: sink.webhookUrl };
    const channels = channelsFor({ a: hook, b: hook }, clock);

    await send(channels, 'a');
    await send(channels, 'b');
    await send(channels, 'a');

    expect(sink.accepted()).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it('does not pace notifiers on different webhooks against each other', async () => {
    sink = await startSlackSink();
    const clock = testClock();
    const channels = channelsFor(
      {
        a: { kind: 'slack', webhook_url: `${sink.origin}/services/T1/B1/one` },
        b: { kind: 'slack', webhook_url: `${sink.origin}/services/T1/B2/two` },
      },
      clock,
    );

    await send(channels, 'a');
    await send(channels, 'b');
    await send(channels, 'a');

    expect(sink.accepted()).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('spaces a shared webhook by the largest min_interval of its notifiers', async () => {
    sink = await startSlackSink();
    const clock = testClock();
    const channels = channelsFor(
      {
        a: { kind: 'slack', webhook_url: sink.webhookUrl, min_interval: '1s' },
        b: { kind: 'slack', webhook_url: sink.webhookUrl, min_interval: '3s' },
      },
      clock,
    );

    await send(channels, 'a');
    await send(channels, 'a');

    expect(clock.sleeps).toEqual([3000]);
  });

  it("holds every notifier on a webhook until that webhook's Retry-After has passed", async () => {
    sink = await startSlackSink();
    sink.script(SLACK.rateLimited(5));
    const clock = testClock();
    const hook = { kind: 'slack', webhook_url: sink.webhookUrl };
    const channels = channelsFor({ a: hook, b: hook }, clock);
    const limited = await send(channels, 'a')?.catch((e: unknown) => e);

    const held = await send(channels, 'b')?.catch((e: unknown) => e);
    clock.advance(5000);
    await send(channels, 'b');

    expect(limited).toMatchObject({ reason: 'http_429', retryAfterMs: 5000 });
    // Not slept through: deferred at once, so the delivery lane is free; nothing reached the webhook meanwhile.
    expect(held).toMatchObject({ deferred: true, reason: 'paused', retryAfterMs: 5000 });
    expect(sink.requests).toHaveLength(2);
    expect(sink.accepted()).toHaveLength(1);
  });

  it('keeps the pace across a reload when the caller passes its pacers', async () => {
    sink = await startSlackSink();
    const clock = testClock();
    const pacers = createPacers(clock);
    const hook = { ops: { kind: 'slack', webhook_url: sink.webhookUrl } };
    await send(channelsFor(hook, clock, pacers), 'ops');

    await send(channelsFor(hook, clock, pacers), 'ops');

    expect(clock.sleeps).toEqual([1000]);
  });
});
