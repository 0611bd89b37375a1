import { z } from 'zod';

/** `state:` — where cursors, alert state and the outbox are kept. */
export const StateConfig = z.strictObject({
  dir: z.string().min(1).default('/var/lib/ledger-sentinel'),
});
export type StateConfig = z.output<typeof StateConfig>;
