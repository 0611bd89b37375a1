// What a firing and a resolved alert look like where they arrive: Slack payloads through a Slack-like webhook
// server, mails through a real SMTP server (parsed with mailparser), digests threaded per alert key.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackSink, type SlackSink } from '../../test/helpers/slack-sink.js';
import { startSmtpServer, type SmtpSink } from '../../test/helpers/smtp.js';
import { alertmanagerAlerts } from './alertmanager/message.js';
import { consoleLines } from './console/message.js';
import { emailMessage } from './email/message.js';
import { threadId } from './identity.js';
import { slack } from './slack/slack.js';
import { SLACK_COLORS, slackMessage } from './slack/message.js';
import { testAlert, testRecord } from '../../test/helpers/alerts.js';
import { exampleAlerts } from '../../test/helpers/example-alerts.js';
import { webhookBody } from './webhook/message.js';
import { testMailer } from '../../test/helpers/test-mailer.js';
import { testNotifierDeps } from '../../test/helpers/notifier-deps.js';
import type { Notification } from './notifier.js';

let slackSink: SlackSink | undefined;
let smtp: SmtpSink | undefined;
afterEach(async () => {
  await slackSink?.close();
  await smtp?.close();
  slackSink = smtp = undefined;
});

const deps = testNotifierDeps;

const single = (alert: ReturnType<typeof exampleAlerts>['firing']): Notification => ({
  kind: 'single',
  alert,
});

interface Delivered {
  text: string;
  blocks: { type: string; text?: { text: string } }[];
  attachments: { color: string; blocks: { text: { text: string } }[] }[];
}

describe('Slack payloads as the webhook receives them', () => {
  it('a firing alert: severity header, why in a severity-coloured bar, linked account and transaction', async () => {
    slackSink = await startSlackSink();
    const config = slack.config.parse({ kind: 'slack', webhook_url: slackSink.webhookUrl });
    const { firing } = exampleAlerts();

    await slack.create('ops', config, deps()).send(single(firing), new AbortController().signal);

    const [got] = slackSink.accepted() as unknown as Delivered[];
    expect(got?.text).toBe(':red_circle: [CRITICAL] treasury-hot: 50000.00184 HBAR debited');
    expect(got?.blocks[0]?.text?.text).toBe('CRITICAL: treasury-hot: 50000.00184 HBAR debited');
    expect(got?.attachments[0]?.color).toBe(SLACK_COLORS.critical);
    expect(got?.attachments[0]?.blocks[0]?.text.text).toBe(
      '*Why:* net debit 50,000.00184 HBAR ≥ 10,000 HBAR',
    );
    const all = JSON.stringify(got);
    expect(all).toContain('<https://hashscan.io/testnet/account/0.0.1001|treasury-hot (0.0.1001)>');
    expect(all).toContain('large-debit · critical · treasury-hot (0.0.1001) · since 2025-11-13 02:14:20 UTC');
    expect(all).not.toContain('large-debit{account=');
  });

  it('a resolve: RESOLVED: in text and header, what resolved it, green', async () => {
    slackSink = await startSlackSink();
    const config = slack.config.parse({ kind: 'slack', webhook_url: slackSink.webhookUrl });
    const { resolved } = exampleAlerts();

    await slack.create('ops', config, deps()).send(single(resolved), new AbortController().signal);

    const [got] = slackSink.accepted() as unknown as Delivered[];
    const says =
      'no staking reward for treasury-hot in 26h — ended: a matching record arrived: staking reward of 12.3 HBAR';
    expect(got?.text).toBe(`RESOLVED: ${says}`);
    expect(got?.blocks[0]?.text?.text).toBe(`RESOLVED: ${says}`);
    expect(got?.attachments[0]?.color).toBe(SLACK_COLORS.resolved);
    expect(got?.attachments[0]?.blocks[0]?.text.text).toContain(
      '*Ended:* a matching record arrived: staking reward of 12.3 HBAR',
    );
  });

  it('ends its context line in a reference that a resend repeats and another alert does not', () => {
    const { firing } = exampleAlerts();
    const ref = (alert: typeof firing) =>
      / · ref ([0-9a-f]{12})"/.exec(JSON.stringify(slackMessage(single(alert), 10)))?.[1];

    expect(ref({ ...firing })).toBe(ref(firing));
    expect(ref({ ...firing, id: `${firing.id}|repeat-1` })).not.toBe(ref(firing));
    expect(ref(firing)).toMatch(/^[0-9a-f]{12}$/);
  });

  it('links nothing when the explorer does not serve the network', () => {
    const { firing } = exampleAlerts();
    const bare = {
      ...firing,
      accountUrl: undefined,
      trigger: firing.trigger && { ...firing.trigger, explorerUrl: undefined },
    };

    const payload = slackMessage(single(bare), 10);

    expect(JSON.stringify(payload)).not.toContain('hashscan');
  });
});

describe('emails as the SMTP server receives them', () => {
  const mailer = testMailer;

  it('firing and resolved: status in the subject, HTML links, the resolve in the thread of the firing', async () => {
    smtp = await startSmtpServer();
    const { firing, resolved } = exampleAlerts();
    const notifier = mailer(smtp.port);

    await notifier.send(single(firing), new AbortController().signal);
    await notifier.send(single({ ...resolved, key: firing.key }), new AbortController().signal);

    const [fired, ended] = await smtp.waitForMessages(2);
    expect(fired?.subject).toBe('[CRITICAL] large-debit: treasury-hot: 50000.00184 HBAR debited');
    expect(fired?.text).toContain('Why: net debit 50,000.00184 HBAR ≥ 10,000 HBAR');
    expect(fired?.html).toContain(
      '<a href="https://hashscan.io/testnet/transaction/1763000060.123456789">0.0.1001-1763000055-000000000</a>',
    );
    expect(fired?.html).toContain(
      '<a href="https://hashscan.io/testnet/account/0.0.1001">treasury-hot (0.0.1001)</a>',
    );
    expect(ended?.subject).toMatch(
      /^\[RESOLVED\] missing-staking-reward: no staking reward .* — ended: a matching record arrived: staking reward of 12\.3 HBAR/,
    );
    expect(ended?.text).toContain('Ended: a matching record arrived: staking reward of 12.3 HBAR');
    const thread = threadId(firing.key, 'sentinel.test');
    expect([fired?.inReplyTo, ended?.inReplyTo]).toEqual([thread, thread]);
  });

  it('a digest: threaded on every alert key, its subject naming the rule once', async () => {
    smtp = await startSmtpServer();
    const alerts = ['0.0.1', '0.0.2', '0.0.3'].map((id, i) =>
      testAlert(
        { key: `large-debit{account="${id}"}`, id: `large-debit{account="${id}"}|firing|${i}` },
        i + 1,
      ),
    );

    await mailer(smtp.port).send(
      { kind: 'digest', ruleId: 'large-debit', alerts },
      new AbortController().signal,
    );

    const [mail] = await smtp.waitForMessages(1);
    const threads = alerts.map((a) => threadId(a.key, 'sentinel.test'));
    expect(mail?.subject).toBe('[CRITICAL] 3 alerts of rule large-debit on treasury-hot in 2 s');
    expect(mail?.inReplyTo).toBe(threads[0]);
    expect(mail?.references).toEqual(threads);
  });
});

describe('a window alert', () => {
  const records = [1, 2, 3].map((n) =>
    testRecord({
      transactionId: `0.0.1234-1700000000-00000000${n}`,
      consensusTimestamp: `170000000${n}.000000000`,
    }),
  );
  const alert = testAlert({ records, trigger: records[2], matchCount: 3 });

  it('shows the newest record as the trigger and lists the others, newest first', () => {
    const slackText = JSON.stringify(slackMessage(single(alert), 10));
    const mail = emailMessage(single(alert), 10, 'x.test').text;

    expect(slackText).toMatch(/\*Transaction:\* <[^|]+\|0\.0\.1234-1700000000-000000003>/);
    expect(slackText).toMatch(
      /Also in the window:\*\\n• <[^|]+\|0\.0\.1234-1700000000-000000002>.*\\n• <[^|]+\|0\.0\.1234-1700000000-000000001>/,
    );
    expect(mail).toContain('Transaction: 0.0.1234-1700000000-000000003');
    expect(mail).toMatch(
      /Also in the window \(2\):\n {2}- 0\.0\.1234-1700000000-000000002 .*\n {2}- 0\.0\.1234-1700000000-000000001 /,
    );
  });
});

describe('contract verification', () => {
  const alert = testAlert({ annotations: { contract_verification: 'partial match (metadata differs)' } });

  it.each([
    [
      'Slack',
      () => JSON.stringify(slackMessage(single(alert), 10)),
      '*Contract verification:* partial match (metadata differs)',
    ],
    [
      'email text',
      () => emailMessage(single(alert), 10, 'x.test').text,
      'Contract verification: partial match (metadata differs)',
    ],
    [
      'email HTML',
      () => emailMessage(single(alert), 10, 'x.test').html,
      'Contract verification: partial match (metadata differs)',
    ],
    [
      'console',
      () => consoleLines(single(alert), 10).join('\n'),
      'contract verification: partial match (metadata differs)',
    ],
  ])('reaches %s', (_medium, render, shown) => {
    expect(render()).toContain(shown);
  });
});

describe('why it fired', () => {
  const { firing } = exampleAlerts();
  const why = 'net debit 50,000.00184 HBAR ≥ 10,000 HBAR';

  it.each([
    ['Slack', () => JSON.stringify(slackMessage(single(firing), 10))],
    ['email text', () => emailMessage(single(firing), 10, 'x.test').text],
    ['email HTML', () => emailMessage(single(firing), 10, 'x.test').html],
    ['console', () => consoleLines(single(firing), 10).join('\n')],
    ['webhook', () => JSON.stringify(webhookBody(single(firing)).alerts[0]?.why)],
    [
      'Alertmanager',
      () => alertmanagerAlerts(single(firing), '2025-01-01T00:00:00Z')[0]?.annotations.why ?? '',
    ],
  ])('is shown by default in %s', (_medium, render) => {
    expect(render()).toContain(why);
  });
});

describe('hostile text in the new fields', () => {
  it('is escaped and neutralised like every other field', () => {
    const hostile = '<!channel> <https://evil.example|click>\u001b[2J';
    const alert = testAlert({
      status: 'resolved',
      why: hostile,
      resolution: hostile,
      trigger: testRecord({ tokens: [{ tokenId: '0.0.5', amount: '-1', counterparty: hostile }] }),
    });

    const slack = slackMessage(single(alert), 10);
    // Every mrkdwn text is escaped; the header is plain_text, which Slack shows literally (no ping, no link).
    const slackText = JSON.stringify({ ...slack, blocks: slack.blocks.slice(1) });
    const consoleText = consoleLines(single(alert), 10).join('\n');

    expect(slackText).not.toMatch(/<!channel>|<https:\/\/evil/);
    expect(slack.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(consoleText).not.toContain('\u001b');
    expect(emailMessage(single(alert), 10, 'x.test').html).not.toContain('<https://evil');
  });
});

describe('docs/notifiers.md', () => {
  it('shows the payloads and mails this code produces for the example alerts', () => {
    const docs = readFileSync(new URL('../../docs/notifiers.md', import.meta.url), 'utf8');
    const { firing, resolved } = exampleAlerts();

    for (const alert of [firing, resolved]) {
      expect(docs).toContain(JSON.stringify(slackMessage(single(alert), 10), null, 2));
      const mail = emailMessage(single(alert), 10, 'sentinel.example');
      expect(docs).toContain(`Subject: ${mail.subject}\n\n${mail.text}`);
    }
  });
});
