import { z } from 'zod';
import { commonKeys, duration, httpUrl, secret } from '../config-types.js';

const Priority = z.enum(['P1', 'P2', 'P3', 'P4', 'P5']);

/** Who Opsgenie notifies: a team, user, escalation or schedule, by id or name (users: username). */
const Responder = z
  .object({
    type: z.enum(['team', 'user', 'escalation', 'schedule']),
    id: z.string().min(1).max(200).optional(),
    name: z.string().min(1).max(200).optional(),
    username: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((r) => [r.id, r.name, r.username].filter((v) => v !== undefined).length === 1, {
    message: 'a responder needs exactly one of id, name or username (username only for type: user)',
  })
  .refine((r) => r.username === undefined || r.type === 'user', {
    message: 'username identifies users only; use id or name for teams, escalations and schedules',
  });

export const OpsgenieConfig = z
  .object({
    kind: z.literal('opsgenie'),
    /** The API key of an Opsgenie API integration (`Authorization: GenieKey …`); prefer `api_key_file`. */
    api_key: secret(),
    /** `https://api.opsgenie.com` (US) or `https://api.eu.opsgenie.com` (EU accounts). */
    api_url: httpUrl('https://api.eu.opsgenie.com').default('https://api.opsgenie.com'),
    /** Our severity → Opsgenie priority. */
    priority: z
      .object({
        critical: Priority.default('P1'),
        warning: Priority.default('P3'),
        info: Priority.default('P5'),
      })
      .strict()
      .default({ critical: 'P1', warning: 'P3', info: 'P5' }),
    responders: z.array(Responder).max(50).default([]),
    /** Added to the alert's tags (`ledger-sentinel`, the rule id, the severity). Opsgenie keeps at most 20. */
    tags: z.array(z.string().min(1).max(50)).max(16).default([]),
    /** Extra `details` entries (static text; the alert's own facts come first and win). */
    details: z.record(z.string(), z.string().max(500)).default({}),
    /** Opsgenie's `source` field. */
    source: z.string().min(1).max(100).default('ledger-sentinel'),
    /** Opsgenie's `entity` field; default: the alert's account. */
    entity: z.string().min(1).max(512).optional(),
    /** Pacing per API key (Opsgenie's limits depend on the plan). */
    min_interval: duration({ max: '1m' }).default(0),
    timeout: duration().default(10_000),
    ...commonKeys,
  })
  .strict();
export type OpsgenieConfig = z.output<typeof OpsgenieConfig>;
