// The config sections owned by the daemon itself (composed by app/config/schema.ts): `daemon` (shutdown, reload) and
// `self_monitoring` (the built-in alerts about ledger-sentinel's own health).
import { z } from 'zod';
import { duration } from '../../config/duration.js';

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

/** `self_monitoring:` — alerts about the daemon itself, routed like rule alerts plus these notifiers. */
export const SelfMonitoringConfig = z.strictObject({
  enabled: z.boolean().default(true),
  /** Notifier names for the built-in alerts (the `routes:` also apply). */
  notify: z.array(z.string().min(1)).default([]),
  /** An account whose cursor has not moved for this long fires `sentinel-account-stale`. */
  account_stale_after: duration({ min: '1s' }).prefault('10m'),
  /** No successful poll for this long fires `sentinel-query-service-down` and makes /readyz fail. */
  query_service_down_after: duration({ min: '1s' }).prefault('2m'),
  /** This many failed delivery attempts in a row to one notifier fire `sentinel-delivery-failing`. */
  delivery_failures: z.int().min(1).default(5),
  /** A notifier paused by its receiver's Retry-After for this long (no send since) fires `sentinel-delivery-failing`. */
  delivery_paused_after: duration({ min: '1s' }).prefault('5m'),
  /** `sentinel-future-record` resolves once no record from the future has come for this long. */
  future_record_resolve_after: duration({ min: '1s' }).prefault('10m'),
  /** How often the checks run. */
  check_interval: duration({ min: '100ms', max: '10m' }).prefault('15s'),
});
export type SelfMonitoringConfig = z.output<typeof SelfMonitoringConfig>;
