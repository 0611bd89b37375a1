// Generic change capture on the working set: TEMP triggers on every table write the key of each changed row into
// a TEMP change log inside the same SQLite transaction (a rollback forgets it too), and take() turns the log into
// a Batch holding each key's row as it is now. New, altered and dropped tables are found by watching
// PRAGMA schema_version; a table seen for the first time is copied whole, so rows written before its triggers
// existed (a module's constructor seeding its table) are not missed.
import { type Batch, emptyBatch, isEmpty, keyId, type Value } from './batch.js';
import {
  CHANGES_TABLE,
  MAX_KEY_COLUMNS,
  quoteIdent,
  schemaObjects,
  tableDef,
  type TableDef,
} from './table-def.js';
import type { Db } from '../store.js';
import type { Statement } from 'better-sqlite3';

export interface Capture {
  /** Takes the changes logged so far (and schema changes) as a batch; call inside the writing transaction. */
  take(): Batch | undefined;
  /** Installs triggers on the tables present now without copying them (they were just loaded from PostgreSQL). */
  adopt(): void;
}

interface Known {
  readonly def: TableDef;
  readonly select: Statement;
}

const KEYS = Array.from({ length: MAX_KEY_COLUMNS }, (_, i) => `k${i + 1}`);

/** onWrite is called (synchronously, from SQL) for every captured row change. */
export function createCapture(db: Db, onWrite: () => void): Capture {
  db.pragma('recursive_triggers = ON'); // INSERT OR REPLACE then fires the delete of the row it replaces
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${CHANGES_TABLE} (
    seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, ${KEYS.join(', ')})`);
  db.function('sentinel_changed', { deterministic: false, varargs: false }, () => {
    onWrite();
    return null;
  });
  const changes = db.prepare(`SELECT tbl, ${KEYS.join(', ')} FROM temp.${CHANGES_TABLE} ORDER BY seq`);
  changes.raw(true).safeIntegers(true);
  const clear = db.prepare(`DELETE FROM temp.${CHANGES_TABLE}`);
  const schema: SchemaState = { db, tables: new Map(), indexes: new Map(), version: -1 };
  const tables = schema.tables;
  const sync = (batch: Batch | undefined) => syncSchema(schema, batch);

  return {
    adopt: () => sync(undefined),
    take() {
      const batch = emptyBatch();
      sync(batch);
      for (const [tbl, ...keys] of changes.all() as [string, ...Value[]][]) {
        const known = tables.get(tbl);
        if (!known) continue; // dropped since
        const key = keys.slice(0, known.def.pk.length);
        const id = keyId(key);
        let t = batch.tables.get(tbl);
        if (!t) batch.tables.set(tbl, (t = { def: known.def, rows: new Map() }));
        if (t.rows.has(id)) continue; // the row as it is now was read already
        const row = (known.select.get(...key) as Value[] | undefined) ?? null;
        t.rows.set(id, { key, row });
      }
      clear.run();
      return isEmpty(batch) ? undefined : batch;
    },
  };
}

/** What is known of the working set's schema: its tables (with the statement reading a row by key) and indexes. */
interface SchemaState {
  readonly db: Db;
  readonly tables: Map<string, Known>;
  readonly indexes: Map<string, string>;
  /** PRAGMA schema_version when last synced. */
  version: number;
}

/**
 * Follows schema changes (PRAGMA schema_version): new or changed tables get triggers and, in a batch, their
 * definition and every row; dropped tables and indexes are dropped in PostgreSQL too.
 */
function syncSchema(state: SchemaState, batch: Batch | undefined): void {
  const { db, tables, indexes } = state;
  const now = db.pragma('schema_version', { simple: true }) as number;
  if (now === state.version) return;
  const objects = schemaObjects(db);
  for (const o of objects) {
    if (o.type === 'index') {
      if (indexes.get(o.name) !== o.sql) batch?.schema.push({ kind: 'index', object: o });
      indexes.set(o.name, o.sql);
    } else if (tables.get(o.name)?.def.sql !== o.sql) {
      const def = tableDef(db, o.name, o.sql);
      tables.set(o.name, { def, select: install(db, def) });
      if (batch) {
        batch.schema.push({ kind: 'table', def });
        batch.tables.set(def.name, { def, rows: snapshot(db, def) });
      }
    }
  }
  const names = new Set(objects.map((o) => o.name));
  const gone = (n: string) => !names.has(n);
  for (const name of [...tables.keys()].filter(gone)) {
    tables.delete(name);
    batch?.tables.delete(name);
    batch?.schema.push({ kind: 'drop', name, table: true });
  }
  for (const name of [...indexes.keys()].filter(gone)) {
    indexes.delete(name);
    batch?.schema.push({ kind: 'drop', name, table: false });
  }
  state.version = now;
}

/** Creates the table's triggers (replacing older ones) and returns the statement reading a row by key. */
function install(db: Db, def: TableDef): Statement {
  const q = quoteIdent(def.name);
  const cols = KEYS.slice(0, def.pk.length).join(', ');
  const log = (side: 'NEW' | 'OLD') =>
    `INSERT INTO temp.${CHANGES_TABLE} (tbl, ${cols}) VALUES (${sqlString(def.name)}, ${def.pk
      .map((c) => `${side}.${quoteIdent(c)}`)
      .join(', ')});`;
  for (const [op, body] of [
    ['INSERT', log('NEW')],
    ['UPDATE', `${log('OLD')} ${log('NEW')}`],
    ['DELETE', log('OLD')],
  ] as const) {
    const name = quoteIdent(`_sentinel_${def.name}_${op.toLowerCase()}`);
    db.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
    db.exec(
      `CREATE TEMP TRIGGER ${name} AFTER ${op} ON main.${q} BEGIN ${body} SELECT sentinel_changed(); END`,
    );
  }
  const where = def.pk.map((c) => `${quoteIdent(c)} IS ?`).join(' AND ');
  const select = db.prepare(
    `SELECT ${def.columns.map((c) => quoteIdent(c.name)).join(', ')} FROM ${q} WHERE ${where}`,
  );
  return select.raw(true).safeIntegers(true);
}

/** Every row of a table, keyed: the first copy of a table, and the migration from a SQLite file. */
export function snapshot(db: Db, def: TableDef): Map<string, { key: Value[]; row: Value[] }> {
  const at = def.pk.map((k) => def.columns.findIndex((c) => c.name === k));
  const stmt = db.prepare(
    `SELECT ${def.columns.map((c) => quoteIdent(c.name)).join(', ')} FROM ${quoteIdent(def.name)}`,
  );
  const rows = new Map<string, { key: Value[]; row: Value[] }>();
  for (const row of stmt.raw(true).safeIntegers(true).iterate() as Iterable<Value[]>) {
    const key = at.map((i) => row[i] ?? null);
    rows.set(keyId(key), { key, row });
  }
  return rows;
}

function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
