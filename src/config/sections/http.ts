import { z } from 'zod';

/** `http:` — the listener for /metrics, /healthz and /readyz. */
export const HttpConfig = z.strictObject({
  host: z.string().min(1).default('0.0.0.0'),
  // 0 picks a free port (tests).
  port: z.int().min(0).max(65535).default(9464),
});
export type HttpConfig = z.output<typeof HttpConfig>;
