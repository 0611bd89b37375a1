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

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}
