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

export async function loadWorkingSet(client: ClientBase, db: Db): Promise<LoadedCounts> {
  const counts: Record<string, number> = {};
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
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
    return counts;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
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
