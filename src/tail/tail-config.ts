// The `tail` config section (owned here, composed by config-file/schema.ts): how the tailer polls. Strict: a
// typo in a key is an error, not a silent default. The watch list itself is the `accounts` section
// (src/accounts/accounts-config.ts).
import { z } from 'zod';
import { duration } from '../config/duration.js';
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';

export const TailConfig = z
  .object({
    strategy: z.enum(['auto', 'per-account', 'global']).default('auto'),
    poll_interval: duration({ min: '100ms' }).default(2000),
    /** Fraction of the interval added or removed at random, so polls do not align. */
    jitter: z.number().min(0).max(0.5).default(0.1),
    /** How far behind the newest visible row a record may still appear (docs/ledger-api.md §17). */
    overlap: duration().default(10_000),
    /**
     * Global strategy only. `immediate`: every poll reads the head (new rows handed over at once) and a bounded
     * sweep re-reads what has become final, once per sweep_interval. `settled`: every poll reads only rows at
     * or below head − overlap, each row once, so alerts come `overlap` later (docs/tailing.md, "Race safety").
     */
    global_mode: z.enum(['immediate', 'settled']).default('immediate'),
    /** Global immediate mode: least time between two sweeps. Default: overlap, at least 1s. */
    sweep_interval: duration({ min: '1s' }).optional(),
    start: z
      .string()
      .refine((s) => s === 'now' || /^\d{1,10}(\.\d{1,9})?$/.test(s), {
        message: 'expected "now" or a timestamp like 1700000000.000000000',
      })
      .default('now'),
    concurrency: z.number().int().min(1).max(64).default(8),
    /** Rounds between two cost estimates of strategy auto. */
    reevaluate_rounds: z.number().int().min(1).default(30),
    max_backoff: duration({ min: '1s' }).default(60_000),
    /** Pages one poll of one stream may read; the rest is read by the next poll (docs/tailing.md). */
    max_pages_per_poll: z.number().int().min(1).max(10_000).default(100),
    /** Time one poll of one stream may spend walking pages; checked between pages. */
    max_poll_duration: duration({ min: '1s' }).default(30_000),
    /**
     * How far ahead of this host's clock a consensus timestamp may be and still be trusted to move the head and
     * the cursors; a record beyond it is evaluated but moves nothing (docs/tailing.md, "Timestamps from the future").
     */
    max_clock_skew: duration({ min: '0ms', max: '1h' }).default(300_000),
  })
  .strict()
  .transform((c) => ({ ...c, sweep_interval: c.sweep_interval ?? Math.max(1000, c.overlap) }))
  .prefault({});
export type TailConfig = z.output<typeof TailConfig>;

/** The start position as nanoseconds, or 'now'. */
export function startPosition(config: TailConfig): bigint | 'now' {
  return config.start === 'now' ? 'now' : parseTimestamp(config.start);
}
