// `state migrate --to postgres`: an existing SQLite state (every table every module created: cursors, seen window,
// rule state, outbox, silences, acks, quarantine…) copied into PostgreSQL in ONE transaction, in the very form the
// PostgreSQL backend replicates, so a daemon started on it afterwards finds exactly what the SQLite daemon left.
import type { ClientBase } from 'pg';
import type { Db } from '../store.js';
import { applyBatch } from './apply-batch.js';
import { emptyBatch } from './batch.js';
import { snapshot } from './capture.js';
import { migrate } from './migrations.js';
import { schemaObjects, tableDef } from './table-def.js';

export interface CopyResult {
  /** Rows copied per table, in table order. */
  readonly counts: Readonly<Record<string, number>>;
  /** Tables of an earlier state dropped first (--force). */
  readonly replaced: readonly string[];
}

export class TargetNotEmptyError extends Error {
  override readonly name = 'TargetNotEmptyError';
}

export async function copySqliteState(source: Db, client: ClientBase, force: boolean): Promise<CopyResult> {
  await migrate(client);
  const { rows: existing } = await client.query<{ name: string; type: string }>(
    'SELECT name, type FROM sentinel_schema ORDER BY name',
  );
  const tables = existing.filter((r) => r.type === 'table').map((r) => r.name);
  if (existing.length > 0 && !force)
    throw new TargetNotEmptyError(
      `the PostgreSQL database already holds a ledger-sentinel state (tables ${tables.join(', ') || '(indexes only)'}); ` +
        'point --url-file at an empty database, or pass --force to replace that state',
    );
  const batch = emptyBatch();
  for (const r of existing) batch.schema.push({ kind: 'drop', name: r.name, table: r.type === 'table' });
  const counts: Record<string, number> = {};
  for (const o of schemaObjects(source)) {
    if (o.type === 'index') {
      batch.schema.push({ kind: 'index', object: o });
      continue;
    }
    const def = tableDef(source, o.name, o.sql);
    const rows = snapshot(source, def);
    batch.schema.push({ kind: 'table', def });
    batch.tables.set(def.name, { def, rows });
    counts[def.name] = rows.size;
  }
  // Not fenced: an operator's one-off copy, run with every daemon stopped (docs/deployment.md).
  await applyBatch(client, batch, undefined);
  return { counts, replaced: tables };
}
