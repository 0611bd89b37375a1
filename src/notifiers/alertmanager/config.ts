import { z } from 'zod';
import { commonKeys, duration, httpUrl, secret, secretUrl } from '../config-types.js';

export const AlertmanagerConfig = z
  .object({
    kind: z.literal('alertmanager'),
    /** Base URL (`http://alertmanager:9093`); alerts go to `<url>/api/v2/alerts`. A secret like every receiver URL. */
    url: secretUrl('http://alertmanager:9093'),
    /** Sent as `Authorization: Bearer …` when set; prefer `bearer_token_file`. */
    bearer_token: secret().optional(),
    /** generatorURL when an alert has no explorer link. */
    generator_url: httpUrl('https://grafana.example.com/d/ledger').optional(),
    timeout: duration().default(10_000),
    /**
     * Alerts that will resolve (windowed rules, self-monitoring) are posted again this often while they fire, with
     * endsAt = now + 4 × resend_interval, so Alertmanager neither resolves them on its own nor loses them.
     */
    resend_interval: duration({ min: '1s', max: '1h' }).default(60_000),
    ...commonKeys,
  })
  .strict();
export type AlertmanagerConfig = z.output<typeof AlertmanagerConfig>;
