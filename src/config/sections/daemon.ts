// The `daemon:` config section (composed by config-file/schema.ts): process behaviour that is not a room's business.
import { z } from 'zod';
import { duration } from '../duration.js';

/** `daemon:` — process behaviour that is not a module's business. */
export const DaemonConfig = z.strictObject({
  /** On SIGTERM: how long the outbox may keep sending before state is saved and the process exits. */
  shutdown_grace: duration({ min: '0ms', max: '10m' }).prefault('10s'),
  /** Reload when the config file or a rule file changes (the directories are watched: ConfigMaps swap links). */
  watch_files: z.boolean().default(true),
  /** How often time-based rule windows (absence) are evaluated. */
  tick_interval: duration({ min: '100ms', max: '1h' }).prefault('10s'),
});
export type DaemonConfig = z.output<typeof DaemonConfig>;
