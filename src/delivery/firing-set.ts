// The alerts firing now that will be resolved later (table outbox_firing), for receivers with an alert lifecycle:
// Alertmanager forgets a firing alert unless it is posted again before its endsAt, so the delivery worker re-sends
// these (resend.ts, docs/notifiers.md "Alertmanager"). Kept by the outbox in the same transaction that enqueues the
// transitions, so it survives a restart exactly as the alert state behind it does.
import type { Alert } from '../rules/alert/alert.js';
import type { StateStore } from '../state/store.js';

export interface FiringSet {
  /** Synchronous (inside the enqueue's transaction): a firing alert is kept (its latest text), a resolve drops it. */
  record(alert: Alert): void;
  /** The alert state behind these keys is gone without a resolve (rule removed, account no longer watched). */
  forget(keys: readonly string[]): void;
  /**
   * Firing alerts whose current episode reached `channel` (an outbox delivery to it was sent), ordered by key,
   * after `afterKey`, at most `limit`: the ones the receiver holds and must keep.
   */
  delivered(channel: string, afterKey: string, limit: number): Alert[];
  size(): number;
  /** The current episode's id of a firing key (`key|firing|startsAt`), if it fires. */
  episode(key: string): string | undefined;
  /** The first `limit` firing alerts by key (the status page). */
  list(limit: number): Alert[];
}

export function createFiringSet(store: StateStore): FiringSet {
  const { db } = store;
  db.exec(`CREATE TABLE IF NOT EXISTS outbox_firing (
    key TEXT PRIMARY KEY, alert_id TEXT NOT NULL, episode_id TEXT NOT NULL, alert_json TEXT NOT NULL)`);
  const upsert = db.prepare<[string, string, string, string]>(
    `INSERT INTO outbox_firing (key, alert_id, episode_id, alert_json) VALUES (?, ?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET alert_id = excluded.alert_id, episode_id = excluded.episode_id,
     alert_json = excluded.alert_json`,
  );
  const remove = db.prepare<[string]>('DELETE FROM outbox_firing WHERE key = ?');
  // The episode's first alert or its latest reminder was sent: the receiver has it (a reminder still pending in
  // the outbox is sent by the outbox itself).
  // An escalation of the episode (escalate.ts: its id extends the episode's id with the step) counts too, so an
  // Alertmanager reached only through `escalate` keeps the alert. escalation_step is created by the outbox first.
  const page = db.prepare<[string, string, string, number], { alert_json: string }>(
    `SELECT f.alert_json FROM outbox_firing f WHERE f.key > ? AND (EXISTS (
       SELECT 1 FROM outbox_delivery d WHERE d.channel = ? AND d.status = 'sent'
       AND d.alert_id IN (f.alert_id, f.episode_id)) OR EXISTS (
       SELECT 1 FROM escalation_step e JOIN outbox_delivery d
       ON d.alert_id = f.episode_id || '|escalation-' || e.step AND d.channel = ?
       WHERE e.key = f.key AND d.status = 'sent'))
     ORDER BY f.key LIMIT ?`,
  );
  const episodeOf = db.prepare<[string], { episode_id: string }>(
    'SELECT episode_id FROM outbox_firing WHERE key = ?',
  );
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM outbox_firing');
  const first = db.prepare<[number], { alert_json: string }>(
    'SELECT alert_json FROM outbox_firing ORDER BY key LIMIT ?',
  );
  return {
    record(alert) {
      if (!alert.resolves) return;
      if (alert.status === 'resolved') remove.run(alert.key);
      else upsert.run(alert.key, alert.id, episodeId(alert), JSON.stringify(alert));
    },
    forget(keys) {
      for (const key of keys) remove.run(key);
    },
    delivered: (channel, afterKey, limit) =>
      page.all(afterKey, channel, channel, limit).map((row) => JSON.parse(row.alert_json) as Alert),
    size: () => count.get()?.n ?? 0,
    episode: (key) => episodeOf.get(key)?.episode_id,
    list: (limit) => first.all(limit).map((row) => JSON.parse(row.alert_json) as Alert),
  };
}

/** The id of the episode's first firing alert (build-alert.ts, built-in-alerts.ts): reminders add `|repeat-N`. */
export function episodeId(alert: Alert): string {
  return `${alert.key}|firing|${alert.startsAt}`;
}
