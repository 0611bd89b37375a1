import { z } from 'zod';
import { commonKeys, duration, secret, secretUrl } from '../config-types.js';

export const WebhookConfig = z
  .object({
    kind: z.literal('webhook'),
    /** Receiver URL; a secret because such URLs often carry a token. */
    url: secretUrl('https://receiver.example.com/hooks/ledger-sentinel'),
    /** HMAC-SHA256 key for the X-Sentinel-Signature header; prefer `signing_key_file`. */
    signing_key: secret(),
    /** Extra request headers (not secret: use the URL or signing key for credentials). */
    headers: z.record(z.string(), z.string()).default({}),
    timeout: duration().default(10_000),
    ...commonKeys,
  })
  .strict();
export type WebhookConfig = z.output<typeof WebhookConfig>;
