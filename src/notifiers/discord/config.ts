import { z } from 'zod';
import { commonKeys, duration, secretUrl } from '../config-types.js';

export const DiscordConfig = z
  .object({
    kind: z.literal('discord'),
    /** Channel webhook URL: a secret (its last path segment is the token); prefer `webhook_url_file`. */
    webhook_url: secretUrl('https://discord.com/api/webhooks/123…/abc…'),
    /** Overrides the webhook's display name. */
    username: z
      .string()
      .min(1)
      .max(80)
      .refine((name) => !/discord|clyde/i.test(name), {
        message: 'Discord refuses webhook names containing "discord" or "clyde"; choose another username',
      })
      .optional(),
    timeout: duration().default(10_000),
    ...commonKeys,
  })
  .strict();
export type DiscordConfig = z.output<typeof DiscordConfig>;
