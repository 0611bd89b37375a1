import { z } from 'zod';
import { commonKeys, duration, secret } from '../config-types.js';

export const EmailConfig = z
  .object({
    kind: z.literal('email'),
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).default(587),
    /** `tls`: TLS from the first byte (port 465); `starttls`: upgrade, required; `none`: plaintext (tests only). */
    security: z.enum(['tls', 'starttls', 'none']).default('starttls'),
    username: z.string().optional(),
    /** SMTP password; prefer `password_file`. */
    password: secret().optional(),
    /** Accept a self-signed server certificate (lab setups only). */
    tls_insecure_skip_verify: z.boolean().default(false),
    from: z.string().min(3),
    to: z.array(z.string().min(3)).min(1),
    /** Domain used in Message-IDs. */
    message_id_domain: z.string().default('ledger-sentinel.local'),
    timeout: duration().default(30_000),
    ...commonKeys,
  })
  .strict()
  .refine((c) => (c.username === undefined) === (c.password === undefined), {
    message: 'username and password go together: set both or neither',
  });
export type EmailConfig = z.output<typeof EmailConfig>;
