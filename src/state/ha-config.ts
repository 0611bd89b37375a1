// `ha:` — several replicas on one PostgreSQL state, one of them leading (docs/reliability.md, "Failover").
import { z } from 'zod';
import { duration } from '../config/duration.js';
import { httpUrl } from '../config/http-url.js';

export const HaConfig = z.strictObject({
  /** Compete for the lease; only the holder tails and delivers. Needs state.backend: postgres. */
  enabled: z.boolean().default(false),
  /** A leader that cannot renew for this long is replaced; it stops itself a fifth of it earlier. */
  lease_ttl: duration({ min: '3s', max: '5m' }).prefault('15s'),
  /** The name this replica holds the lease under; default $POD_NAME, else the host name. */
  holder: z.string().min(1).max(253).optional(),
  /** The URL other replicas name (and send state-changing API calls' callers to) while this one leads. */
  advertise_url: httpUrl('http://10.0.3.17:9464').optional(),
  /** How often a standby re-loads its snapshot of the shared state (the status page, the read API, /metrics). */
  standby_refresh: duration({ min: '1s', max: '5m' }).prefault('10s'),
});
export type HaConfig = z.output<typeof HaConfig>;

/** The config issue when HA is asked for on a backend only one process can own, or undefined. */
export function haBackendIssue(
  ha: HaConfig,
  backend: string,
): { path: (string | number)[]; message: string } | undefined {
  if (!ha.enabled || backend === 'postgres') return undefined;
  return {
    path: ['ha', 'enabled'],
    message:
      `needs state.backend: postgres, got "${backend}": a SQLite state file belongs to one process, so a ` +
      'second replica could never take over; set state.backend: postgres with state.url_file, or ha.enabled: false ' +
      '(docs/deployment.md)',
  };
}
