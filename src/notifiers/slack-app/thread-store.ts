// Where each alert's Slack message is (channel id and `ts`), so its resolve can be threaded under it and the
// message updated in place. Table `slack_app_thread`, owned here, in the state store: it survives a restart, and
// on PostgreSQL it is replicated like every state table, so a new leader threads under the ts the old one posted.
// One row per notifier and alert key (the latest episode); rows untouched for 30 days are pruned as new ones come.
import Database from 'better-sqlite3';
import type { StateStore } from '../../state/store.js';

export interface SlackThread {
  readonly key: string;
  /** The episode (the alert's startsAt): a resolve threads only under the message of its own episode. */
  readonly startsAt: string;
  /** The firing alert whose message this is: a repeat of that very alert (a resend after a crash) is not posted again. */
  readonly alertId: string;
  /** The channel id Slack answered with (chat.update needs the id, not a #name). */
  readonly channel: string;
  readonly ts: string;
  /** The resolve already threaded under the message. */
  readonly resolvedId: string | undefined;
  /** The message was updated to show it resolved. */
  readonly updated: boolean;
}

export interface SlackThreadStore {
  get(key: string): SlackThread | undefined;
  /**
   * The message `ts` in `channel` announced these alerts. Resolves once the record is durable (PostgreSQL: in the
   * database), so a replica that takes over after this process dies finds it and does not post again.
   */
  posted(
    alerts: readonly { key: string; startsAt: string; id: string }[],
    channel: string,
    ts: string,
  ): Promise<void>;
  /** These resolves were threaded under their messages (durable when it resolves). */
  replied(resolves: readonly { key: string; id: string }[]): Promise<void>;
  /** How many alerts under this message have not been resolved yet. */
  openUnder(channel: string, ts: string): number;
  /** The message was updated to show it resolved (durable when it resolves). */
  updated(channel: string, ts: string): Promise<void>;
}

/** Rows untouched this long are pruned: a resolve after that is posted on its own, not threaded. */
export const THREAD_RETENTION_MS = 30 * 86_400_000;

interface Row {
  alert_key: string;
  starts_at: string;
  alert_id: string;
  channel: string;
  ts: string;
  resolved_id: string | null;
  updated: number;
}

type Host = Pick<StateStore, 'db' | 'transaction' | 'durable'>;

/** Without a state store (`check`, a notifier built alone) the threads live in memory for the process's life. */
export function createSlackThreadStore(
  notifier: string,
  clock: () => number,
  store?: Host,
): SlackThreadStore {
  const host = store ?? memoryHost();
  const { db } = host;
  db.exec(`CREATE TABLE IF NOT EXISTS slack_app_thread (
    notifier TEXT NOT NULL, alert_key TEXT NOT NULL, starts_at TEXT NOT NULL, alert_id TEXT NOT NULL,
    channel TEXT NOT NULL, ts TEXT NOT NULL, resolved_id TEXT, updated INTEGER NOT NULL, at INTEGER NOT NULL,
    PRIMARY KEY (notifier, alert_key))`);
  const upsert = db.prepare(`INSERT INTO slack_app_thread
    (notifier, alert_key, starts_at, alert_id, channel, ts, resolved_id, updated, at)
    VALUES (?, ?, ?, ?, ?, ?, NULL, 0, ?) ON CONFLICT (notifier, alert_key) DO UPDATE SET
    starts_at = excluded.starts_at, alert_id = excluded.alert_id, channel = excluded.channel, ts = excluded.ts,
    resolved_id = NULL, updated = 0, at = excluded.at`);
  const byKey = db.prepare('SELECT * FROM slack_app_thread WHERE notifier = ? AND alert_key = ?');
  const resolve = db.prepare(
    'UPDATE slack_app_thread SET resolved_id = ?, at = ? WHERE notifier = ? AND alert_key = ?',
  );
  const open = db.prepare(`SELECT count(*) AS n FROM slack_app_thread
    WHERE notifier = ? AND channel = ? AND ts = ? AND resolved_id IS NULL`);
  const markUpdated = db.prepare(
    'UPDATE slack_app_thread SET updated = 1, at = ? WHERE notifier = ? AND channel = ? AND ts = ?',
  );
  const prune = db.prepare('DELETE FROM slack_app_thread WHERE at < ?');
  return {
    get: (key) => fromRow(byKey.get(notifier, key) as Row | undefined),
    async posted(alerts, channel, ts) {
      const at = clock();
      host.transaction(() => {
        prune.run(at - THREAD_RETENTION_MS);
        for (const a of alerts) upsert.run(notifier, a.key, a.startsAt, a.id, channel, ts, at);
      });
      await host.durable();
    },
    async replied(resolves) {
      const at = clock();
      host.transaction(() => {
        for (const r of resolves) resolve.run(r.id, at, notifier, r.key);
      });
      await host.durable();
    },
    openUnder: (channel, ts) => (open.get(notifier, channel, ts) as { n: number }).n,
    async updated(channel, ts) {
      host.transaction(() => markUpdated.run(clock(), notifier, channel, ts));
      await host.durable();
    },
  };
}

function memoryHost(): Host {
  const db = new Database(':memory:');
  return { db, transaction: (fn) => db.transaction(fn)(), durable: () => Promise.resolve() };
}

function fromRow(row: Row | undefined): SlackThread | undefined {
  if (!row) return undefined;
  return {
    key: row.alert_key,
    startsAt: row.starts_at,
    alertId: row.alert_id,
    channel: row.channel,
    ts: row.ts,
    resolvedId: row.resolved_id ?? undefined,
    updated: row.updated === 1,
  };
}
