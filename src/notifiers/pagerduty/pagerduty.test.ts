import { afterEach, describe, expect, it } from 'vitest';
import { startPagerdutyServer, type PagerdutyServer } from '../../../test/helpers/pagerduty-server.js';
import { testAlert, testAlerts, testRecord } from '../../../test/helpers/alerts.js';
import { testNotifierDeps } from '../../../test/helpers/notifier-deps.js';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { testClock } from '../../../test/helpers/clock.js';
import { deliver } from '../../delivery/deliver.js';
import { createMetrics } from '../../observability/metrics.js';
import type { Alert } from '../../rules/alert/alert.js';
import { NotifyError } from '../notifier.js';
import { DEDUP_KEY_MAX, pagerdutyEvent } from './message.js';
import { pagerduty } from './pagerduty.js';

const KEY = 'R0UT1NGKEY0123456789abcdef012345';
let server: PagerdutyServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function notifier(extra: Record<string, unknown> = {}) {
  const config = pagerduty.config.parse({
    kind: 'pagerduty',
    routing_key: KEY,
    url: server?.url,
    client_url: 'https://sentinel.example.com',
    links: [{ href: 'https://wiki.example.com/runbook', text: 'Runbook' }],
    ...extra,
  });
  return pagerduty.create('pd', config, testNotifierDeps());
}

const send = (alert: Alert, extra: Record<string, unknown> = {}) =>
  notifier(extra).send({ kind: 'single', alert }, new AbortController().signal);

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as NotifyError,
  );

function resolved(alert: Alert): Alert {
  return {
    ...alert,
    id: `${alert.id}|resolved`,
    status: 'resolved',
    endsAt: '2023-11-14T23:00:00.000Z',
    resolution: 'back to normal',
  };
}

describe('pagerduty events (pure)', () => {
  const options = pagerduty.config.parse({ kind: 'pagerduty', routing_key: KEY });

  it.each([
    ['critical', 'critical'],
    ['warning', 'warning'],
    ['info', 'info'],
  ] as const)('maps severity %s to %s by default', (ours, theirs) => {
    expect(pagerdutyEvent(testAlert({ severity: ours }), options).payload?.severity).toBe(theirs);
  });

  it('maps severities as configured', () => {
    const mapped = pagerduty.config.parse({
      kind: 'pagerduty',
      routing_key: KEY,
      severity: { warning: 'error' },
    });

    expect(pagerdutyEvent(testAlert({ severity: 'warning' }), mapped).payload?.severity).toBe('error');
    expect(pagerdutyEvent(testAlert({ severity: 'critical' }), mapped).payload?.severity).toBe('critical');
  });

  it('gives trigger and resolve the same dedup_key, a pure function of the alert key', () => {
    const firing = testAlert();

    const trigger = pagerdutyEvent(firing, options);
    const resolve = pagerdutyEvent(resolved(firing), options);

    expect(trigger.event_action).toBe('trigger');
    expect(resolve).toEqual({ event_action: 'resolve', dedup_key: trigger.dedup_key });
    expect(trigger.dedup_key).toBe('large-debit/0.0.1234');
  });

  it('keeps a long key within 255 characters, stable, and distinct from another long key', () => {
    const long = `r{memo="${'x'.repeat(400)}"}`;

    const one = pagerdutyEvent(testAlert({ key: long }), options).dedup_key;
    const again = pagerdutyEvent(testAlert({ key: long, id: 'other' }), options).dedup_key;
    const other = pagerdutyEvent(testAlert({ key: `${long}y` }), options).dedup_key;

    expect(one.length).toBeLessThanOrEqual(DEDUP_KEY_MAX);
    expect(again).toBe(one);
    expect(other).not.toBe(one);
  });

  it('puts the record facts in custom_details; label names cannot reach a prototype', () => {
    const alert = testAlert({ labels: { __proto__: 'x', constructor: 'y' } as Record<string, string> });
    Object.defineProperty(alert.labels, '__proto__', { value: 'x', enumerable: true });

    const details = pagerdutyEvent(alert, options).payload?.custom_details ?? {};

    expect(details).toMatchObject({
      rule: 'large-debit',
      amount: '-1.5 HBAR (-150000000 tinybars)',
      transaction_id: '0.0.1234-1700000000-000000001',
      consensus_time: '2023-11-14 22:13:20.123456789 UTC',
      memo: 'payroll',
      'label.constructor': 'y',
    });
    expect(Object.getPrototypeOf(details)).toBe(Object.prototype);
  });
});

describe('pagerduty notifier against a PagerDuty-like server', () => {
  it('triggers with links, client_url and the record facts, and answers what PagerDuty said', async () => {
    server = await startPagerdutyServer({ routingKeys: [KEY] });

    const receipt = await send(testAlert());

    const [event] = server.accepted();
    expect(receipt).toMatchObject({ status: 202, answer: expect.stringContaining('Event processed') });
    expect(event).toMatchObject({
      routing_key: KEY,
      event_action: 'trigger',
      dedup_key: 'large-debit/0.0.1234',
      client: 'ledger-sentinel',
      client_url: 'https://sentinel.example.com',
      payload: {
        summary: 'Large debit on treasury-hot',
        source: 'treasury-hot (0.0.1234)',
        severity: 'critical',
      },
    });
    expect(event?.links?.map((l) => l.href)).toEqual([
      'https://hashscan.io/mainnet/transaction/1700000000.123456789',
      'https://sentinel.example.com',
      'https://wiki.example.com/runbook',
    ]);
  });

  it('opens one PagerDuty alert on trigger and closes it on resolve, with the same dedup_key', async () => {
    server = await startPagerdutyServer({ routingKeys: [KEY] });
    const firing = testAlert();

    await send(firing);
    await send(resolved(firing));

    expect(server.alerts).toEqual([
      expect.objectContaining({ dedupKey: 'large-debit/0.0.1234', status: 'resolved', triggers: 1 }),
    ]);
  });

  it('sends one event per alert of a digest', async () => {
    server = await startPagerdutyServer({ routingKeys: [KEY] });
    const alerts = testAlerts(3).map((a, i) => ({ ...a, key: `large-debit/0.0.${1000 + i}` }));

    await notifier().send({ kind: 'digest', ruleId: 'large-debit', alerts }, new AbortController().signal);

    expect(server.alerts.map((a) => a.dedupKey)).toEqual([
      'large-debit/0.0.1000',
      'large-debit/0.0.1001',
      'large-debit/0.0.1002',
    ]);
  });

  it('a retried digest sends only the events PagerDuty has not accepted yet', async () => {
    server = await startPagerdutyServer({ routingKeys: [KEY] });
    const alerts = testAlerts(3).map((a, i) => ({ ...a, key: `large-debit/0.0.${1000 + i}` }));
    const pd = notifier();
    const digest = { kind: 'digest', ruleId: 'large-debit', alerts } as const;
    server.script({ status: 202 }, { status: 503 });

    const first = await failure(pd.send(digest, new AbortController().signal));
    await pd.send(digest, new AbortController().signal);

    expect(first).toMatchObject({ retryable: true, reason: 'http_503' });
    const dedupKeys = server.sink.requests.map(
      (r) => (JSON.parse(r.body) as { dedup_key: string }).dedup_key,
    );
    expect(dedupKeys).toEqual([
      'large-debit/0.0.1000',
      'large-debit/0.0.1001',
      'large-debit/0.0.1001',
      'large-debit/0.0.1002',
    ]);
  });

  it('a 400 (unknown routing key) is permanent, says what PagerDuty said, and never shows the key', async () => {
    server = await startPagerdutyServer({ routingKeys: ['another-key'] });

    const error = await failure(send(testAlert()));

    expect(error).toBeInstanceOf(NotifyError);
    expect(error).toMatchObject({ retryable: false, reason: 'http_400' });
    expect(error?.message).toContain('answered HTTP 400');
    expect(error?.message).toContain('Invalid routing key');
    expect(error?.message).toContain('check routing_key');
    expect(error?.message).not.toContain(KEY);
  });

  it('dead-letters a 400 at the first attempt, with one error line giving the reason', async () => {
    server = await startPagerdutyServer({ routingKeys: ['another-key'] });
    const logs = captureLogs();
    const clock = testClock();
    const notification = { kind: 'single', alert: testAlert() } as const;

    const outcome = await deliver(
      notifier(),
      notification,
      { attempts: 0, newestAt: clock.now() },
      { baseDelayMs: 1000, maxDelayMs: 60_000, deadlineMs: 3_600_000 },
      { now: clock.now, random: () => 0, logger: logs.logger, metrics: createMetrics() },
      new AbortController().signal,
    );

    expect(outcome).toEqual({ kind: 'dead', reason: 'permanent (http_400)' });
    const errors = logs.entries().filter((e) => e.level === 50);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('Invalid routing key');
    expect(server.sink.requests).toHaveLength(1);
  });

  it.each([
    [{ status: 429 }, { retryable: true, reason: 'http_429', retryAfterMs: 30_000 }],
    [
      { status: 429, headers: { 'retry-after': '5' } },
      { retryable: true, reason: 'http_429', retryAfterMs: 5000 },
    ],
    [
      { status: 500, body: '{"status":"error"}' },
      { retryable: true, reason: 'http_500' },
    ],
    [{ status: 503 }, { retryable: true, reason: 'http_503' }],
    [
      { status: 200, reset: true },
      { retryable: true, reason: 'network' },
    ],
    [
      { status: 302, headers: { location: 'https://elsewhere.example/' } },
      { retryable: false, reason: 'http_302' },
    ],
  ])('classifies %j', async (answer, expected) => {
    server = await startPagerdutyServer({ routingKeys: [KEY] });
    server.script(answer);

    const error = await failure(send(testAlert()));

    expect(error).toMatchObject(expected);
  });

  it('is rate limited by the server after its limit: retried later, nothing lost', async () => {
    server = await startPagerdutyServer({ routingKeys: [KEY], rateLimit: 1 });

    await send(testAlert());
    const error = await failure(send(testAlert({ key: 'other' })));

    expect(error).toMatchObject({ retryable: true, reason: 'http_429' });
    expect(server.alerts).toHaveLength(1);
  });

  it('sends neutralised, capped text for a hostile memo, accepted by the server', async () => {
    server = await startPagerdutyServer({ routingKeys: [KEY] });
    const hostile = `pay\u202Eexe\u0000 ${'B'.repeat(1_000_000)}`;

    await send(
      testAlert({ summary: hostile, description: hostile, records: [testRecord({ memo: hostile })] }),
    );

    const body = server.sink.requests[0]?.body ?? '';
    expect(server.accepted()).toHaveLength(1);
    expect(body.length).toBeLessThan(20_000);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(body).not.toMatch(/[\u0000\u202E]/u);
    expect(body).toContain('pay\\\\u{202E}exe');
  });
});
