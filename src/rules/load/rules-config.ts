// The `rules:` section of the config file (composed by config-file/schema.ts).
import { z } from 'zod';

export const RulesConfig = z.strictObject({
  /** Rule files or name patterns (`*` / `?` in the file name), read in order. */
  paths: z.array(z.string().min(1)).min(1).default(['/etc/ledger-sentinel/rules/*.yaml']),
});
export type RulesConfig = z.output<typeof RulesConfig>;
