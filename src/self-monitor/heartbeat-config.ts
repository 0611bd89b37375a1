// `heartbeat:` — the dead man's switch: an outgoing ping every `interval` while the daemon is healthy, to a
// Healthchecks-style URL, an Opsgenie heartbeat or any service that alerts when the pings stop
// (docs/notifiers.md, "Heartbeat"). The URL and the Authorization value are secrets (`_file` twins).
import { z } from 'zod';
import { duration } from '../config/duration.js';
import { secret } from '../config/secret.js';
import { secretUrl } from '../notifiers/secret-url.js';

export const HeartbeatConfig = z
  .object({
    url: secretUrl('https://hc-ping.com/your-uuid'),
    interval: duration({ min: '5s', max: '1h' }).prefault('60s'),
    method: z.enum(['GET', 'POST', 'HEAD']).default('GET'),
    /** Sent as the Authorization header as is, e.g. `GenieKey …` for Opsgenie heartbeats. */
    authorization: secret().optional(),
    /** Unhealthy: `skip` the ping (the service alerts when its grace runs out) or ping `<url>/fail` at once. */
    on_unhealthy: z.enum(['skip', 'fail']).default('skip'),
    timeout: duration({ min: '1s', max: '60s' }).prefault('10s'),
  })
  .strict()
  .refine((h) => h.timeout < h.interval, {
    message: 'timeout must be shorter than interval, so a slow ping never overlaps the next one',
    path: ['timeout'],
  });
export type HeartbeatConfig = z.output<typeof HeartbeatConfig>;
