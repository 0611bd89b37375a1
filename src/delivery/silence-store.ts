// Silences made at runtime (the API, `ledger-sentinel silence add`), durable in the state store (table
// api_silence): Alertmanager's model — matchers, startsAt/endsAt, createdBy, comment. Expiring one sets its endsAt
// to now; expired ones are kept for a week so `silence ls --expired` can show what was silenced, then dropped.
import { randomUUID } from 'node:crypto';
import type { StateStore } from '../state/store.js';
import type { Matcher } from './matchers.js';

export type SilenceState = 'pending' | 'active' | 'expired';

export interface SilenceInput {
  readonly matchers: readonly Matcher[];
  /** ms since epoch */
  readonly startsAt: number;
  readonly endsAt: number;
  readonly createdBy: string;
  readonly comment: string;
}

export interface StoredSilence extends SilenceInput {
  readonly id: string;
  readonly updatedAt: number;
}

export interface SilenceStore {
  add(input: SilenceInput): StoredSilence;
  get(id: string): StoredSilence | undefined;
  /** Newest first, at most `limit`. */
  list(limit?: number): StoredSilence[];
  /** Those in force at `now` (startsAt ≤ now < endsAt). */
  active(now: number): StoredSilence[];
  /** false when there is no such silence; expiring an expired one changes nothing. */
  expire(id: string): boolean;
  counts(now: number): Record<SilenceState, number>;
}

/** More silences in force or pending than this is a mistake (or an attack): the API refuses new ones. */
export const MAX_LIVE_SILENCES = 1000;
const KEEP_EXPIRED_MS = 7 * 24 * 3600 * 1000;

interface Row {
  id: string;
  matchers_json: string;
  starts_at: number;
  ends_at: number;
  created_by: string;
  comment: string;
  updated_at: number;
}

export function silenceState(s: Pick<SilenceInput, 'startsAt' | 'endsAt'>, now: number): SilenceState {
  if (s.endsAt <= now) return 'expired';
  return s.startsAt > now ? 'pending' : 'active';
}

export function createSilenceStore(store: StateStore, clock: () => number): SilenceStore {
  const { db } = store;
  db.exec(`CREATE TABLE IF NOT EXISTS api_silence (
    id TEXT PRIMARY KEY, matchers_json TEXT NOT NULL, starts_at INTEGER NOT NULL, ends_at INTEGER NOT NULL,
    created_by TEXT NOT NULL, comment TEXT NOT NULL, updated_at INTEGER NOT NULL)`);
  const insert = db.prepare(
    'INSERT INTO api_silence (id, matchers_json, starts_at, ends_at, created_by, comment, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const byId = db.prepare('SELECT * FROM api_silence WHERE id = ?');
  const newest = db.prepare('SELECT * FROM api_silence ORDER BY updated_at DESC, id LIMIT ?');
  const live = db.prepare('SELECT * FROM api_silence WHERE starts_at <= ? AND ends_at > ? LIMIT ?');
  const end = db.prepare('UPDATE api_silence SET ends_at = ?, updated_at = ? WHERE id = ? AND ends_at > ?');
  const prune = db.prepare('DELETE FROM api_silence WHERE ends_at < ?');
  const count = db.prepare(`SELECT
    sum(ends_at <= @now) AS expired, sum(ends_at > @now AND starts_at > @now) AS pending,
    sum(ends_at > @now AND starts_at <= @now) AS active FROM api_silence`);
  return {
    add(input) {
      const now = clock();
      const silence: StoredSilence = { ...input, id: randomUUID(), updatedAt: now };
      store.transaction(() => {
        prune.run(now - KEEP_EXPIRED_MS);
        insert.run(
          silence.id,
          JSON.stringify(input.matchers),
          input.startsAt,
          input.endsAt,
          input.createdBy,
          input.comment,
          now,
        );
      });
      return silence;
    },
    get: (id) => fromRow(byId.get(id) as Row | undefined),
    list: (limit = 1000) => (newest.all(limit) as Row[]).map((r) => fromRow(r) as StoredSilence),
    active: (now) => (live.all(now, now, MAX_LIVE_SILENCES) as Row[]).map((r) => fromRow(r) as StoredSilence),
    expire(id) {
      const now = clock();
      if (!byId.get(id)) return false;
      end.run(now, now, id, now);
      return true;
    },
    counts(now) {
      const row = count.get({ now }) as Record<SilenceState, number | null>;
      return { active: row.active ?? 0, pending: row.pending ?? 0, expired: row.expired ?? 0 };
    },
  };
}

function fromRow(row: Row | undefined): StoredSilence | undefined {
  if (!row) return undefined;
  return {
    id: row.id,
    matchers: JSON.parse(row.matchers_json) as Matcher[],
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    createdBy: row.created_by,
    comment: row.comment,
    updatedAt: row.updated_at,
  };
}
