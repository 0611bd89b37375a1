import { describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { backoffMs, deliver, type RetryPolicy } from './deliver.js';
import { NotifyError, type Notifier } from '../notifiers/notifier.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { captureLogs } from '../../test/helpers/log-capture.js';

const policy: RetryPolicy = { baseDelayMs: 1000, maxDelayMs: 60_000, deadlineMs: 600_000 };

function failingWith(error: unknown): Notifier {
  return {
    name: 'ops',
    kind: 'test',
    send: () => Promise.reject(error),
  };
}

function setup(now = 10_000) {
  const logs = captureLogs();
  const metrics = createMetrics();
  const deps = { now: () => now, random: () => 0.5, logger: logs.logger, metrics };
  return { logs, metrics, deps };
}

async function counter(metrics: ReturnType<typeof createMetrics>, outcome: string): Promise<number> {
  const values = (await metrics.notifications.get()).values;
  return values.filter((v) => v.labels.outcome === outcome).reduce((sum, v) => sum + v.value, 0);
}

describe('backoffMs', () => {
  it.each([
    [0, 0, 500],
    [0, 0.999, 1000],
    [3, 0.5, 6000],
    [20, 0, 30_000],
    [20, 1, 60_000],
  ])('attempt %i with random %f → %i ms', (attempts, random, expected) => {
    expect(backoffMs(attempts, policy, () => random)).toBe(Math.round(expected));
  });
});

describe('deliver', () => {
  it('records a send with metric and log line', async () => {
    const { deps, metrics, logs } = setup();
    const notifier: Notifier = { name: 'ops', kind: 'test', send: () => Promise.resolve() };

    const outcome = await deliver(
      notifier,
      { kind: 'single', alert: testAlert() },
      { attempts: 0, newestAt: 0 },
      policy,
      deps,
      new AbortController().signal,
    );

    expect(outcome).toEqual({ kind: 'sent' });
    expect(await counter(metrics, 'sent')).toBe(1);
    const latency = (await metrics.deliveryLatency.get()).values.find((v) =>
      v.metricName?.endsWith('_count'),
    );
    expect(latency?.value).toBe(1);
    expect(logs.entries().at(-1)).toMatchObject({ msg: 'notification sent', notifier: 'ops' });
  });

  it.each([
    [
      'a retryable error',
      new NotifyError('x', { retryable: true, reason: 'http_500' }),
      { kind: 'retry', at: 10_000 + 3000 },
    ],
    [
      'Retry-After longer than the backoff',
      new NotifyError('x', { retryable: true, retryAfterMs: 30_000, reason: 'http_429' }),
      { kind: 'retry', at: 40_000 },
    ],
    [
      'a permanent error',
      new NotifyError('x', { retryable: false, reason: 'http_404' }),
      { kind: 'dead', reason: 'permanent (http_404)' },
    ],
    ['a non-NotifyError (a bug)', new TypeError('boom'), { kind: 'dead', reason: 'permanent (internal)' }],
  ])('decides on %s', async (_name, error, expected) => {
    const { deps } = setup();

    const outcome = await deliver(
      failingWith(error),
      { kind: 'single', alert: testAlert() },
      { attempts: 2, newestAt: 0 },
      policy,
      deps,
      new AbortController().signal,
    );

    expect(outcome).toMatchObject(expected);
  });

  it('dead-letters after the deadline with a metric and an error log line', async () => {
    const { deps, metrics, logs } = setup(600_000);
    const error = new NotifyError('Slack answered HTTP 503', { retryable: true, reason: 'http_503' });

    const outcome = await deliver(
      failingWith(error),
      { kind: 'single', alert: testAlert() },
      { attempts: 9, newestAt: 0 },
      policy,
      deps,
      new AbortController().signal,
    );

    expect(outcome).toEqual({ kind: 'dead', reason: 'deadline exceeded (http_503)' });
    expect((await metrics.deadLetters.get()).values).toMatchObject([
      { labels: { notifier: 'ops' }, value: 1 },
    ]);
    expect(logs.entries().at(-1)).toMatchObject({
      level: 50,
      msg: 'notification dead-lettered',
      reason: 'deadline exceeded (http_503)',
    });
  });
});
