// Telegram Bot API: sendMessage with HTML text. The bot token sits in the URL path, so no error here is ever
// built from the URL or the request: only from the status, Telegram's `error_code`, its short `description`
// (reduced to safe words, secrets removed) and `parameters`. Documented classification: 429 waits
// `parameters.retry_after`; 400 (chat not found, bad request), 401 (token refused) and 403 (bot blocked or not a
// member) are configuration errors, never retried; 5xx and network failures are retried.
import { checkAnswer, httpExchange, jsonObject, safeWords } from '../http-exchange.js';
import { NotifyError, type Notifier } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { TelegramConfig } from './config.js';
import { telegramMessage } from './message.js';

export const telegram: NotifierKind<TelegramConfig> = {
  config: TelegramConfig,
  secrets: (config) => [config.bot_token],
  create(name, config, deps): Notifier {
    const url = `${config.api_url}/bot${config.bot_token}/sendMessage`;
    // Telegram's flood control is per bot: a 429 pauses every notifier of this bot, whichever chat it writes to.
    const pacer = deps.pacers.pacer(`telegram:${config.api_url}:${config.bot_token}`, 0);
    const what = `Telegram bot of notifier "${name}"`;
    const secrets = [config.bot_token];
    const target = {
      chatId: config.chat_id,
      ...(config.message_thread_id !== undefined ? { threadId: config.message_thread_id } : {}),
      maxListed: config.group_max_listed,
      silentInfo: config.silent_info,
    };
    return {
      name,
      kind: 'telegram',
      async send(notification, signal) {
        const body = JSON.stringify(telegramMessage(notification, target));
        const answer = await httpExchange({ what, url, body, timeoutMs: config.timeout, signal, pacer });
        const reply = jsonObject(answer.body) ?? {};
        const parameters = (reply.parameters ?? {}) as Record<string, unknown>;
        if (answer.status >= 200 && answer.status < 300 && reply.ok === false)
          throw new NotifyError(`${what} answered ok:false with HTTP ${answer.status} (permanent)`, {
            retryable: false,
            reason: 'telegram_not_ok',
          });
        const said = safeWords(reply.description, secrets, 100);
        checkAnswer(what, answer, {
          now: deps.now,
          maxRetryAfterMs: config.max_retry_after,
          pacer,
          retryAfterSeconds: parameters.retry_after,
          ...(said ? { said: `Telegram said: ${said}` } : {}),
          ...adviceFor(answer.status, parameters.migrate_to_chat_id),
        });
      },
    };
  },
};

/** What Telegram's 4xx mean for this notifier's config, and what to change. */
function adviceFor(status: number, migrateTo: unknown): { advice?: string } {
  if (status === 400 && typeof migrateTo === 'number' && Number.isSafeInteger(migrateTo))
    return { advice: `the group became a supergroup (permanent; set chat_id to ${migrateTo})` };
  if (status === 400)
    return { advice: 'the chat or the message was refused (permanent; check chat_id and message_thread_id)' };
  if (status === 401 || status === 404)
    return { advice: 'the bot token was refused (permanent; check bot_token and api_url)' };
  if (status === 403)
    return {
      advice:
        'the bot may not write to this chat: blocked, removed or never added (permanent; add the bot to the chat)',
    };
  return {};
}
