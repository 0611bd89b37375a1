// One batch, one PostgreSQL transaction: the fencing token is checked first (FOR SHARE holds the lease row, so a
// new leader's token bump waits for this commit or this commit sees the bump), then schema changes, then the
// rows, upserted and deleted by primary key — idempotent, so a batch whose COMMIT was cut off is simply re-sent.
import type { ClientBase } from 'pg';
import type { Batch, RowChange, SchemaChange } from './batch.js';
import { FencedError } from '../fenced-error.js';
import { CommitsLostError } from './commits-lost-error.js';
import { placeholder, toParam } from './pg-values.js';
import { quoteIdent, type TableDef } from './table-def.js';

/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMS = 30_000;

/**
 * `committed(token)`: how many transactions this store saw committed under that token before this one. PostgreSQL
 * must count at least as many (more when a COMMIT whose answer was lost is re-sent); fewer means it lost some
 * (CommitsLostError, thrown before anything of this batch is written). Returns the token the batch was audited
 * under (undefined: no lease row, nothing audited), for the caller to count.
 */
export async function applyBatch(
  client: ClientBase,
  batch: Batch,
  fence: (() => bigint | undefined) | undefined,
  committed: (token: bigint) => number = () => 0,
): Promise<bigint | undefined> {
  await client.query('BEGIN');
  try {
    const token = await checkFence(client, fence);
    if (token !== undefined) {
      const held = (await audit(client, token)) - 1;
      const seen = committed(token);
      if (held < seen) throw new CommitsLostError(token, held, seen);
    }
    for (const change of batch.schema) await applySchema(client, change);
    for (const { def, rows } of batch.tables.values()) {
      const all = [...rows.values()];
      await upsert(
        client,
        def,
        all.filter((r) => r.row !== null),
      );
      await remove(
        client,
        def,
        all.filter((r) => r.row === null),
      );
    }
    await client.query('COMMIT');
    return token;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * Throws FencedError when the lease row names another token than ours. No fence function (the migration command,
 * tests) or no lease row (no election ever ran on this database): no check. A fence function that returns
 * undefined means this replica holds no lease: refused as soon as a lease row exists, so a standby never writes.
 */
export async function checkFence(
  client: ClientBase,
  fence: (() => bigint | undefined) | undefined,
): Promise<bigint | undefined> {
  if (fence === undefined) return undefined;
  const ours = fence();
  const { rows } = await client.query<{ token: string }>(
    'SELECT token::text AS token FROM sentinel_lease WHERE id = 1 FOR SHARE',
  );
  const current = rows[0] === undefined ? undefined : BigInt(rows[0].token);
  if (current !== undefined && current !== ours) throw new FencedError(ours, current);
  return current;
}

/** Counts the batch under its token (sentinel_commits), with the time just before its commit; returns the count. */
async function audit(client: ClientBase, token: bigint): Promise<number> {
  const { rows } = await client.query<{ batches: string }>(
    `INSERT INTO sentinel_commits AS c (token, batches, first_at, last_at)
     VALUES ($1, 1, clock_timestamp(), clock_timestamp())
     ON CONFLICT (token) DO UPDATE SET batches = c.batches + 1, last_at = clock_timestamp()
     RETURNING batches::text AS batches`,
    [token.toString()],
  );
  return Number(rows[0]?.batches ?? 1);
}

export async function applySchema(client: ClientBase, change: SchemaChange): Promise<void> {
  if (change.kind === 'drop') {
    if (change.table) await client.query(`DROP TABLE IF EXISTS ${quoteIdent(change.name)}`);
    await client.query('DELETE FROM sentinel_schema WHERE name = $1', [change.name]);
    return;
  }
  if (change.kind === 'table') {
    const { def } = change;
    const cols = def.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`);
    const pk = def.pk.map(quoteIdent).join(', ');
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoteIdent(def.name)} (${cols.join(', ')}, PRIMARY KEY (${pk}))`,
    );
    // A module that added a column (ALTER TABLE … ADD COLUMN) gets it here too.
    for (const c of cols)
      await client.query(`ALTER TABLE ${quoteIdent(def.name)} ADD COLUMN IF NOT EXISTS ${c}`);
  }
  const object =
    change.kind === 'table' ? { type: 'table', name: change.def.name, sql: change.def.sql } : change.object;
  await client.query(
    `INSERT INTO sentinel_schema (name, type, sql) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET type = EXCLUDED.type, sql = EXCLUDED.sql, updated_at = now()`,
    [object.name, object.type, object.sql],
  );
}

async function upsert(client: ClientBase, def: TableDef, rows: readonly RowChange[]): Promise<void> {
  const names = def.columns.map((c) => quoteIdent(c.name));
  const rest = def.columns.filter((c) => !def.pk.includes(c.name)).map((c) => quoteIdent(c.name));
  const onConflict = rest.length
    ? `DO UPDATE SET ${rest.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`
    : 'DO NOTHING';
  for (const chunk of chunks(rows, Math.floor(MAX_PARAMS / def.columns.length))) {
    const params: unknown[] = [];
    const tuples = chunk.map((r) => {
      const cells = def.columns.map((c, i) => {
        params.push(toParam(r.row?.[i] ?? null, c.type, `${def.name}.${c.name}`));
        return placeholder(params.length, c.type);
      });
      return `(${cells.join(', ')})`;
    });
    await client.query(
      `INSERT INTO ${quoteIdent(def.name)} (${names.join(', ')}) VALUES ${tuples.join(', ')}
       ON CONFLICT (${def.pk.map(quoteIdent).join(', ')}) ${onConflict}`,
      params,
    );
  }
}

async function remove(client: ClientBase, def: TableDef, rows: readonly RowChange[]): Promise<void> {
  const keyCols = def.pk.map((k) => def.columns.find((c) => c.name === k)!);
  for (const chunk of chunks(rows, Math.floor(MAX_PARAMS / keyCols.length))) {
    const params: unknown[] = [];
    const tuples = chunk.map((r) => {
      const cells = keyCols.map((c, i) => {
        params.push(toParam(r.key[i] ?? null, c.type, `${def.name}.${c.name}`));
        return placeholder(params.length, c.type);
      });
      return `(${cells.join(', ')})`;
    });
    await client.query(
      `DELETE FROM ${quoteIdent(def.name)} WHERE (${keyCols.map((c) => quoteIdent(c.name)).join(', ')}) IN (${tuples.join(', ')})`,
      params,
    );
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += Math.max(1, size)) out.push(items.slice(i, i + Math.max(1, size)));
  return out;
}
