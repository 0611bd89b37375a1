// Acknowledgements made at runtime (the API, `ledger-sentinel ack`), durable in the state store (table api_ack),
// one per alert key. An ack holds back the repeats of the episode it was given for (reminders of a windowed
// alert, later matches of a per-record rule) until that episode resolves or the ack expires; the resolve is still
// sent, and names the ack (docs/api.md, "Acknowledgements").
import type { Alert } from '../rules/alert/alert.js';
import type { StateStore } from '../state/store.js';

export interface AckInput {
  readonly key: string;
  /** The acked episode's startsAt (ISO): a new episode of the same key is not covered. */
  readonly startsAt: string;
  /** The alert resolves on its own (windowed, self-monitoring); otherwise only expiry ends the ack. */
  readonly resolves: boolean;
  readonly by: string;
  readonly comment: string;
  /** ms since epoch; none: until the episode resolves. */
  readonly expiresAt?: number;
}

export interface StoredAck extends AckInput {
  readonly at: number;
}

export interface AckStore {
  /** Replaces an earlier ack of the same key. */
  ack(input: AckInput): StoredAck;
  get(key: string): StoredAck | undefined;
  /** Newest first. */
  list(limit?: number): StoredAck[];
  /** The ack covering this alert at `now`, if any. */
  covering(alert: Alert, now: number): StoredAck | undefined;
}

interface Row {
  key: string;
  starts_at: string;
  resolves: number;
  by: string;
  comment: string;
  expires_at: number | null;
  at: number;
}

export function createAckStore(store: StateStore, clock: () => number): AckStore {
  const { db } = store;
  db.exec(`CREATE TABLE IF NOT EXISTS api_ack (
    key TEXT PRIMARY KEY, starts_at TEXT NOT NULL, resolves INTEGER NOT NULL, by TEXT NOT NULL,
    comment TEXT NOT NULL, expires_at INTEGER, at INTEGER NOT NULL)`);
  const upsert = db.prepare(`INSERT INTO api_ack (key, starts_at, resolves, by, comment, expires_at, at)
    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET starts_at = excluded.starts_at,
    resolves = excluded.resolves, by = excluded.by, comment = excluded.comment, expires_at = excluded.expires_at,
    at = excluded.at`);
  const byKey = db.prepare('SELECT * FROM api_ack WHERE key = ?');
  const newest = db.prepare('SELECT * FROM api_ack ORDER BY at DESC LIMIT ?');
  // Acks whose time is over are dropped when a new one is given: the table stays as small as the live ones.
  const prune = db.prepare('DELETE FROM api_ack WHERE expires_at IS NOT NULL AND expires_at <= ?');
  return {
    ack(input) {
      const at = clock();
      store.transaction(() => {
        prune.run(at);
        upsert.run(
          input.key,
          input.startsAt,
          input.resolves ? 1 : 0,
          input.by,
          input.comment,
          input.expiresAt ?? null,
          at,
        );
      });
      return { ...input, at };
    },
    get: (key) => fromRow(byKey.get(key) as Row | undefined),
    list: (limit = 1000) => (newest.all(limit) as Row[]).map((r) => fromRow(r) as StoredAck),
    covering(alert, now) {
      const ack = fromRow(byKey.get(alert.key) as Row | undefined);
      return ack && covers(ack, alert, now) ? ack : undefined;
    },
  };
}

/** Same key, not expired, and — for an alert that resolves — the same episode. */
export function covers(ack: StoredAck, alert: Pick<Alert, 'key' | 'startsAt'>, now: number): boolean {
  if (ack.key !== alert.key) return false;
  if (ack.expiresAt !== undefined && ack.expiresAt <= now) return false;
  return !ack.resolves || ack.startsAt === alert.startsAt;
}

function fromRow(row: Row | undefined): StoredAck | undefined {
  if (!row) return undefined;
  return {
    key: row.key,
    startsAt: row.starts_at,
    resolves: row.resolves === 1,
    by: row.by,
    comment: row.comment,
    ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
    at: row.at,
  };
}
