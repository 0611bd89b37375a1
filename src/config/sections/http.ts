import { z } from 'zod';
import { secret } from '../secret.js';

/** `http:` — the listener for /metrics, /healthz, /readyz, the /api/v1 API and the /-/ endpoints. */
export const HttpConfig = z
  .strictObject({
    host: z.string().min(1).default('0.0.0.0'),
    // 0 picks a free port (tests).
    port: z.int().min(0).max(65535).default(9464),
    /** Bearer token of the state-changing API endpoints (docs/api.md); without it they are disabled, not open. */
    api_token: secret().optional(),
    /** Require the token (or a login session) for every view of the data: the status page, /quarantine, GET /api/v1/... */
    api_read_auth: z.boolean().default(false),
    /**
     * Mark the login session cookie `Secure` (sent over HTTPS only): set it when the page is reached through a TLS
     * proxy, so the cookie never travels in clear text.
     */
    cookie_secure: z.boolean().default(false),
  })
  .refine((h) => !h.api_read_auth || h.api_token !== undefined, {
    path: ['api_read_auth'],
    message: 'api_read_auth needs a token: set api_token_file (or api_token) too',
  });
export type HttpConfig = z.output<typeof HttpConfig>;
