// GET /api/v1/alerts (filtered) and POST /api/v1/alerts/{id}/ack over the alert view and the ack store.
import { z } from 'zod';
import type { AckStore } from '../delivery/ack-store.js';
import { MAX_ALERTS_LISTED, type AlertFilter, type AlertView } from '../delivery/alert-view.js';
import { SEVERITIES } from '../rules/alert/alert.js';
import { HttpError } from './http-io.js';

/** An ack of an alert that never resolves lasts this long unless the caller says otherwise. */
export const DEFAULT_ACK_MS = 24 * 3600 * 1000;

const Filter = z.strictObject({
  rule: z.string().min(1).max(200).optional(),
  account: z.string().min(1).max(200).optional(),
  severity: z.enum(SEVERITIES as unknown as ['info', 'warning', 'critical']).optional(),
  state: z.enum(['firing', 'resolved']).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_ALERTS_LISTED).optional(),
});

export const AckBody = z.strictObject({
  by: z.string().trim().min(1).max(200),
  comment: z.string().max(2000).default(''),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
});

export function alertFilter(params: URLSearchParams): AlertFilter {
  const parsed = Filter.safeParse(Object.fromEntries(params));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`);
  throw new HttpError(400, `invalid query: ${problems.join('; ')}`);
}

/** Acks the current episode of the alert `id` (or key); 404 when unknown, 409 when it is resolved already. */
export function ackAlert(
  alerts: AlertView,
  acks: AckStore,
  id: string,
  body: z.output<typeof AckBody>,
  now: number,
) {
  const alert = alerts.find(id);
  if (!alert) throw new HttpError(404, `no alert ${JSON.stringify(id)}: list them with GET /api/v1/alerts`);
  if (alert.state !== 'firing')
    throw new HttpError(409, `alert ${alert.id} is resolved already: nothing to acknowledge`);
  const expiresAt =
    body.expiresAt !== undefined
      ? Date.parse(body.expiresAt)
      : alert.resolves
        ? undefined
        : now + DEFAULT_ACK_MS;
  if (expiresAt !== undefined && expiresAt <= now)
    throw new HttpError(400, 'expiresAt must be in the future');
  acks.ack({
    key: alert.key,
    startsAt: alert.startsAt,
    resolves: alert.resolves,
    by: body.by,
    comment: body.comment,
    ...(expiresAt === undefined ? {} : { expiresAt }),
  });
  return alerts.find(alert.id);
}
