import { afterEach, describe, expect, it } from 'vitest';
import { DISCORD, startDiscordSink, type DiscordSink } from '../../../test/helpers/discord-sink.js';
import { testAlert, testAlerts, testRecord } from '../../../test/helpers/alerts.js';
import { testNotifierDeps } from '../../../test/helpers/notifier-deps.js';
import { discord } from './discord.js';
import { escapeDiscord } from './escape.js';
import { DISCORD_COLORS, discordMessage, embedsSize } from './message.js';

let sink: DiscordSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const signal = () => new AbortController().signal;

async function notifier(extra: Record<string, unknown> = {}) {
  sink = await startDiscordSink();
  const config = discord.config.parse({ kind: 'discord', webhook_url: sink.webhookUrl, ...extra });
  return discord.create('ops-discord', config, testNotifierDeps());
}

describe('discord escaping', () => {
  it.each([
    ['**bold** __u__ ~~s~~ `c`', '\\*\\*bold\\*\\* \\_\\_u\\_\\_ \\~\\~s\\~\\~ \\`c\\`'],
    ['[click](https://evil.example)', '\\[click\\](https://evil.example)'],
    ['@everyone <@123> ||spoiler||', '\\@everyone \\<\\@123> \\|\\|spoiler\\|\\|'],
    ['# big\n> quote\n- item\n1. one', '\\# big\n\\> quote\n\\- item\n1\\. one'],
    ['0.0.1234 pays 2025-11-13', '0.0.1234 pays 2025-11-13'],
  ])('%j', (text, expected) => {
    expect(escapeDiscord(text)).toBe(expected);
  });
});

describe('discord message', () => {
  it('colours a firing alert by severity and a resolve green, and never allows a mention', () => {
    const firing = discordMessage({ kind: 'single', alert: testAlert() }, 10);
    const resolved = discordMessage(
      { kind: 'single', alert: testAlert({ status: 'resolved', endsAt: '2023-11-14T23:00:00.000Z' }) },
      10,
    );

    expect(firing.embeds[0]?.color).toBe(DISCORD_COLORS.critical);
    expect(firing.embeds[0]?.title).toBe('CRITICAL: Large debit on treasury-hot');
    expect(firing.embeds[0]?.url).toBe('https://hashscan.io/mainnet/transaction/1700000000.123456789');
    expect(firing.content).toMatch(/^\*\*CRITICAL\*\*: /);
    expect(resolved.embeds[0]?.color).toBe(DISCORD_COLORS.resolved);
    expect(resolved.embeds[0]?.timestamp).toBe('2023-11-14T23:00:00.000Z');
    expect(resolved.content).toMatch(/^\*\*RESOLVED\*\*: /);
    expect(firing.allowed_mentions).toEqual({ parse: [] });
  });

  it('keeps a digest within 10 embeds and 6000 characters, counting the rest', () => {
    const alerts = testAlerts(30, { description: 'D'.repeat(1900) });

    const payload = discordMessage({ kind: 'digest', ruleId: 'large-debit', alerts }, 40);

    expect(payload.embeds.length).toBeLessThanOrEqual(10);
    expect(embedsSize(payload.embeds)).toBeLessThanOrEqual(6000);
    expect(payload.content).toMatch(new RegExp(`and ${30 - payload.embeds.length} more$`));
  });
});

describe('discord notifier against a Discord-like webhook', () => {
  it('posts an embed the server accepts; a hostile memo pings nobody and links nothing', async () => {
    const n = await notifier({ username: 'ledger-sentinel' });
    const memo = '@everyone <@&42> [free HBAR](https://evil.example) ' + 'M'.repeat(1_000_000);

    await n.send({ kind: 'single', alert: testAlert({ records: [testRecord({ memo })] }) }, signal());

    const [message] = sink!.accepted();
    expect(message?.allowed_mentions).toEqual({ parse: [] });
    const description = message?.embeds?.[0]?.description ?? '';
    expect(description).toContain('\\@everyone \\<\\@&42> \\[free HBAR\\](https://evil.example)');
    expect(description).toMatch(/M… \(\d+ more characters\)$/);
    expect(sink!.requests[0]?.body.length).toBeLessThan(10_000);
  });

  it.each([
    [DISCORD.rateLimited(2.5), { retryable: true, retryAfterMs: 2500, reason: 'http_429' }],
    [DISCORD.unknownWebhook, { retryable: false, reason: 'http_404' }],
    [DISCORD.invalidToken, { retryable: false, reason: 'http_401' }],
    [DISCORD.invalidForm, { retryable: false, reason: 'http_400' }],
    [{ status: 503 }, { retryable: true, reason: 'http_503' }],
  ])('classifies %j', async (answer, expected) => {
    const n = await notifier();
    sink!.script(answer);

    const error = await n.send({ kind: 'single', alert: testAlert() }, signal()).catch((e: unknown) => e);

    expect(error).toMatchObject(expected);
  });

  it("names Discord's code in the error", async () => {
    const n = await notifier();
    sink!.script(DISCORD.unknownWebhook);

    const error = (await n
      .send({ kind: 'single', alert: testAlert() }, signal())
      .catch((e: unknown) => e)) as Error;

    expect(error.message).toBe(
      'Discord webhook of notifier "ops-discord" answered HTTP 404: no such receiver: the webhook was removed or the URL is wrong (permanent; check the notifier URL) (Discord said: 10015 Unknown Webhook)',
    );
  });
});
