import { z } from 'zod';
import { duration } from '../duration.js';
import { httpUrl } from '../http-url.js';

/** `ledger:` — the query-service client: where it reads, how fast, and how long it waits. */
export const LedgerConfig = z.strictObject({
  base_url: httpUrl('https://mainnet.mirrornode.hedera.com'),
  // The public mirror node allows about 50 requests per second per IP.
  requests_per_second: z.number().positive().default(50),
  timeouts: z
    .strictObject({
      connect: duration({ min: '1ms' }).prefault('5s'),
      headers: duration({ min: '1ms' }).prefault('10s'),
      // body restarts on every chunk; total bounds the whole attempt, so a trickled body still ends.
      body: duration({ min: '1ms' }).prefault('30s'),
      total: duration({ min: '1ms' }).prefault('60s'),
    })
    .prefault({}),
  max_response_bytes: z
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  retry: z
    .strictObject({
      max_attempts: z.int().min(1).default(5),
      base_delay: duration().prefault('250ms'),
      max_delay: duration().prefault('30s'),
    })
    .refine((retry) => retry.max_delay >= retry.base_delay, {
      message: 'must not be shorter than base_delay; raise max_delay or lower base_delay',
      path: ['max_delay'],
    })
    .prefault({}),
});
export type LedgerConfig = z.output<typeof LedgerConfig>;
