import { z } from 'zod';
import { commonKeys } from '../config-types.js';

export const ConsoleConfig = z
  .object({
    kind: z.literal('console'),
    ...commonKeys,
    /** The console shows every alert at once by default. */
    group_wait: commonKeys.group_wait.default(0),
  })
  .strict();
export type ConsoleConfig = z.output<typeof ConsoleConfig>;
