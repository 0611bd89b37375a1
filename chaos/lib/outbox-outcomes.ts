// What became of each marker, by identity, from a stopped daemon's SQLite state (its file is locked while it
// runs): the outbox's alerts (outbox_alert, whose records carry the memo) joined with their deliveries
// (outbox_delivery: status, attempts, when enqueued and when done). A marker whose alert was dead-lettered is
// never in a Slack body, so counting by text cannot tell it from a lost one; this can.
import { join } from 'node:path';
import Database from 'better-sqlite3';

export interface MarkerDelivery {
  readonly alertId: string;
  /** The watched account the alert is about (the rule groups by account). */
  readonly account: string;
  /** pending, sent, dead or silenced. */
  readonly status: string;
  readonly attempts: number;
  /** Enqueue time, ms (the daemon's clock). */
  readonly createdAt: number;
  /** When it was sent or dead-lettered, ms; undefined while pending. */
  readonly doneAt: number | undefined;
  readonly lastError: string | undefined;
}

/**
 * Marker (`chaos-<n>`, the memo of the record that triggered the alert) → the deliveries of its alerts on
 * `channel` (one, normally), and the alerts that carry another marker's record as well.
 */
export function markerDeliveries(
  stateDir: string,
  options: { rule: string; channel: string },
): { byMarker: Map<string, MarkerDelivery[]>; named: string[] } {
  const db = new Database(join(stateDir, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT a.id, a.alert_json, d.status, d.attempts, d.created_at, d.done_at, d.last_error
           FROM outbox_alert a JOIN outbox_delivery d ON d.alert_id = a.id
          WHERE d.rule_id = ? AND d.channel = ?`,
      )
      .all(options.rule, options.channel) as {
      id: string;
      alert_json: string;
      status: string;
      attempts: number;
      created_at: number;
      done_at: number | null;
      last_error: string | null;
    }[];
    const byMarker = new Map<string, MarkerDelivery[]>();
    /** Alerts whose records hold another marker's record besides their trigger (for the log). */
    const named: string[] = [];
    for (const row of rows) {
      const alert = JSON.parse(row.alert_json) as {
        account?: { id?: string };
        trigger?: { memo?: string };
        records?: { memo?: string }[];
      };
      const delivery: MarkerDelivery = {
        alertId: row.id,
        account: alert.account?.id ?? '',
        status: row.status,
        attempts: row.attempts,
        createdAt: row.created_at,
        doneAt: row.done_at ?? undefined,
        lastError: row.last_error ?? undefined,
      };
      // The alert of a marker is the one its record triggered; a window's other records are context.
      const memo = (alert.trigger ?? alert.records?.[0])?.memo ?? '';
      if (/^chaos-\d+$/.test(memo)) byMarker.set(memo, [...(byMarker.get(memo) ?? []), delivery]);
      const others = (alert.records ?? []).map((r) => r.memo ?? '').filter((m) => m !== memo);
      if (others.some((m) => /^chaos-\d+$/.test(m)))
        named.push(`${row.id} (${memo}) also carries ${others.join(' ')}`);
    }
    return { byMarker, named };
  } finally {
    db.close();
  }
}

/** Alert ids of a daemon's log lines with this message (`notification sent`, `notification dead-lettered`). */
export function loggedAlertIds(stdout: string, msg: string): { ids: string[]; times: Map<string, number> } {
  const ids: string[] = [];
  const times = new Map<string, number>();
  for (const line of stdout.split('\n')) {
    if (!line.includes(`"msg":"${msg}"`)) continue;
    const entry = JSON.parse(line) as { alertIds?: string[]; time?: number | string };
    for (const id of entry.alertIds ?? []) {
      ids.push(id);
      const at = typeof entry.time === 'number' ? entry.time : Date.parse(String(entry.time));
      if (Number.isFinite(at)) times.set(id, at);
    }
  }
  return { ids, times };
}
