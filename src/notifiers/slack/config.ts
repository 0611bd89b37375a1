import { z } from 'zod';
import { commonKeys, duration, secretUrl } from '../config-types.js';

export const SlackConfig = z
  .object({
    kind: z.literal('slack'),
    /** Incoming webhook URL: a secret (the path is the credential); prefer `webhook_url_file`. */
    webhook_url: secretUrl('https://hooks.slack.com/services/T…/B…/…'),
    username: z.string().optional(),
    icon_emoji: z.string().optional(),
    /** Slack allows one message per second per webhook. */
    min_interval: duration().default(1000),
    timeout: duration().default(10_000),
    ...commonKeys,
  })
  .strict();
export type SlackConfig = z.output<typeof SlackConfig>;
