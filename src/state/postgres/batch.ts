// One replication step: the row changes of one or more local transactions, reduced to the final state of each
// key (upsert the row, or delete it), plus the schema changes seen before them. Applying a batch twice gives the
// same result, which is what makes a retry after a lost connection safe.
import type { SchemaObject, TableDef } from './table-def.js';

/** A SQLite value as read with safe integers: int64 as bigint, REAL as number. */
export type Value = bigint | number | string | Buffer | null;

export interface RowChange {
  readonly key: readonly Value[];
  /** Every column in TableDef.columns order; null when the row was deleted. */
  readonly row: readonly Value[] | null;
}

export type SchemaChange =
  | { readonly kind: 'table'; readonly def: TableDef }
  | { readonly kind: 'index'; readonly object: SchemaObject }
  | { readonly kind: 'drop'; readonly name: string; readonly table: boolean };

export interface TableChanges {
  readonly def: TableDef;
  readonly rows: Map<string, RowChange>;
}

export interface Batch {
  /** The local commit number of the last transaction it holds. */
  seq: number;
  readonly schema: SchemaChange[];
  readonly tables: Map<string, TableChanges>;
}

export function emptyBatch(): Batch {
  return { seq: 0, schema: [], tables: new Map() };
}

export function batchRows(batch: Batch): number {
  let n = 0;
  for (const t of batch.tables.values()) n += t.rows.size;
  return n;
}

export function isEmpty(batch: Batch): boolean {
  return batch.schema.length === 0 && batchRows(batch) === 0;
}

/** A string that identifies a key: equal keys, equal strings (types kept apart). */
export function keyId(key: readonly Value[]): string {
  return key.map(valueId).join('\u0000');
}

function valueId(v: Value): string {
  if (v === null) return 'z';
  if (typeof v === 'bigint') return `i${v}`;
  if (typeof v === 'number') return `n${v}`;
  if (typeof v === 'string') return `s${v}`;
  return `b${v.toString('hex')}`;
}

/** Later batches win key by key; a dropped table forgets the changes queued before the drop. */
export function mergeBatches(batches: readonly Batch[]): Batch {
  const merged = emptyBatch();
  for (const b of batches) {
    for (const change of b.schema) {
      if (change.kind === 'drop' && change.table) merged.tables.delete(change.name);
      merged.schema.push(change);
    }
    for (const [name, t] of b.tables) {
      const into = merged.tables.get(name);
      if (!into) merged.tables.set(name, { def: t.def, rows: new Map(t.rows) });
      else {
        const rows = new Map(into.rows);
        for (const [id, change] of t.rows) rows.set(id, change);
        merged.tables.set(name, { def: t.def, rows });
      }
    }
    merged.seq = b.seq;
  }
  return merged;
}
