import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpSink, type HttpSink } from '../../../test/helpers/http-sink.js';
import { createPacers } from '../../delivery/pacer.js';
import { testAlert, testAlerts } from '../../../test/helpers/alerts.js';
import { testClock } from '../../../test/helpers/clock.js';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { webhookBody, webhookSignature } from './message.js';
import { webhook } from './webhook.js';

let sink: HttpSink;
afterEach(() => sink?.close());

const KEY = 'signing-key-0123456789';

function create(url: string) {
  const clock = testClock(1_700_000_000_000);
  const config = webhook.config.parse({
    kind: 'webhook',
    url,
    signing_key: KEY,
    headers: { 'x-team': 'treasury' },
  });
  return webhook.create('hook', config, {
    now: clock.now,
    sleep: clock.sleep,
    pacers: createPacers(clock),
    logger: captureLogs().logger,
    stdout: process.stdout,
  });
}

describe('webhook message', () => {
  it('signs timestamp and body with HMAC-SHA256', () => {
    const signature = webhookSignature('k', 1700000000, '{"a":1}');

    expect(signature).toBe(`sha256=${createHmac('sha256', 'k').update('1700000000.{"a":1}').digest('hex')}`);
  });

  it('gives the same alerts the same idempotency key in any order', () => {
    const [a, b] = testAlerts(2);

    const one = webhookBody({ kind: 'digest', ruleId: 'r', alerts: [a!, b!] });
    const two = webhookBody({ kind: 'digest', ruleId: 'r', alerts: [b!, a!] });

    expect(one.idempotencyKey).toBe(two.idempotencyKey);
  });
});

describe('webhook notifier against a real HTTP server', () => {
  it('POSTs JSON with a signature the receiver can verify', async () => {
    sink = await startHttpSink();
    const notifier = create(`${sink.origin}/hooks/abc?token=t0ken`);

    await notifier.send({ kind: 'single', alert: testAlert() }, new AbortController().signal);

    const [request] = await sink.waitForRequests(1);
    const timestamp = request?.headers['x-sentinel-timestamp'];
    const expected = createHmac('sha256', KEY).update(`${timestamp}.${request?.body}`).digest('hex');
    expect(request?.path).toBe('/hooks/abc?token=t0ken');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-team']).toBe('treasury');
    expect(timestamp).toBe('1700000000');
    expect(request?.headers['x-sentinel-signature']).toBe(`sha256=${expected}`);
    expect(JSON.parse(request?.body ?? '')).toMatchObject({
      version: 1,
      kind: 'single',
      alerts: [{ id: testAlert().id }],
    });
    expect(request?.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each([
    [
      { status: 429, headers: { 'retry-after': '12' } },
      { retryable: true, retryAfterMs: 12_000, reason: 'http_429' },
    ],
    [{ status: 503 }, { retryable: true, reason: 'http_503' }],
    [{ status: 401 }, { retryable: false, reason: 'http_401' }],
    [
      { status: 200, reset: true },
      { retryable: true, reason: 'network' },
    ],
  ])('classifies %j', async (answer, expected) => {
    sink = await startHttpSink();
    sink.script(answer);
    const notifier = create(`${sink.origin}/hook`);

    const error = await notifier
      .send({ kind: 'single', alert: testAlert() }, new AbortController().signal)
      .catch((e: unknown) => e);

    expect(error).toMatchObject(expected);
  });
});
