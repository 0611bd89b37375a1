// Discord channel webhooks: one POST of embeds. A 429 carries `retry_after` (seconds, fractional) in its JSON body
// and a Retry-After header: the body's value is honoured (capped by max_retry_after) and pauses the webhook. Other
// 4xx (10015 Unknown Webhook, 50027 Invalid Webhook Token, 50035 Invalid Form Body) are permanent; Discord's
// numeric code and short message are kept, nothing else of the body.
import { checkAnswer, httpExchange, jsonObject, safeWords } from '../http-exchange.js';
import type { Notifier } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { DiscordConfig } from './config.js';
import { discordMessage } from './message.js';

export const discord: NotifierKind<DiscordConfig> = {
  config: DiscordConfig,
  secrets: (config) => [config.webhook_url],
  create(name, config, deps): Notifier {
    // Discord limits per webhook: a 429 pauses every notifier posting to this one, and only those.
    const pacer = deps.pacers.pacer(config.webhook_url, 0);
    const what = `Discord webhook of notifier "${name}"`;
    const secrets = [config.webhook_url];
    return {
      name,
      kind: 'discord',
      async send(notification, signal) {
        const payload = discordMessage(notification, config.group_max_listed, config.username);
        const answer = await httpExchange({
          what,
          url: config.webhook_url,
          body: JSON.stringify(payload),
          timeoutMs: config.timeout,
          signal,
          pacer,
        });
        const error = jsonObject(answer.body) ?? {};
        const said = safeWords(
          [error.code, error.message].filter((v) => v !== undefined).join(' '),
          secrets,
          80,
        );
        checkAnswer(what, answer, {
          now: deps.now,
          maxRetryAfterMs: config.max_retry_after,
          pacer,
          retryAfterSeconds: answer.status === 429 ? error.retry_after : undefined,
          ...(said ? { said: `Discord said: ${said}` } : {}),
        });
      },
    };
  },
};
