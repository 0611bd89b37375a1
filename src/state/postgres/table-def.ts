// How a SQLite table of the working set looks in PostgreSQL: same name, same columns, same primary key, types
// mapped by SQLite's affinity rules. Every table a module owns has a primary key; a table without one (a rowid
// table) has no key that survives a reload, so it is refused with a message instead of being copied wrongly.
import type { Db } from '../store.js';

export type PgType = 'bigint' | 'text' | 'bytea' | 'double precision';

export interface ColumnDef {
  readonly name: string;
  readonly type: PgType;
}

export interface TableDef {
  readonly name: string;
  /** The CREATE TABLE statement as SQLite keeps it (re-run locally when a PostgreSQL store opens). */
  readonly sql: string;
  readonly columns: readonly ColumnDef[];
  /** Primary key column names in key order. */
  readonly pk: readonly string[];
}

export interface SchemaObject {
  readonly type: 'table' | 'index';
  readonly name: string;
  readonly sql: string;
}

/** The tables the backend keeps for itself in the working set, never replicated. */
export const CHANGES_TABLE = '_sentinel_changes';
/** At most this many primary key columns (the change log has one column per key part). */
export const MAX_KEY_COLUMNS = 4;

/** SQLite's affinity rules (datatype3.html §3.1), INTEGER → bigint so that int64 values stay exact. */
export function pgType(declared: string): PgType {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'bigint';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t.includes('BLOB')) return 'bytea';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'double precision';
  // NUMERIC affinity or no declared type: kept as text, the one form that loses nothing.
  return 'text';
}

/** Tables and indexes a module created, in creation order (tables before their indexes). */
export function schemaObjects(db: Db): SchemaObject[] {
  return db
    .prepare<[string], SchemaObject>(
      `SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL
       AND name NOT LIKE 'sqlite_%' AND name <> ? ORDER BY rowid`,
    )
    .all(CHANGES_TABLE);
}

interface ColumnInfo {
  name: string;
  type: string;
  pk: number;
}

export function tableDef(db: Db, name: string, sql: string): TableDef {
  const info = db.prepare<[], ColumnInfo>(`PRAGMA table_info(${quoteIdent(name)})`).all();
  const pk = info
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  if (pk.length === 0)
    throw new Error(
      `state table ${name} has no PRIMARY KEY, so its rows cannot be replicated to PostgreSQL by key; ` +
        'declare a primary key in the module that creates it (every state table has one, docs/architecture.md)',
    );
  if (pk.length > MAX_KEY_COLUMNS)
    throw new Error(
      `state table ${name} has a ${pk.length}-column primary key; the PostgreSQL backend replicates keys of at ` +
        `most ${MAX_KEY_COLUMNS} columns: use a narrower key`,
    );
  return { name, sql, pk, columns: info.map((c) => ({ name: c.name, type: pgType(c.type) })) };
}

/** A double-quoted identifier, valid in SQLite and PostgreSQL alike. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
