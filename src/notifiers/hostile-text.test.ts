// Hostile memo text through real receivers: the email through a real SMTP server, parsed back with mailparser (the
// way a mail client reads it), and the Slack payload through the Slack-like sink. What must hold
// (docs/notifiers.md, "Hostile text"): an encoded-word look-alike stays literal in the Subject, no control, bidi or
// zero-width character arrives raw, and a 1 MB memo makes a small message.
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackSink, type SlackSink } from '../../test/helpers/slack-sink.js';
import { startSmtpServer, type SmtpSink } from '../../test/helpers/smtp.js';
import { alertmanagerAlerts } from './alertmanager/message.js';
import { SUBJECT_MAX } from './email/message.js';
import { slack } from './slack/slack.js';
import { testAlert, testRecord } from '../../test/helpers/alerts.js';
import { testMailer } from '../../test/helpers/test-mailer.js';
import { testNotifierDeps } from '../../test/helpers/notifier-deps.js';
import { webhookBody } from './webhook/message.js';
import { pagerduty } from './pagerduty/pagerduty.js';
import { opsgenie } from './opsgenie/opsgenie.js';
import { startPagerdutyServer } from '../../test/helpers/pagerduty-server.js';
import { startOpsgenieServer } from '../../test/helpers/opsgenie-server.js';
import { startDiscordSink } from '../../test/helpers/discord-sink.js';
import { startSlackApiSink } from '../../test/helpers/slack-api-sink.js';
import { startTeamsSink } from '../../test/helpers/teams-sink.js';
import { startTelegramSink } from '../../test/helpers/telegram-sink.js';
import type { HttpSink } from '../../test/helpers/http-sink.js';
import { NOTIFIER_KINDS, type NotifierKind } from './registry.js';

/** Characters that must never reach a receiver raw. */
const RAW =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/u;
const HOSTILE = 'pay\u202Eexe.fdp\u0000 \u001b[31mRED\u001b[0m z\u200Bw\u2066i\u2069\uFEFF';
/** Bounds stated in docs/notifiers.md. */
const EMAIL_BYTES_MAX = 64 * 1024;
const SLACK_BYTES_MAX = 40_000;

let smtp: SmtpSink | undefined;
let sink: SlackSink | undefined;
afterEach(async () => {
  await smtp?.close();
  await sink?.close();
  smtp = undefined;
  sink = undefined;
});

const deps = testNotifierDeps;

const mailer = testMailer;

async function mailOf(summary: string, memo = 'payroll', description = '') {
  smtp = await startSmtpServer();
  const alert = testAlert({ summary, description, records: [testRecord({ memo })] });

  await mailer(smtp.port).send({ kind: 'single', alert }, new AbortController().signal);

  const [mail] = await smtp.waitForMessages(1);
  return { mail, size: smtp.sizes[0] ?? 0 };
}

describe('email: hostile memo text, read back by mailparser', () => {
  it.each([
    ['a base64 encoded-word', '=?utf-8?B?SGVsbG8gd29ybGQ=?='],
    ['a Q encoded-word', 'refund =?UTF-8?Q?=E2=9C=85_approved?= now'],
    ['an encoded-word among non-ASCII text', 'café =?iso-8859-1?Q?caf=E9?='],
    ['a broken encoded-word', '=?utf-8?B?'],
  ])('keeps %s literal in the Subject', async (_name, memo) => {
    const { mail } = await mailOf(memo);

    expect(mail?.subject).toBe(`[CRITICAL] large-debit: ${memo}`);
  });

  it('keeps a long Subject literal and within the limit', async () => {
    const summary = `=?utf-8?B?SGk=?= ${'é'.repeat(400)}`;

    const { mail } = await mailOf(summary);

    expect(mail?.subject?.length).toBeLessThanOrEqual(SUBJECT_MAX);
    expect(mail?.subject).toMatch(/^\[CRITICAL\] large-debit: =\?utf-8\?B\?SGk=\?= é+…$/);
  });

  it('neutralises bidi, NUL, ANSI and zero-width characters in the subject, text and HTML', async () => {
    const { mail } = await mailOf(HOSTILE, HOSTILE, `Memo: ${HOSTILE}`);

    const parts = [mail?.subject ?? '', mail?.text ?? '', typeof mail?.html === 'string' ? mail.html : ''];
    for (const part of parts) {
      expect(part).not.toMatch(RAW);
      expect(part).toContain('pay\\u{202E}exe.fdp\\u{0}');
    }
    expect(mail?.text).toContain('Memo: pay\\u{202E}exe.fdp\\u{0} \\u{1B}[31mRED');
  });

  it('makes a small email of a 1 MB memo', async () => {
    const memo = 'A'.repeat(1_000_000);

    const { mail, size } = await mailOf(`memo ${memo}`, memo, `Memo: ${memo}`);

    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThan(EMAIL_BYTES_MAX);
    expect(mail?.text).toContain(`Memo: ${'A'.repeat(256)}… (999744 more characters)`);
  });
});

describe('slack: hostile memo text through the Slack-like sink', () => {
  async function sent(summary: string, memo: string, description: string): Promise<string> {
    sink = await startSlackSink();
    const config = slack.config.parse({ kind: 'slack', webhook_url: sink.webhookUrl, group_wait: '0s' });
    const alert = testAlert({ summary, description, records: [testRecord({ memo })] });

    await slack.create('ops', config, deps()).send({ kind: 'single', alert }, new AbortController().signal);

    const [request] = await sink.waitForRequests(1);
    return request?.body ?? '';
  }

  it('neutralises bidi, NUL, ANSI and zero-width characters in every string of the payload', async () => {
    const body = await sent(HOSTILE, HOSTILE, `Memo: ${HOSTILE}`);

    const texts = stringsOf(JSON.parse(body));
    expect(texts.filter((t) => RAW.test(t))).toEqual([]);
    expect(texts.some((t) => t.includes('pay\\u{202E}exe.fdp\\u{0}'))).toBe(true);
  });

  it('sends a small payload for a 1 MB memo, accepted by the sink', async () => {
    const memo = 'A'.repeat(1_000_000);

    const body = await sent(`memo ${memo}`, memo, `Memo: ${memo}`);

    expect(Buffer.byteLength(body)).toBeLessThan(SLACK_BYTES_MAX);
    expect(sink?.accepted()).toHaveLength(1);
    expect(body).toContain('… (999744 more characters)');
  });
});

describe('webhook and Alertmanager: hostile memo text', () => {
  const alert = testAlert({
    summary: HOSTILE,
    description: 'A'.repeat(1_000_000),
    records: [testRecord({ memo: `${HOSTILE}${'B'.repeat(1_000_000)}` })],
  });

  it('the webhook body carries neutralised, capped text', () => {
    const body = JSON.stringify(webhookBody({ kind: 'single', alert }));

    expect(body).not.toMatch(RAW);
    expect(body.length).toBeLessThan(10_000);
  });

  it('a hostile group value in the alert key is neutralised in the body; the idempotency key is that of the stored alert', () => {
    const keyed = testAlert({ key: 'r{type="X\u202E"}', id: 'r{type="X\u202E"}|firing|t' });

    const body = webhookBody({ kind: 'single', alert: keyed });
    const same = webhookBody({ kind: 'single', alert: { ...keyed } });

    expect(body.alerts[0]?.key).toBe('r{type="X\\u{202E}"}');
    expect(JSON.stringify(body)).not.toMatch(RAW);
    expect(body.idempotencyKey).toBe(same.idempotencyKey);
    expect(body.idempotencyKey).not.toBe(webhookBody({ kind: 'single', alert: testAlert() }).idempotencyKey);
  });

  it('Alertmanager annotations carry neutralised, capped text', () => {
    const [postable] = alertmanagerAlerts({ kind: 'single', alert }, '2024-01-01T00:00:00Z');

    const annotations = postable?.annotations ?? {};
    expect(Object.values(annotations).some((v) => RAW.test(v))).toBe(false);
    expect(annotations.memo).toMatch(/^pay\\u\{202E\}.*… \(\d+ more characters\)$/);
    expect(annotations.description?.length).toBeLessThan(2100);
  });
});

describe('PagerDuty and Opsgenie: hostile memo text through their loopback servers', () => {
  const KEY = 'hostile-text-key-0123456789abcdef';
  const alert = testAlert({
    key: `large-debit{memo="${HOSTILE}"}`,
    summary: `${HOSTILE}${'A'.repeat(1_000_000)}`,
    description: `Memo: ${HOSTILE}${'A'.repeat(1_000_000)}`,
    labels: { team: HOSTILE },
    records: [testRecord({ memo: `${HOSTILE}${'B'.repeat(1_000_000)}` })],
  });
  const send = (kind: NotifierKind<{ kind: string }>, config: Record<string, unknown>) =>
    kind
      .create('hostile', kind.config.parse(config), deps())
      .send({ kind: 'single', alert }, new AbortController().signal);
  const asKind = (k: unknown) => k as NotifierKind<{ kind: string }>;

  it('PagerDuty gets neutralised, capped strings everywhere, dedup_key included, and accepts the event', async () => {
    const server = await startPagerdutyServer({ routingKeys: [KEY] });

    await send(asKind(pagerduty), { kind: 'pagerduty', routing_key: KEY, url: server.url }).finally(() =>
      server.close(),
    );

    const body = server.sink.requests[0]?.body ?? '';
    const texts = stringsOf(JSON.parse(body));
    expect(server.accepted()).toHaveLength(1);
    expect(texts.filter((t) => RAW.test(t))).toEqual([]);
    expect(Buffer.byteLength(body)).toBeLessThan(SLACK_BYTES_MAX);
    expect(server.accepted()[0]?.dedup_key).toContain('pay\\u{202E}exe.fdp\\u{0}');
  });

  it('Opsgenie gets neutralised, capped strings everywhere, alias included, and accepts the alert', async () => {
    const server = await startOpsgenieServer({ apiKeys: [KEY] });

    await send(asKind(opsgenie), {
      kind: 'opsgenie',
      api_key: KEY,
      api_url: server.url,
    }).finally(() => server.close());

    const body = server.sink.requests[0]?.body ?? '';
    expect(server.alerts).toHaveLength(1);
    expect(stringsOf(JSON.parse(body)).filter((t) => RAW.test(t))).toEqual([]);
    expect(Buffer.byteLength(body)).toBeLessThan(SLACK_BYTES_MAX);
    expect(server.alerts[0]?.message.length).toBeLessThanOrEqual(130);
  });
});

const TELEGRAM_TOKEN = '123456789:AAHhostileTEXTtokenxxxxxxxxxxxxxxx';

/** Each chat receiver's loopback server and the config pointing at it. */
const CHAT_RECEIVERS: [string, () => Promise<{ server: HttpSink; config: Record<string, unknown> }>][] = [
  [
    'discord',
    async () => {
      const server = await startDiscordSink();
      return { server, config: { kind: 'discord', webhook_url: server.webhookUrl } };
    },
  ],
  [
    'teams',
    async () => {
      const server = await startTeamsSink();
      return { server, config: { kind: 'teams', webhook_url: server.webhookUrl } };
    },
  ],
  [
    'telegram',
    async () => {
      const server = await startTelegramSink(TELEGRAM_TOKEN);
      const config = {
        kind: 'telegram',
        bot_token: TELEGRAM_TOKEN,
        chat_id: -1001234567890,
        api_url: server.apiUrl,
      };
      return { server, config };
    },
  ],
  [
    'slack-app',
    async () => {
      const server = await startSlackApiSink();
      const config = {
        kind: 'slack-app',
        bot_token: server.token,
        channel: 'C0ALERTS',
        api_url: server.apiUrl,
      };
      return { server, config };
    },
  ],
];

describe.each(CHAT_RECEIVERS)('%s: hostile memo text through its loopback server', (kind, start) => {
  let server: HttpSink | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function sent(summary: string, memo: string, description: string) {
    const started = await start();
    server = started.server;
    const registered = NOTIFIER_KINDS[kind as keyof typeof NOTIFIER_KINDS] as unknown as NotifierKind<{
      kind: string;
    }>;
    const config = registered.config.parse({ ...started.config, group_wait: '0s' });
    const alert = testAlert({ summary, description, records: [testRecord({ memo })] });

    await registered
      .create('ops', config, deps())
      .send({ kind: 'single', alert }, new AbortController().signal);

    const [request] = await server.waitForRequests(1);
    return { body: request?.body ?? '', status: request?.answer.status ?? 0 };
  }

  it('neutralises bidi, NUL, ANSI and zero-width characters in every string of the payload', async () => {
    const { body } = await sent(HOSTILE, HOSTILE, `Memo: ${HOSTILE}`);

    const texts = stringsOf(parsed(body));
    expect(texts.filter((t) => RAW.test(t))).toEqual([]);
    // Shown as the code point's name; Discord and Teams also backslash-escape its backslash for their Markdown.
    expect(texts.some((t) => /pay\\{1,2}u\{202E\}exe\.fdp/.test(t))).toBe(true);
  });

  it('sends a small payload for a 1 MB memo, accepted by the server', async () => {
    const memo = 'A'.repeat(1_000_000);

    const { body, status } = await sent(`memo ${memo}`, memo, `Memo: ${memo}`);

    expect(Buffer.byteLength(body)).toBeLessThan(SLACK_BYTES_MAX);
    expect(status).toBeLessThan(300);
    expect(JSON.stringify(parsed(body))).toContain('999744 more characters');
  });
});

/** A JSON body, or a form-encoded one (what @slack/web-api sends) with its JSON-encoded fields decoded. */
function parsed(body: string): unknown {
  if (body.startsWith('{')) return JSON.parse(body);
  return Object.fromEntries(
    [...new URLSearchParams(body)].map(([k, v]) => [k, /^[[{]/.test(v) ? (JSON.parse(v) as unknown) : v]),
  );
}

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}
