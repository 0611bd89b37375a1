import { afterEach, describe, expect, it } from 'vitest';
import {
  shownText,
  startTelegramSink,
  TELEGRAM,
  type TelegramSink,
} from '../../../test/helpers/telegram-sink.js';
import { testAlert, testAlerts, testRecord } from '../../../test/helpers/alerts.js';
import { testNotifierDeps } from '../../../test/helpers/notifier-deps.js';
import { escapeHtml } from './escape.js';
import { escapeCapped, TELEGRAM_TEXT_MAX, telegramMessage } from './message.js';
import { telegram } from './telegram.js';

const TOKEN = '123456789:AAHsecretTOKENxxxxxxxxxxxxxxxxxxxx';
let sink: TelegramSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const signal = () => new AbortController().signal;
const target = { chatId: '-100123', maxListed: 10, silentInfo: false };

async function notifier(extra: Record<string, unknown> = {}) {
  sink = await startTelegramSink(TOKEN);
  const config = telegram.config.parse({
    kind: 'telegram',
    bot_token: TOKEN,
    chat_id: -1001234567890,
    api_url: sink.apiUrl,
    ...extra,
  });
  return telegram.create('ops-telegram', config, testNotifierDeps());
}

describe('telegram HTML', () => {
  it('escapes &, < and > (and " for attributes)', () => {
    expect(escapeHtml('<b>a & "b"</b>')).toBe('&lt;b&gt;a &amp; &quot;b&quot;&lt;/b&gt;');
  });

  it('caps escaped text without splitting an entity', () => {
    const capped = escapeCapped('&'.repeat(100), 23);

    expect(capped).toBe(`${'&amp;'.repeat(4)}…`);
  });

  it('marks firing and resolved apart and links the transaction', () => {
    const firing = telegramMessage({ kind: 'single', alert: testAlert() }, target);
    const resolved = telegramMessage({ kind: 'single', alert: testAlert({ status: 'resolved' }) }, target);

    expect(firing.text).toMatch(/^🔴 <b>CRITICAL: Large debit on treasury-hot<\/b>\n/);
    expect(firing.text).toContain(
      '<b>Transaction:</b> <a href="https://hashscan.io/mainnet/transaction/1700000000.123456789">0.0.1234-1700000000-000000001</a>',
    );
    expect(resolved.text).toMatch(/^✅ <b>RESOLVED: /);
    expect(firing.parse_mode).toBe('HTML');
  });

  it('keeps a big digest under 4096 characters of valid HTML', () => {
    const alerts = testAlerts(40, { description: '<&>'.repeat(700) });

    const { text } = telegramMessage(
      { kind: 'digest', ruleId: 'large-debit', alerts },
      { ...target, maxListed: 40 },
    );

    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_MAX);
    expect(shownText(text)).toBeDefined();
    expect(text).toMatch(/<i>and \d+ more<\/i>/);
  });
});

describe('telegram notifier against a Bot-API-like server', () => {
  it('sends to the chat and topic; a hostile memo shows as text', async () => {
    const n = await notifier({ message_thread_id: 7 });
    const memo = '<a href="https://evil.example">claim</a> </b> & ' + 'M'.repeat(1_000_000);

    await n.send({ kind: 'single', alert: testAlert({ records: [testRecord({ memo })] }) }, signal());

    const [message] = sink!.accepted();
    expect(message?.chat_id).toBe('-1001234567890');
    expect(message?.message_thread_id).toBe(7);
    expect(message?.shown).toContain('Memo: <a href="https://evil.example">claim</a> </b> & MMM');
    expect(message?.text).not.toContain('href="https://evil.example"');
  });

  it.each([
    [TELEGRAM.flood(7), { retryable: true, retryAfterMs: 7000, reason: 'http_429' }],
    [TELEGRAM.chatNotFound, { retryable: false, reason: 'http_400' }],
    [TELEGRAM.unauthorized, { retryable: false, reason: 'http_401' }],
    [TELEGRAM.kicked, { retryable: false, reason: 'http_403' }],
    [TELEGRAM.serverError, { retryable: true, reason: 'http_502' }],
  ])('classifies %j', async (answer, expected) => {
    const n = await notifier();
    sink!.script(answer);

    const error = await n.send({ kind: 'single', alert: testAlert() }, signal()).catch((e: unknown) => e);

    expect(error).toMatchObject(expected);
  });

  it('says which chat id to use after a group became a supergroup', async () => {
    const n = await notifier();
    sink!.script(TELEGRAM.migrated(-1009876543210));

    const error = (await n
      .send({ kind: 'single', alert: testAlert() }, signal())
      .catch((e: unknown) => e)) as Error;

    expect(error.message).toBe(
      'Telegram bot of notifier "ops-telegram" answered HTTP 400: the group became a supergroup (permanent; set chat_id to -1009876543210) (Telegram said: Bad Request: group chat was upgraded to a supergroup chat)',
    );
  });

  it('never shows the token, even when the server echoes it', async () => {
    const n = await notifier();
    sink!.script({ status: 400, body: JSON.stringify({ ok: false, description: `bad /bot${TOKEN}/x` }) });

    const error = (await n
      .send({ kind: 'single', alert: testAlert() }, signal())
      .catch((e: unknown) => e)) as Error;

    expect(error.message).toContain('Telegram said: bad');
    expect(error.message).not.toContain(TOKEN.split(':')[1]);
  });

  it.each([
    [{ bot_token: 'not-a-token' }, 'expected a bot token like'],
    [{ chat_id: 'treasury' }, 'expected a numeric chat id'],
  ])('refuses %j in the config', (bad, message) => {
    const result = telegram.config.safeParse({ kind: 'telegram', bot_token: TOKEN, chat_id: 1, ...bad });

    expect(JSON.stringify(result.error?.issues)).toContain(message);
    expect(JSON.stringify(result.error?.issues)).not.toContain('not-a-token');
  });
});
