import { z } from 'zod';
import { OFFLINE_SECRET } from '../../config/file-twins.js';
import { secretRegistry } from '../../config/secret.js';
import { commonKeys, duration, httpUrl, secret } from '../config-types.js';

/** `123456789:AA…` from @BotFather; checked for its shape without ever showing it (it sits in the URL path). */
function botToken(): z.ZodString {
  const schema = secret().superRefine((text, ctx) => {
    // `check --offline` stands in a placeholder for an unread *_file: only the real value has a shape to check.
    if (text !== '' && text !== OFFLINE_SECRET && !/^\d{1,20}:[A-Za-z0-9_-]{1,200}$/.test(text))
      ctx.addIssue({
        code: 'custom',
        message:
          'expected a bot token like "123456789:AAH…" (digits, a colon, then letters, digits, - and _) as @BotFather gives it; the value is not shown because it is a secret',
      });
  });
  return schema.register(secretRegistry, { secret: true });
}

/** A numeric chat id (`-1001234567890`) or a public channel's `@username`, kept as text (int64-safe). */
const ChatId = z
  .union([z.number().int(), z.string()])
  .transform((value) => String(value))
  .refine((text) => /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/.test(text), {
    message: 'expected a numeric chat id like -1001234567890 or a channel username like @treasury_alerts',
  });

export const TelegramConfig = z
  .object({
    kind: z.literal('telegram'),
    /** The bot's token: a secret, and part of every request's URL path; prefer `bot_token_file`. */
    bot_token: botToken(),
    chat_id: ChatId,
    /** A forum topic of the chat (supergroups with topics). */
    message_thread_id: z.number().int().positive().optional(),
    /** A self-hosted Bot API server or a proxy in front of the public one. */
    api_url: httpUrl('https://api.telegram.org').default('https://api.telegram.org'),
    /** Deliver info-severity alerts without a notification sound. */
    silent_info: z.boolean().default(false),
    timeout: duration().default(10_000),
    ...commonKeys,
  })
  .strict();
export type TelegramConfig = z.output<typeof TelegramConfig>;
