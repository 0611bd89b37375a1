import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpServer, type SmtpSink } from '../../../test/helpers/smtp.js';
import { createPacers } from '../../delivery/pacer.js';
import { Notifiers } from '../schema.js';
import { testAlert, testRecord } from '../../../test/helpers/alerts.js';
import { testClock } from '../../../test/helpers/clock.js';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { deliverySetupFor } from '../../../test/helpers/receivers.js';
import { email } from './email.js';

let smtp: SmtpSink;
afterEach(() => smtp?.close());

const AUTH = { user: 'sentinel', pass: 'smtp-Pa55word-secret' };

function emailConfig(port: number, extra: Record<string, unknown> = {}) {
  return email.config.parse({
    kind: 'email',
    host: '127.0.0.1',
    port,
    security: 'starttls',
    tls_insecure_skip_verify: true,
    username: AUTH.user,
    password: AUTH.pass,
    from: 'sentinel@example.com',
    to: ['ops@example.com'],
    message_id_domain: 'sentinel.test',
    ...extra,
  });
}

function notifierFor(config: ReturnType<typeof emailConfig>) {
  const clock = testClock();
  return email.create('mail', config, {
    now: clock.now,
    sleep: clock.sleep,
    pacers: createPacers(clock),
    logger: captureLogs().logger,
    stdout: process.stdout,
  });
}

describe('email notifier against a real SMTP server', () => {
  it('delivers multipart text + escaped HTML with severity, rule and a stable Message-ID over STARTTLS with auth', async () => {
    smtp = await startSmtpServer({ auth: AUTH });
    const alert = testAlert({ records: [testRecord({ memo: '<img src=x onerror=alert(1)> & "q"' })] });
    const notifier = notifierFor(emailConfig(smtp.port));

    await notifier.send({ kind: 'single', alert }, new AbortController().signal);

    const [mail] = await smtp.waitForMessages(1);
    expect(mail?.subject).toBe('[CRITICAL] large-debit: Large debit on treasury-hot');
    expect(mail?.text).toContain('Memo: <img src=x onerror=alert(1)> & "q"');
    expect(mail?.html).toContain('&#60;img src=x onerror=alert(1)&#62; &#38; &#34;q&#34;');
    expect(mail?.html).not.toContain('<img');
    expect(mail?.messageId).toMatch(/^<[0-9a-f]{32}@sentinel\.test>$/);
    expect(mail?.to).toMatchObject({ text: 'ops@example.com' });
  });

  it('sends a resend with the same Message-ID', async () => {
    smtp = await startSmtpServer({ auth: AUTH });
    const notifier = notifierFor(emailConfig(smtp.port));
    const notification = { kind: 'single', alert: testAlert() } as const;

    await notifier.send(notification, new AbortController().signal);
    await notifier.send(notification, new AbortController().signal);

    const [first, second] = await smtp.waitForMessages(2);
    expect(second?.messageId).toBe(first?.messageId);
  });

  it('works over implicit TLS', async () => {
    smtp = await startSmtpServer({ auth: AUTH, secure: true });
    const notifier = notifierFor(emailConfig(smtp.port, { security: 'tls' }));

    await notifier.send({ kind: 'single', alert: testAlert() }, new AbortController().signal);

    expect(await smtp.waitForMessages(1)).toHaveLength(1);
  });

  it.each([
    [451, true, 'smtp_451'],
    [550, false, 'smtp_550'],
  ])('classifies a %i refusal (retryable: %s)', async (code, retryable, reason) => {
    smtp = await startSmtpServer({ auth: AUTH });
    smtp.refuseNext(1, code);
    const notifier = notifierFor(emailConfig(smtp.port));

    const error = await notifier
      .send({ kind: 'single', alert: testAlert() }, new AbortController().signal)
      .catch((e: unknown) => e);

    expect(error).toMatchObject({ retryable, reason });
  });

  it('delivers after the server refused: the worker retries and the mail arrives once', async () => {
    smtp = await startSmtpServer({ auth: AUTH });
    smtp.refuseNext(2, 451);
    const config = Notifiers.parse({
      mail: {
        kind: 'email',
        host: '127.0.0.1',
        port: smtp.port,
        tls_insecure_skip_verify: true,
        username: AUTH.user,
        password: AUTH.pass,
        from: 'a@example.com',
        to: ['b@example.com'],
        group_wait: '0s',
      },
    });
    const { clock, logs, outbox, worker } = deliverySetupFor(config);
    outbox.enqueue(testAlert(), ['mail']);

    for (let pass = 0; pass < 3; pass++) {
      await worker.runOnce();
      clock.advance(Math.max(0, (outbox.nextDueAt() ?? clock.now()) - clock.now()));
    }

    expect(await smtp.waitForMessages(1)).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);
    expect(outbox.status(testAlert().id, 'mail')).toBe('sent');
    expect(logs.entries().filter((e) => e.msg === 'notification failed, will retry')).toHaveLength(2);
  });
});
