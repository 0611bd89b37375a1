// Records the tailers could not read, kept instead of skipped (table tail_quarantine). A cursor still moves
// past such a record (the rest of the stream must not wait for it), so this table is where it lives on: its
// raw text, where it was read and why it failed, until an operator has looked at it (docs/ledger-client.md).
// Keyed by (stream, consensus timestamp, or a hash of the raw text when there is no readable timestamp), so
// the overlap re-scans and restarts that read it again neither duplicate it nor report it again.
import { createHash } from 'node:crypto';
import type { StateStore } from '../../state/store.js';
import type { TailSourceName } from '../streams/record-handler.js';

export interface QuarantinedRecord {
  readonly stream: string;
  /** The consensus timestamp, or `sha256:<hex>` of the raw text. */
  readonly key: string;
  readonly source: TailSourceName;
  /** Watched account ids the record names (the stream's account, or those found in the raw text). */
  readonly accounts: readonly string[];
  readonly timestamp: string | null;
  readonly transactionId: string | null;
  /** JSON path of the first problem, e.g. `transactions[3].transfers[0].amount`. */
  readonly path: string;
  /** The record's top-level member that could not be read. */
  readonly field: string;
  readonly reason: string;
  /** The request the record came in (the stream's cursor position at the time), and its index in the page. */
  readonly pageUrl: string;
  readonly index: number;
  readonly raw: string;
  /** Milliseconds since the epoch. */
  readonly quarantinedAt: number;
}

export type NewQuarantinedRecord = Omit<QuarantinedRecord, 'key' | 'quarantinedAt'>;

/** Rows kept at most: a service sending nothing but broken records must not fill the disk. */
export const MAX_QUARANTINED = 10_000;

export interface Quarantine {
  /** 'added' the first time a record is kept; 'known' when it already is; 'full' at MAX_QUARANTINED. */
  add(record: NewQuarantinedRecord): 'added' | 'known' | 'full';
  /** Oldest first. */
  list(limit?: number): QuarantinedRecord[];
  count(): number;
  /** Releases one record (after review); false when there is no such record. */
  remove(stream: string, key: string): boolean;
}

interface Row {
  stream: string;
  key: string;
  source: string;
  accounts: string;
  ts: string | null;
  transaction_id: string | null;
  path: string;
  field: string;
  reason: string;
  page_url: string;
  idx: number;
  raw: string;
  quarantined_at: number;
}

export function quarantineKey(record: Pick<NewQuarantinedRecord, 'timestamp' | 'raw'>): string {
  return record.timestamp ?? `sha256:${createHash('sha256').update(record.raw).digest('hex')}`;
}

export function createQuarantine(store: StateStore, clock: () => number = Date.now): Quarantine {
  const { db } = store;
  db.exec(`CREATE TABLE IF NOT EXISTS tail_quarantine (
    stream TEXT NOT NULL, key TEXT NOT NULL, source TEXT NOT NULL, accounts TEXT NOT NULL,
    ts TEXT, transaction_id TEXT, path TEXT NOT NULL, field TEXT NOT NULL, reason TEXT NOT NULL,
    page_url TEXT NOT NULL, idx INTEGER NOT NULL, raw TEXT NOT NULL, quarantined_at INTEGER NOT NULL,
    PRIMARY KEY (stream, key)) WITHOUT ROWID`);
  const insert = db.prepare(`INSERT OR IGNORE INTO tail_quarantine
    (stream, key, source, accounts, ts, transaction_id, path, field, reason, page_url, idx, raw, quarantined_at)
    VALUES (@stream, @key, @source, @accounts, @ts, @transaction_id, @path, @field, @reason, @page_url, @idx,
      @raw, @quarantined_at)`);
  const exists = db.prepare('SELECT 1 FROM tail_quarantine WHERE stream = ? AND key = ?');
  const list = db.prepare<[number], Row>(
    'SELECT * FROM tail_quarantine ORDER BY quarantined_at, stream, key LIMIT ?',
  );
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM tail_quarantine');
  const remove = db.prepare('DELETE FROM tail_quarantine WHERE stream = ? AND key = ?');
  return {
    add(record) {
      const key = quarantineKey(record);
      if (exists.get(record.stream, key)) return 'known';
      if ((count.get()?.n ?? 0) >= MAX_QUARANTINED) return 'full';
      insert.run(toRow({ ...record, key, quarantinedAt: clock() }));
      return 'added';
    },
    list: (limit = MAX_QUARANTINED) => list.all(limit).map(fromRow),
    count: () => count.get()?.n ?? 0,
    remove: (stream, key) => remove.run(stream, key).changes > 0,
  };
}

function toRow(r: QuarantinedRecord): Row {
  return {
    stream: r.stream,
    key: r.key,
    source: r.source,
    accounts: r.accounts.join(','),
    ts: r.timestamp,
    transaction_id: r.transactionId,
    path: r.path,
    field: r.field,
    reason: r.reason,
    page_url: r.pageUrl,
    idx: r.index,
    raw: r.raw,
    quarantined_at: r.quarantinedAt,
  };
}

function fromRow(r: Row): QuarantinedRecord {
  return {
    stream: r.stream,
    key: r.key,
    source: r.source === 'rewards' ? 'rewards' : 'transactions',
    accounts: r.accounts === '' ? [] : r.accounts.split(','),
    timestamp: r.ts,
    transactionId: r.transaction_id,
    path: r.path,
    field: r.field,
    reason: r.reason,
    pageUrl: r.page_url,
    index: r.idx,
    raw: r.raw,
    quarantinedAt: r.quarantined_at,
  };
}
