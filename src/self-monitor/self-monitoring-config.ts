// The `self_monitoring:` config section (composed by config-file/schema.ts): the built-in alerts about
// ledger-sentinel's own health and the bounds /readyz uses.
import { z } from 'zod';
import { duration } from '../config/duration.js';

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
