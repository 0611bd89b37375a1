// Opening a PostgreSQL store: the recorded SQLite DDL is re-run locally and every table's rows are copied into
// the in-memory working set, from one consistent snapshot (REPEATABLE READ), before any module constructor runs —
// so modules find their tables and rows exactly as the last leader left them.
import type { ClientBase } from 'pg';
import type { Db } from '../store.js';
import { fromPg } from './pg-values.js';
import { quoteIdent, tableDef, type TableDef } from './table-def.js';

/** Rows fetched per query: bounds the memory one page takes, whatever the table's size. */
const PAGE = 5_000;

export interface LoadedCounts {
  readonly [table: string]: number;
}

/** A row whose parent is missing (outbox_delivery without its outbox_alert). */
export interface OrphanRow {
  readonly table: string;
  readonly rowid: number;
  readonly parent: string;
  readonly row: Record<string, unknown>;
}

/**
 * `onOrphans`: rows whose foreign key points at nothing are loaded and reported (deleteOrphans removes them),
 * instead of failing the load. PostgreSQL holds such a state when it lost transactions its writer had
 * acknowledged (a failover to a standby behind, a restore) and a writer went on: refusing it would keep every
 * replica from ever starting again.
 */
export async function loadWorkingSet(
  client: ClientBase,
  db: Db,
  onOrphans: (rows: readonly OrphanRow[]) => void = () => undefined,
): Promise<LoadedCounts> {
  const counts: Record<string, number> = {};
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  db.pragma('foreign_keys = OFF');
  try {
    const { rows } = await client.query<{ name: string; type: string; sql: string }>(
      "SELECT name, type, sql FROM sentinel_schema ORDER BY type = 'index', updated_at, name",
    );
    for (const o of rows.filter((r) => r.type === 'table')) {
      db.exec(o.sql);
      counts[o.name] = await loadTable(client, db, tableDef(db, o.name, o.sql));
    }
    for (const o of rows.filter((r) => r.type === 'index')) db.exec(o.sql);
    await client.query('COMMIT');
    const orphans = findOrphans(db);
    if (orphans.length > 0) onOrphans(orphans);
    return counts;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/** Every row whose foreign key finds no parent. */
function findOrphans(db: Db): OrphanRow[] {
  const found = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
  return found.map(({ table, rowid, parent }) => {
    const row = db.prepare(`SELECT * FROM ${quoteIdent(table)} WHERE rowid = ?`).get(rowid);
    return { table, rowid, parent, row: row as Record<string, unknown> };
  });
}

/** Deletes the orphans found at load (call it inside store.transaction() to remove them from PostgreSQL too). */
export function deleteOrphans(db: Db, rows: readonly OrphanRow[]): void {
  for (const { table, rowid } of rows)
    db.prepare(`DELETE FROM ${quoteIdent(table)} WHERE rowid = ?`).run(rowid);
}

/** Keyset pagination by primary key, bigint columns as text so that int64 values arrive exact. */
async function loadTable(client: ClientBase, db: Db, def: TableDef): Promise<number> {
  const select = def.columns
    .map((c) =>
      c.type === 'bigint' ? `${quoteIdent(c.name)}::text AS ${quoteIdent(c.name)}` : quoteIdent(c.name),
    )
    .join(', ');
  const pk = def.pk.map(quoteIdent).join(', ');
  const keyTypes = def.pk.map((k) => def.columns.find((c) => c.name === k)!.type);
  const insert = db.prepare(
    `INSERT INTO ${quoteIdent(def.name)} (${def.columns.map((c) => quoteIdent(c.name)).join(', ')})
     VALUES (${def.columns.map(() => '?').join(', ')})`,
  );
  let after: unknown[] | undefined;
  let total = 0;
  for (;;) {
    const where = after ? `WHERE (${pk}) > (${keyTypes.map((t, i) => `$${i + 1}::${t}`).join(', ')})` : '';
    const { rows } = await client.query<Record<string, unknown>>({
      text: `SELECT ${select} FROM ${quoteIdent(def.name)} ${where} ORDER BY ${pk} LIMIT ${PAGE}`,
      values: after ?? [],
    });
    db.transaction(() => {
      for (const row of rows) insert.run(def.columns.map((c) => fromPg(row[c.name], c.type)));
    })();
    total += rows.length;
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return total;
    after = def.pk.map((k) => last[k]);
  }
}
