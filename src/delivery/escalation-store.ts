// Escalations waiting for their time (table escalation_step): one row per alert key and escalation step of a
// matching route (`routes[].escalate`), written in the same transaction that enqueues the firing alert, so the
// schedule survives restarts and failovers exactly as the alert does. escalate.ts runs the due ones; a resolve
// ends them and is also sent to the receivers an escalation reached (docs/notifiers.md, "Escalation").
import type { Alert } from '../rules/alert/alert.js';
import type { Escalation, Route } from '../notifiers/schema.js';
import type { StateStore } from '../state/store.js';
import { routeMatches } from './route.js';

export interface EscalationStep {
  readonly key: string;
  /** Names the step: its delay and receivers (stable across reloads that keep the step). */
  readonly step: string;
  readonly afterMs: number;
  readonly channels: readonly string[];
  /** The firing alert as enqueued (the episode's first notification). */
  readonly alert: Alert;
  readonly dueAt: number;
}

export interface EscalationStore {
  /**
   * Synchronous, inside the enqueue's transaction. A firing alert schedules every step of its matching routes
   * (a reminder of the same episode keeps the schedule; a new episode starts a new one); a resolve ends them and
   * returns the receivers escalations reached, which must hear the resolve too.
   */
  onEmit(alert: Alert, routes: readonly Route[]): string[];
  /** Steps due at `now` that were not sent yet, oldest first, at most `limit`. */
  due(now: number, limit: number): EscalationStep[];
  /** The step was enqueued: kept (to route the resolve) for alerts that resolve, dropped for events. */
  sent(step: EscalationStep, now: number): void;
  /** The step ends unsent (acked, or its episode is gone). */
  drop(step: EscalationStep): void;
  /** Earliest due time of an unsent step, if any. */
  nextDueAt(): number | undefined;
  /** Pending (unsent) steps. */
  pending(): number;
}

/** Sent steps of alerts whose resolve never came (state dropped) are kept this long. */
const SENT_RETENTION_MS = 30 * 86_400_000;

export function stepId(escalation: Escalation): string {
  return `${escalation.after}ms:${[...new Set(escalation.notify)].sort().join(',')}`;
}

export function createEscalationStore(store: StateStore, clock: () => number): EscalationStore {
  const { db } = store;
  db.exec(`CREATE TABLE IF NOT EXISTS escalation_step (
    key TEXT NOT NULL, step TEXT NOT NULL, starts_at TEXT NOT NULL, after_ms INTEGER NOT NULL,
    channels TEXT NOT NULL, alert_json TEXT NOT NULL, due_at INTEGER NOT NULL, sent_at INTEGER,
    PRIMARY KEY (key, step));
  CREATE INDEX IF NOT EXISTS escalation_step_due ON escalation_step (sent_at, due_at);`);
  const columns = 'key, step, starts_at, after_ms, channels, alert_json, due_at';
  // A new episode of an alert that resolves replaces the old schedule; an event (no resolve) keeps the earliest
  // unacknowledged match's schedule, and a reminder of the same episode changes nothing.
  const replace = db.prepare(`INSERT INTO escalation_step (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(key, step) DO UPDATE SET starts_at = excluded.starts_at, after_ms = excluded.after_ms,
    channels = excluded.channels, alert_json = excluded.alert_json, due_at = excluded.due_at, sent_at = NULL
    WHERE escalation_step.starts_at <> excluded.starts_at`);
  const keep = db.prepare(`INSERT OR IGNORE INTO escalation_step (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const reached = db.prepare('SELECT channels FROM escalation_step WHERE key = ? AND sent_at IS NOT NULL');
  const end = db.prepare('DELETE FROM escalation_step WHERE key = ?');
  const dueRows = db.prepare(`SELECT key, step, after_ms, channels, alert_json, due_at FROM escalation_step
    WHERE sent_at IS NULL AND due_at <= ? ORDER BY due_at, key, step LIMIT ?`);
  const markSent = db.prepare('UPDATE escalation_step SET sent_at = ? WHERE key = ? AND step = ?');
  const remove = db.prepare('DELETE FROM escalation_step WHERE key = ? AND step = ?');
  const prune = db.prepare('DELETE FROM escalation_step WHERE sent_at IS NOT NULL AND sent_at < ?');
  const next = db.prepare('SELECT min(due_at) AS at FROM escalation_step WHERE sent_at IS NULL');
  const count = db.prepare('SELECT count(*) AS n FROM escalation_step WHERE sent_at IS NULL');
  return {
    onEmit(alert, routes) {
      if (alert.status === 'resolved') {
        const rows = reached.all(alert.key) as { channels: string }[];
        end.run(alert.key);
        return [...new Set(rows.flatMap((r) => JSON.parse(r.channels) as string[]))];
      }
      const insert = alert.resolves ? replace : keep;
      for (const route of routes) {
        if (!route.escalate || !routeMatches(route, alert)) continue;
        for (const step of route.escalate) {
          const channels = JSON.stringify([...new Set(step.notify)]);
          const json = JSON.stringify(alert);
          insert.run(
            alert.key,
            stepId(step),
            alert.startsAt,
            step.after,
            channels,
            json,
            clock() + step.after,
          );
        }
      }
      return [];
    },
    due: (now, limit) => (dueRows.all(now, limit) as Row[]).map(fromRow),
    sent(step, now) {
      if (step.alert.resolves) markSent.run(now, step.key, step.step);
      else remove.run(step.key, step.step);
      prune.run(now - SENT_RETENTION_MS);
    },
    drop: (step) => void remove.run(step.key, step.step),
    nextDueAt: () => (next.get() as { at: number | null }).at ?? undefined,
    pending: () => (count.get() as { n: number }).n,
  };
}

interface Row {
  key: string;
  step: string;
  after_ms: number;
  channels: string;
  alert_json: string;
  due_at: number;
}

function fromRow(row: Row): EscalationStep {
  return {
    key: row.key,
    step: row.step,
    afterMs: row.after_ms,
    channels: JSON.parse(row.channels) as string[],
    alert: JSON.parse(row.alert_json) as Alert,
    dueAt: row.due_at,
  };
}
