// The durable outbox: alerts and their per-channel deliveries in the state store (tables outbox_*).
// enqueue() is synchronous so the pipeline calls it inside the same store.transaction() that moves the cursor:
// an alert is on disk before the record that caused it is marked done. Delivery is recorded per channel.
import type { Alert } from '../rules/alert/alert.js';
import type { StateStore } from '../state/store.js';
import { createEscalationStore, type EscalationStore } from './escalation-store.js';
import { createFiringSet, type FiringSet } from './firing-set.js';
import { outboxReports, type OutboxReports } from './outbox-reports.js';

export type { ChannelError, DeadLetter, DeliveryStatus } from './outbox-reports.js';

export interface DeliveryRow {
  readonly alert: Alert;
  readonly channel: string;
  readonly attempts: number;
  /** When the delivery was enqueued (ms since epoch): grouping and the deadline count from here. */
  readonly createdAt: number;
  readonly nextAt: number;
  /** The last failure or postponement reason (`muted` for a row held by a route's mute window). */
  readonly lastError?: string;
}

export interface EnqueueOptions {
  /** A copy of a firing alert for more receivers (an escalation): the firing set keeps the original. */
  readonly copy?: boolean;
}

/** Writes here; what it reports without changing anything is OutboxReports (outbox-reports.ts). */
export interface Outbox extends OutboxReports {
  /**
   * Synchronous; safe inside store.transaction(). Enqueuing the same alert id and channel twice is a no-op.
   * Also keeps the firing set (alerts that will resolve, re-sent to Alertmanager) in the same transaction.
   */
  enqueue(alert: Alert, channels: readonly string[], options?: EnqueueOptions): void;
  /** Alerts firing now that a resolve will end (firing-set.ts). */
  readonly firing: FiringSet;
  /** Escalations of routes waiting for their time (escalation-store.ts), kept in the same transactions. */
  readonly escalations: EscalationStore;
  /** Pending deliveries whose next attempt is due, oldest first; none of the `except` channels (busy lanes). */
  due(now: number, limit?: number, except?: ReadonlySet<string>): DeliveryRow[];
  markSent(alertIds: readonly string[], channel: string, now: number): void;
  markSilenced(alertIds: readonly string[], channel: string, now: number): void;
  reschedule(alertIds: readonly string[], channel: string, nextAt: number, error: string): void;
  /** Moves the next attempt without counting one (nothing was sent: the receiver is paused). */
  postpone(alertIds: readonly string[], channel: string, nextAt: number, reason: string): void;
  /** Moves every pending delivery of a paused channel due before `until` to `until`; returns how many. */
  postponeChannel(channel: string, until: number): number;
  deadLetter(alertIds: readonly string[], channel: string, now: number, reason: string): void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS outbox_alert (
  id TEXT PRIMARY KEY, alert_json TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS outbox_delivery (
  alert_id TEXT NOT NULL REFERENCES outbox_alert(id), channel TEXT NOT NULL, rule_id TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL, next_at INTEGER NOT NULL, last_error TEXT, done_at INTEGER,
  PRIMARY KEY (alert_id, channel));
CREATE INDEX IF NOT EXISTS outbox_delivery_due ON outbox_delivery (status, next_at);
`;

interface Row {
  alert_json: string;
  channel: string;
  attempts: number;
  created_at: number;
  next_at: number;
  last_error: string | null;
}

// The prepared statements are shared by the methods that move deliveries; the read-only reports are in
// outbox-reports.ts.
export function createOutbox(store: StateStore, clock: () => number): Outbox {
  const db = store.db;
  db.exec(SCHEMA);
  const escalations = createEscalationStore(store, clock);
  const firing = createFiringSet(store);
  const insertAlert = db.prepare(
    'INSERT OR IGNORE INTO outbox_alert (id, alert_json, created_at) VALUES (?, ?, ?)',
  );
  const insertDelivery = db.prepare(
    'INSERT OR IGNORE INTO outbox_delivery (alert_id, channel, rule_id, created_at, next_at) VALUES (?, ?, ?, ?, ?)',
  );
  const selectDue =
    db.prepare(`SELECT a.alert_json, d.channel, d.attempts, d.created_at, d.next_at, d.last_error
    FROM outbox_delivery d JOIN outbox_alert a ON a.id = d.alert_id
    WHERE d.status = 'pending' AND d.next_at <= ? AND d.channel NOT IN (SELECT value FROM json_each(?))
    ORDER BY d.created_at, d.rowid LIMIT ?`);
  const finish = db.prepare(
    'UPDATE outbox_delivery SET status = ?, done_at = ?, last_error = coalesce(?, last_error) WHERE alert_id = ? AND channel = ? AND status = ?',
  );
  const retry = db.prepare(
    "UPDATE outbox_delivery SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE alert_id = ? AND channel = ? AND status = 'pending'",
  );
  const postpone = db.prepare(
    "UPDATE outbox_delivery SET next_at = ?, last_error = ? WHERE alert_id = ? AND channel = ? AND status = 'pending'",
  );
  const postponeAll = db.prepare(
    "UPDATE outbox_delivery SET next_at = ? WHERE channel = ? AND status = 'pending' AND next_at < ?",
  );
  const update = (ids: readonly string[], fn: (id: string) => void) =>
    store.transaction(() => ids.forEach(fn));
  return {
    enqueue(alert, channels, options) {
      const now = clock();
      insertAlert.run(alert.id, JSON.stringify(alert), now);
      for (const channel of new Set(channels)) insertDelivery.run(alert.id, channel, alert.ruleId, now, now);
      if (!options?.copy) firing.record(alert);
    },
    firing,
    escalations,
    due: (now, limit = 500, except = new Set()) =>
      (selectDue.all(now, JSON.stringify([...except]), limit) as Row[]).map(toDeliveryRow),
    markSent: (ids, channel, now) =>
      update(ids, (id) => finish.run('sent', now, null, id, channel, 'pending')),
    markSilenced: (ids, channel, now) =>
      update(ids, (id) => finish.run('silenced', now, null, id, channel, 'pending')),
    reschedule: (ids, channel, nextAt, error) => update(ids, (id) => retry.run(nextAt, error, id, channel)),
    postpone: (ids, channel, nextAt, reason) =>
      update(ids, (id) => postpone.run(nextAt, reason, id, channel)),
    postponeChannel: (channel, until) => postponeAll.run(until, channel, until).changes,
    deadLetter: (ids, channel, now, reason) =>
      update(ids, (id) => {
        db.prepare(
          'UPDATE outbox_delivery SET attempts = attempts + 1 WHERE alert_id = ? AND channel = ?',
        ).run(id, channel);
        finish.run('dead', now, reason, id, channel, 'pending');
      }),
    ...outboxReports(db),
  };
}

function toDeliveryRow(row: Row): DeliveryRow {
  return {
    alert: JSON.parse(row.alert_json) as Alert,
    channel: row.channel,
    attempts: row.attempts,
    createdAt: row.created_at,
    nextAt: row.next_at,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
  };
}
