import { z } from 'zod';

/** `state:` — where cursors, alert state and the outbox are kept. */
export const StateConfig = z.strictObject({
  dir: z.string().min(1).default('/var/lib/ledger-sentinel'),
  /** sqlite: one file in dir, one replica. postgres: shared, needed by ha.enabled. */
  backend: z.enum(['sqlite', 'postgres']).default('sqlite'),
});
export type StateConfig = z.output<typeof StateConfig>;
