// The secret-leak contract every notifier runs (alertmanager AssertNotifyLeaksNoSecret): make it fail in several
// ways against a real server and prove the secret is absent from the thrown error (message, stack, fields,
// inspect output), from the log lines of the retry stage and from the metrics. The logger has no redaction
// configured on purpose: notifiers must not rely on it.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, startHttpSink, type HttpSink, type SinkResponse } from '../../test/helpers/http-sink.js';
import { startSmtpServer, type SmtpSink } from '../../test/helpers/smtp.js';
import { createMetrics } from '../observability/metrics.js';
import { deliver } from '../delivery/deliver.js';
import { createPacers } from '../delivery/pacer.js';
import { NOTIFIER_KINDS, type NotifierKind } from './registry.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { testClock } from '../../test/helpers/clock.js';
import { captureLogs } from '../../test/helpers/log-capture.js';

const SECRET = 'Sup3rS3cretV4lue-do-not-leak';

interface Failure {
  readonly name: string;
  /** Builds the notifier config for this failure (after arranging the server). */
  config(): Promise<Record<string, unknown>>;
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function http(answer: SinkResponse): Promise<HttpSink> {
  const sink = await startHttpSink(() => answer);
  servers.push(sink);
  return sink;
}

async function smtp(arrange: (server: SmtpSink) => void = () => {}): Promise<SmtpSink> {
  const server = await startSmtpServer({ auth: { user: 'sentinel', pass: SECRET } });
  arrange(server);
  servers.push(server);
  return server;
}

const HTTP_FAILURES: [string, SinkResponse][] = [
  ['500', { status: 500, body: SECRET }],
  ['429', { status: 429, headers: { 'retry-after': '3' }, body: 'rate_limited' }],
  ['400 echoing the request', { status: 400, body: `invalid_payload ${SECRET}` }],
  ['401', { status: 401 }],
  ['404', { status: 404, body: 'no_service' }],
  ['307 to another origin', { status: 307, headers: { location: `http://127.0.0.1:9/${SECRET}` } }],
  ['reset connection', { status: 200, reset: true }],
];

function httpFailures(build: (origin: string) => Record<string, unknown>): Failure[] {
  return [
    ...HTTP_FAILURES.map(([name, answer]) => ({
      name,
      config: async () => build((await http(answer)).origin),
    })),
    { name: 'connection refused', config: async () => build(`http://127.0.0.1:${await closedPort()}`) },
  ];
}

function jsonError(status: number, body: unknown): SinkResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const smtpBase = {
  kind: 'email',
  host: '127.0.0.1',
  security: 'none',
  username: 'sentinel',
  from: 'a@example.com',
  to: ['b@example.com'],
};

const CASES: Record<string, Failure[]> = {
  slack: httpFailures((origin) => ({ kind: 'slack', webhook_url: `${origin}/services/T1/B1/${SECRET}` })),
  webhook: httpFailures((origin) => ({
    kind: 'webhook',
    url: `${origin}/hook?token=${SECRET}`,
    signing_key: SECRET,
  })),
  // The URL is a secret too: an auth proxy in front of Alertmanager may take a token in the path.
  alertmanager: httpFailures((origin) => ({
    kind: 'alertmanager',
    url: `${origin}/proxy/${SECRET}`,
    bearer_token: SECRET,
  })),
  // The routing key travels in the body: a 400 echoing it must not carry it into the error (PagerDuty's `errors`
  // are shown, so the JSON echo is a case of its own).
  pagerduty: [
    ...httpFailures((origin) => ({ kind: 'pagerduty', url: `${origin}/v2/enqueue`, routing_key: SECRET })),
    {
      name: '400 whose errors quote the routing key',
      config: async () => ({
        kind: 'pagerduty',
        url: `${(await http(jsonError(400, { status: 'invalid event', message: 'Event object is invalid', errors: [`Invalid routing key ${SECRET}`] }))).origin}/v2/enqueue`,
        routing_key: SECRET,
      }),
    },
  ],
  opsgenie: [
    ...httpFailures((origin) => ({ kind: 'opsgenie', api_url: origin, api_key: SECRET })),
    {
      name: '401 whose message quotes the key',
      config: async () => ({
        kind: 'opsgenie',
        api_url: (
          await http(jsonError(401, { message: `Key ${SECRET} is not valid`, errors: { key: SECRET } }))
        ).origin,
        api_key: SECRET,
      }),
    },
  ],
  discord: httpFailures((origin) => ({ kind: 'discord', webhook_url: `${origin}/api/webhooks/1/${SECRET}` })),
  teams: httpFailures((origin) => ({
    kind: 'teams',
    webhook_url: `${origin}/workflows/1/triggers/manual/paths/invoke?api-version=2016-06-01&sig=${SECRET}`,
  })),
  // The bot token sits in the URL path of every request.
  telegram: [
    ...httpFailures((origin) => ({
      kind: 'telegram',
      bot_token: `123456789:${SECRET}`,
      chat_id: -100123,
      api_url: origin,
    })),
    {
      name: '400 whose description quotes the request URL',
      config: async () => ({
        kind: 'telegram',
        bot_token: `123456789:${SECRET}`,
        chat_id: 1,
        api_url: (
          await http({
            status: 400,
            body: JSON.stringify({
              ok: false,
              description: `Bad Request: /bot123456789:${SECRET}/sendMessage`,
            }),
          })
        ).origin,
      }),
    },
  ],
  'slack-app': [
    ...httpFailures((origin) => ({
      kind: 'slack-app',
      bot_token: `xoxb-${SECRET}`,
      channel: 'C0ALERTS',
      api_url: origin,
    })),
    {
      name: 'ok:false with an error code echoing the token',
      config: async () => ({
        kind: 'slack-app',
        bot_token: `xoxb-${SECRET}`,
        channel: 'C0ALERTS',
        api_url: (await http({ status: 200, body: JSON.stringify({ ok: false, error: `xoxb-${SECRET}` }) }))
          .origin,
      }),
    },
  ],
  email: [
    {
      name: 'wrong password',
      config: async () => ({ ...smtpBase, port: (await smtp()).port, password: `${SECRET}-wrong` }),
    },
    {
      name: '451 at DATA',
      config: async () => ({
        ...smtpBase,
        port: (await smtp((s) => s.refuseNext(2, 451))).port,
        password: SECRET,
      }),
    },
    {
      name: '550 at DATA',
      config: async () => ({
        ...smtpBase,
        port: (await smtp((s) => s.refuseNext(2, 550))).port,
        password: SECRET,
      }),
    },
    {
      name: 'connection refused',
      config: async () => ({ ...smtpBase, port: await closedPort(), password: SECRET }),
    },
  ],
};

describe('secret-leak contract', () => {
  it('covers every registered notifier kind that has secrets', () => {
    const withSecrets = Object.keys(NOTIFIER_KINDS).filter((k) => k !== 'console');

    expect(Object.keys(CASES).sort()).toEqual(withSecrets.sort());
  });

  const rows = Object.entries(CASES).flatMap(([kind, failures]) =>
    failures.map((f) => [kind, f.name, f] as const),
  );

  it.each(rows)('%s notifier leaks no secret on %s', async (kind, _name, failure) => {
    const registered = NOTIFIER_KINDS[kind as keyof typeof NOTIFIER_KINDS] as unknown as NotifierKind<{
      kind: string;
    }>;
    const config = registered.config.parse(await failure.config());
    const clock = testClock();
    const logs = captureLogs();
    const metrics = createMetrics();
    const notifier = registered.create('leaky', config, {
      now: clock.now,
      sleep: clock.sleep,
      pacers: createPacers(clock),
      logger: logs.logger,
      stdout: process.stdout,
    });
    const notification = { kind: 'single', alert: testAlert() } as const;
    const deps = { now: clock.now, random: () => 0, logger: logs.logger, metrics };

    const thrown: unknown = await notifier.send(notification, new AbortController().signal).then(
      () => undefined,
      (e: unknown) => e,
    );
    clock.advance(3_600_000); // past any Retry-After pause of the first send
    const outcome = await deliver(
      notifier,
      notification,
      { attempts: 0, newestAt: 0 },
      { baseDelayMs: 1, maxDelayMs: 1, deadlineMs: 0 },
      deps,
      new AbortController().signal,
    );

    expect(registered.secrets(config).some((s) => s.includes(SECRET))).toBe(true);
    expect(thrown).toBeInstanceOf(Error);
    expect(outcome.kind).toBe('dead');
    const error = thrown as Error;
    const surfaces = [
      String(error),
      error.message,
      error.stack ?? '',
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      logs.text(),
      await metrics.registry.metrics(),
    ];
    for (const surface of surfaces) expect(surface).not.toContain(SECRET);
    expect(logs.text()).toContain('notification dead-lettered');
  });
});
