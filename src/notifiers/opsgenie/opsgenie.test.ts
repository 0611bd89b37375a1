import { afterEach, describe, expect, it } from 'vitest';
import { startOpsgenieServer, type OpsgenieServer } from '../../../test/helpers/opsgenie-server.js';
import { testAlert, testRecord } from '../../../test/helpers/alerts.js';
import { testNotifierDeps } from '../../../test/helpers/notifier-deps.js';
import type { Alert } from '../../rules/alert/alert.js';
import { NotifyError } from '../notifier.js';
import { LIMITS, opsgenieRequest } from './message.js';
import { opsgenie } from './opsgenie.js';

const KEY = 'eb243592-faa2-4ba2-a551q-1afdf565c889';
let server: OpsgenieServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function notifier(extra: Record<string, unknown> = {}) {
  const config = opsgenie.config.parse({
    kind: 'opsgenie',
    api_key: KEY,
    api_url: server?.url,
    responders: [{ type: 'team', name: 'treasury-oncall' }],
    tags: ['hedera'],
    ...extra,
  });
  return opsgenie.create('og', config, testNotifierDeps());
}

const send = (alert: Alert, extra: Record<string, unknown> = {}) =>
  notifier(extra).send({ kind: 'single', alert }, new AbortController().signal);

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as NotifyError,
  );

function resolved(alert: Alert): Alert {
  return { ...alert, id: `${alert.id}|resolved`, status: 'resolved', resolution: 'back to normal' };
}

describe('opsgenie requests (pure)', () => {
  const options = opsgenie.config.parse({ kind: 'opsgenie', api_key: KEY });

  it.each([
    ['critical', 'P1'],
    ['warning', 'P3'],
    ['info', 'P5'],
  ] as const)('maps severity %s to priority %s by default', (ours, theirs) => {
    expect(opsgenieRequest(testAlert({ severity: ours }), options).body.priority).toBe(theirs);
  });

  it('creates with alias = the alert key and closes by that alias', () => {
    const firing = testAlert({ key: 'large-debit{account="0.0.1234"}' });

    const create = opsgenieRequest(firing, options);
    const close = opsgenieRequest(resolved(firing), options);

    expect(create.path).toBe('/v2/alerts');
    expect(create.body.alias).toBe('large-debit{account="0.0.1234"}');
    expect(close.path).toBe(
      `/v2/alerts/${encodeURIComponent('large-debit{account="0.0.1234"}')}/close?identifierType=alias`,
    );
    expect(close.body).toEqual({
      source: 'ledger-sentinel',
      note: 'Resolved by ledger-sentinel: back to normal',
    });
  });

  it('holds every field to Opsgenie limits for a hostile, huge alert', () => {
    const huge = `\u202E${'A'.repeat(1_000_000)}`;
    const alert = testAlert({
      key: `k${'x'.repeat(2000)}`,
      summary: huge,
      description: huge,
      records: [testRecord({ memo: huge })],
      labels: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`l${i}`, 'v'.repeat(200)])),
    });

    const { body } = opsgenieRequest(alert, options);

    expect(String(body.message).length).toBeLessThanOrEqual(LIMITS.message);
    expect(String(body.alias).length).toBeLessThanOrEqual(LIMITS.alias);
    expect(String(body.description).length).toBeLessThanOrEqual(LIMITS.description);
    const details = body.details as Record<string, string>;
    const size = Object.entries(details).reduce((n, [k, v]) => n + k.length + v.length, 0);
    expect(size).toBeLessThanOrEqual(LIMITS.details);
    expect(details.not_shown).toMatch(/more details did not fit/);
    expect(JSON.stringify(body)).not.toContain('\u202E');
  });
});

describe('opsgenie notifier against an Opsgenie-like server', () => {
  it('creates an alert with GenieKey auth, responders, tags, details and priority', async () => {
    server = await startOpsgenieServer({ apiKeys: [KEY] });

    const receipt = await send(testAlert());

    const [alert] = server.alerts;
    expect(receipt).toMatchObject({
      status: 202,
      answer: expect.stringContaining('Request will be processed'),
    });
    expect(server.sink.requests[0]?.headers.authorization).toBe(`GenieKey ${KEY}`);
    expect(alert).toMatchObject({ alias: 'large-debit/0.0.1234', priority: 'P1', status: 'open', count: 1 });
    expect(alert?.body).toMatchObject({
      message: 'Large debit on treasury-hot',
      responders: [{ type: 'team', name: 'treasury-oncall' }],
      tags: ['ledger-sentinel', 'large-debit', 'critical', 'hedera'],
      entity: 'treasury-hot (0.0.1234)',
      details: { rule: 'large-debit', memo: 'payroll', 'label.team': 'treasury' },
    });
  });

  it('closes the alert it created by alias on resolve; a repeated create folds into the open alert', async () => {
    server = await startOpsgenieServer({ apiKeys: [KEY] });
    const firing = testAlert();

    await send(firing);
    await send(firing);
    await send(resolved(firing));

    expect(server.alerts).toEqual([
      expect.objectContaining({ alias: 'large-debit/0.0.1234', status: 'closed', count: 2 }),
    ]);
    expect(server.failedRequests).toEqual([]);
  });

  it('a wrong key (401) is permanent and shows what Opsgenie said, never the key', async () => {
    server = await startOpsgenieServer({ apiKeys: ['another-key'] });

    const error = await failure(send(testAlert()));

    expect(error).toBeInstanceOf(NotifyError);
    expect(error).toMatchObject({ retryable: false, reason: 'http_401' });
    expect(error?.message).toContain('Could not authenticate');
    expect(error?.message).toContain('check api_key');
    expect(error?.message).not.toContain(KEY);
  });

  it('a 422 with field errors is permanent and names the field', async () => {
    server = await startOpsgenieServer({ apiKeys: [KEY] });
    server.script({
      status: 422,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: 'Request body is not processable.',
        errors: { priority: 'Priority should be one of [P1, P2, P3, P4, P5]' },
        requestId: 'req-1',
      }),
    });

    const error = await failure(send(testAlert()));

    expect(error).toMatchObject({ retryable: false, reason: 'http_422' });
    expect(error?.message).toContain('priority: Priority should be one of');
    expect(error?.message).toContain('request id req-1');
  });

  it.each([
    [{ status: 429 }, { retryable: true, reason: 'http_429' }],
    [
      { status: 429, headers: { 'retry-after': '7' } },
      { retryable: true, reason: 'http_429', retryAfterMs: 7000 },
    ],
    [{ status: 500 }, { retryable: true, reason: 'http_500' }],
    [
      { status: 403, body: '{"message":"You are not authorized"}' },
      { retryable: false, reason: 'http_403' },
    ],
    [
      { status: 400, body: '{"message":"Could not parse"}' },
      { retryable: false, reason: 'http_400' },
    ],
  ])('classifies %j', async (answer, expected) => {
    server = await startOpsgenieServer({ apiKeys: [KEY] });
    server.script(answer);

    const error = await failure(send(testAlert()));

    expect(error).toMatchObject(expected);
  });

  it('is rate limited by the server past its limit: retryable, and the open alert is not duplicated', async () => {
    server = await startOpsgenieServer({ apiKeys: [KEY], rateLimit: 1 });

    await send(testAlert());
    const error = await failure(send(testAlert()));

    expect(error).toMatchObject({ retryable: true, reason: 'http_429' });
    expect(error?.message).toContain('too many requests');
    expect(server.alerts).toEqual([expect.objectContaining({ count: 1 })]);
  });

  it('uses the EU endpoint when api_url says so', () => {
    const config = opsgenie.config.parse({
      kind: 'opsgenie',
      api_key: KEY,
      api_url: 'https://api.eu.opsgenie.com',
    });

    expect(config.api_url).toBe('https://api.eu.opsgenie.com');
    expect(opsgenie.config.parse({ kind: 'opsgenie', api_key: KEY }).api_url).toBe(
      'https://api.opsgenie.com',
    );
  });

  it('refuses a responder without exactly one of id, name or username', () => {
    const result = opsgenie.config.safeParse({
      kind: 'opsgenie',
      api_key: KEY,
      responders: [{ type: 'team' }],
    });

    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('exactly one of id, name or username');
  });
});
