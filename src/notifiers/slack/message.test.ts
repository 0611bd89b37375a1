import { describe, expect, it } from 'vitest';
import { testAlert, testAlerts, testRecord } from '../../../test/helpers/alerts.js';
import { SLACK_LIMITS, slackMessage, type SlackBlock } from './message.js';

function allText(blocks: SlackBlock[]): string {
  return JSON.stringify(blocks);
}

describe('slackMessage', () => {
  it('shows severity, account, amount in HBAR and tinybars, type, result, time, linked transaction and memo', () => {
    const alert = testAlert();

    const payload = slackMessage({ kind: 'single', alert }, 10);

    const text = allText(payload.blocks);
    expect(payload.blocks[0]).toMatchObject({
      type: 'header',
      text: { text: 'CRITICAL: Large debit on treasury-hot' },
    });
    expect(text).toContain('treasury-hot (0.0.1234)');
    expect(text).toContain('-1.5 HBAR (-150000000 tinybars)');
    expect(text).toContain('CRYPTOTRANSFER');
    expect(text).toContain('INSUFFICIENT_ACCOUNT_BALANCE');
    expect(text).toContain('2023-11-14 22:13:20.123456789 UTC');
    expect(text).toContain(
      '<https://hashscan.io/mainnet/transaction/1700000000.123456789|0.0.1234-1700000000-000000001>',
    );
    expect(text).toContain('*Memo:* payroll');
    expect(payload.text).toContain('[CRITICAL] Large debit on treasury-hot');
  });

  it('writes the plain_text header literally (no &gt;) and the mrkdwn fields escaped', () => {
    const alert = testAlert({ summary: 'treasury: 1 match in 30s < 2 & > 0', description: 'a < b' });

    const payload = slackMessage({ kind: 'single', alert }, 10);

    expect(payload.blocks[0]).toMatchObject({
      type: 'header',
      text: { type: 'plain_text', text: 'CRITICAL: treasury: 1 match in 30s < 2 & > 0' },
    });
    expect(allText(payload.blocks.slice(1))).toContain('a &lt; b');
    expect(payload.text).toContain('treasury: 1 match in 30s &lt; 2 &amp; &gt; 0');
  });

  it("caps a long header at Slack's 150 characters", () => {
    const alert = testAlert({ summary: '<'.repeat(400) });

    const header = slackMessage({ kind: 'single', alert }, 10).blocks[0] as unknown as {
      text: { text: string };
    };

    expect(header.text.text).toMatch(/^CRITICAL: <+…$/);
    expect(header.text.text.length).toBe(SLACK_LIMITS.header);
  });

  it.each([
    ['<!channel> pay now'],
    ['<@U123> look'],
    ['<https://evil.example|click here>'],
    ['@here urgent'],
  ])('escapes the hostile memo %j so nothing pings or links', (memo) => {
    const alert = testAlert({
      records: [testRecord({ memo })],
      account: { id: '0.0.1', name: memo, labels: {} },
    });

    const payload = slackMessage({ kind: 'single', alert }, 10);

    const text = allText(payload.blocks) + payload.text;
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<@U123>');
    expect(text).not.toContain('<https://evil');
    expect(text).not.toMatch(/@here/);
  });

  it('caps a huge memo visibly within the section limit', () => {
    const alert = testAlert({ records: [testRecord({ memo: '<'.repeat(5000) })] });

    const payload = slackMessage({ kind: 'single', alert }, 10);

    const memo = payload.blocks.find((b) => JSON.stringify(b).includes('Memo'));
    const text = (memo?.text as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.section);
    expect(text).toBe(`*Memo:* ${'&lt;'.repeat(256)}… (4744 more characters)`);
  });

  it('lists the first N alerts of a digest and says how many more', () => {
    const alerts = testAlerts(17);

    const payload = slackMessage({ kind: 'digest', ruleId: 'large-debit', alerts }, 10);

    expect(payload.blocks[0]).toMatchObject({
      text: { text: expect.stringContaining('17 alerts of rule large-debit') },
    });
    expect(allText(payload.blocks)).toContain('_and 7 more_');
    expect(payload.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
  });

  it('stays within 50 blocks however many alerts are listed', () => {
    const alerts = testAlerts(40);

    const payload = slackMessage({ kind: 'digest', ruleId: 'large-debit', alerts }, 40);

    expect(payload.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    expect(allText(payload.blocks)).toMatch(/_and \d+ more_/);
  });
});
