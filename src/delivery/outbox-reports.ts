// What the outbox reports without changing anything: the next due time, dead letters, a delivery's status, the
// depth per channel, the latest alerts and each channel's latest error (worker timer, API, status page, gauge).
import type { Alert } from '../rules/alert/alert.js';
import type { Db } from '../state/store.js';

export type DeliveryStatus = 'pending' | 'sent' | 'dead' | 'silenced';

export interface DeadLetter {
  readonly alertId: string;
  readonly channel: string;
  readonly ruleId: string;
  readonly attempts: number;
  readonly reason: string;
  readonly at: number;
}

export interface ChannelError {
  readonly message: string;
  /** When it was dead-lettered, or when it is retried next (ms since epoch). */
  readonly at: number;
  readonly state: 'retrying' | 'dead-lettered';
}

export interface OutboxReports {
  /** Earliest next attempt among pending deliveries (only those after `after`, when given), if any. */
  nextDueAt(after?: number): number | undefined;
  deadLetters(limit?: number): DeadLetter[];
  status(alertId: string, channel: string): DeliveryStatus | undefined;
  /** Pending deliveries per channel, whatever their next attempt (for the outbox_depth gauge). */
  depth(): Map<string, number>;
  /** The latest `limit` alerts enqueued, newest first (the status page). */
  recent(limit: number): Alert[];
  /** Per channel, the error of its latest failed delivery still retrying or dead-lettered (the status page). */
  lastErrors(): Map<string, ChannelError>;
}

export function outboxReports(db: Db): OutboxReports {
  return {
    nextDueAt(after = -Infinity) {
      const row = db
        .prepare("SELECT min(next_at) AS at FROM outbox_delivery WHERE status = 'pending' AND next_at > ?")
        .get(Number.isFinite(after) ? after : Number.MIN_SAFE_INTEGER) as { at: number | null };
      return row.at ?? undefined;
    },
    deadLetters(limit = 100) {
      const rows = db
        .prepare(
          `SELECT alert_id AS alertId, channel, rule_id AS ruleId, attempts, last_error AS reason, done_at AS at
          FROM outbox_delivery WHERE status = 'dead' ORDER BY done_at DESC LIMIT ?`,
        )
        .all(limit);
      return rows as DeadLetter[];
    },
    status(alertId, channel) {
      const row = db
        .prepare('SELECT status FROM outbox_delivery WHERE alert_id = ? AND channel = ?')
        .get(alertId, channel) as { status: DeliveryStatus } | undefined;
      return row?.status;
    },
    depth() {
      const rows = db
        .prepare(
          "SELECT channel, count(*) AS n FROM outbox_delivery WHERE status = 'pending' GROUP BY channel",
        )
        .all() as { channel: string; n: number }[];
      return new Map(rows.map((r) => [r.channel, r.n]));
    },
    recent: (limit) =>
      (
        db.prepare('SELECT alert_json FROM outbox_alert ORDER BY rowid DESC LIMIT ?').all(limit) as {
          alert_json: string;
        }[]
      ).map((row) => JSON.parse(row.alert_json) as Alert),
    lastErrors() {
      // Attempts > 0: a pending row postponed by a pause or pacing carries a reason but has not failed.
      const rows = db
        .prepare(
          `SELECT channel, last_error AS message, max(coalesce(done_at, next_at)) AS at, status
          FROM outbox_delivery WHERE last_error IS NOT NULL
          AND (status = 'dead' OR (status = 'pending' AND attempts > 0)) GROUP BY channel`,
        )
        .all() as { channel: string; message: string; at: number; status: string }[];
      return new Map(
        rows.map((r) => [
          r.channel,
          { message: r.message, at: r.at, state: r.status === 'dead' ? 'dead-lettered' : 'retrying' },
        ]),
      );
    },
  };
}
