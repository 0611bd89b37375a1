import { z } from 'zod';

/** pino's levels, quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** `log:` — the process log. */
export const LogConfig = z.strictObject({
  level: z.enum(LOG_LEVELS).default('info'),
});
export type LogConfig = z.output<typeof LogConfig>;
