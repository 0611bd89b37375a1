import { z } from 'zod';
import { OFFLINE_SECRET } from '../../config/file-twins.js';
import { secretRegistry } from '../../config/secret.js';
import { commonKeys, duration, httpUrl, secret } from '../config-types.js';

/** `xoxb-…` (a bot token; `xoxp-` user tokens work too); checked for its shape without ever showing it. */
function botToken(): z.ZodString {
  const schema = secret().superRefine((text, ctx) => {
    // `check --offline` stands in a placeholder for an unread *_file: only the real value has a shape to check.
    if (text !== '' && text !== OFFLINE_SECRET && !/^xox[bp]-[A-Za-z0-9-]{8,250}$/.test(text))
      ctx.addIssue({
        code: 'custom',
        message:
          'expected a Slack bot token like "xoxb-…" (OAuth & Permissions of the Slack app); the value is not shown because it is a secret',
      });
  });
  return schema.register(secretRegistry, { secret: true });
}

export const SlackAppConfig = z
  .object({
    kind: z.literal('slack-app'),
    /** The app's bot token (scope chat:write); prefer `bot_token_file`. */
    bot_token: botToken(),
    /** Channel id (`C0123ABCD`, preferred: it survives a rename) or name (`#treasury-alerts`). */
    channel: z.string().regex(/^(#[a-z0-9][a-z0-9._-]{0,79}|[CGD][A-Z0-9]{6,20})$/, {
      message: 'expected a channel id like "C0123ABCD" or a name like "#treasury-alerts"',
    }),
    /** Slack's Web API base; a test server or a proxy. */
    api_url: httpUrl('https://slack.com/api').default('https://slack.com/api'),
    /** On resolve, also edit the firing message to show it resolved (chat.update), besides the thread reply. */
    update_on_resolve: z.boolean().default(true),
    /** Also show the thread reply of a resolve in the channel (reply_broadcast). */
    broadcast_resolve: z.boolean().default(false),
    username: z.string().optional(),
    icon_emoji: z.string().optional(),
    /** Slack allows about one chat.postMessage per second per channel. */
    min_interval: duration().default(1000),
    timeout: duration().default(10_000),
    ...commonKeys,
  })
  .strict();
export type SlackAppConfig = z.output<typeof SlackAppConfig>;
