import { z } from 'zod';
import { commonKeys, duration, httpUrl, secret } from '../config-types.js';

/** PagerDuty's four event severities. */
const PagerdutySeverity = z.enum(['critical', 'error', 'warning', 'info']);

/** A link shown on the PagerDuty alert and incident. */
const Link = z
  .object({
    href: httpUrl('https://wiki.example.com/runbooks/treasury'),
    text: z.string().max(200).optional(),
  })
  .strict();

export const PagerdutyConfig = z
  .object({
    kind: z.literal('pagerduty'),
    /** The 32-character integration key of an Events API v2 integration; prefer `routing_key_file`. */
    routing_key: secret(),
    /** The Events API v2 endpoint (an EU account, a proxy, a test server). */
    url: httpUrl('https://events.pagerduty.com/v2/enqueue').default(
      'https://events.pagerduty.com/v2/enqueue',
    ),
    /** Our severity → PagerDuty's (`critical`, `error`, `warning`, `info`). */
    severity: z
      .object({
        critical: PagerdutySeverity.default('critical'),
        warning: PagerdutySeverity.default('warning'),
        info: PagerdutySeverity.default('info'),
      })
      .strict()
      .default({ critical: 'critical', warning: 'warning', info: 'info' }),
    /** Shown as the monitoring client that sent the event. */
    client: z.string().min(1).max(200).default('ledger-sentinel'),
    /** The client's link in PagerDuty: this daemon's status page, e.g. `https://sentinel.example.com/`. */
    client_url: httpUrl('https://sentinel.example.com/').optional(),
    /** `payload.source`; default: the alert's account (`treasury-hot (0.0.1234)`), else `client`. */
    source: z.string().min(1).max(200).optional(),
    /** `payload.component` and `payload.group`; `payload.class` defaults to the rule id. */
    component: z.string().min(1).max(200).optional(),
    group: z.string().min(1).max(200).optional(),
    class: z.string().min(1).max(200).optional(),
    /** Links added to every event, after the explorer and status page links. */
    links: z.array(Link).max(10).default([]),
    /** Extra `custom_details` entries (static text; the alert's own facts come first and win). */
    details: z.record(z.string(), z.string().max(1000)).default({}),
    /** Pacing per routing key: PagerDuty accepts about 120 events a minute per integration key. */
    min_interval: duration({ max: '1m' }).default(500),
    timeout: duration().default(10_000),
    ...commonKeys,
  })
  .strict();
export type PagerdutyConfig = z.output<typeof PagerdutyConfig>;
