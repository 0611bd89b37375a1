// SQLite values to PostgreSQL parameters and back. int64 travels as decimal text both ways (a JS number would
// round values above 2^53), so every bigint column is cast explicitly in the SQL that carries it.
import type { Value } from './batch.js';
import type { PgType } from './table-def.js';

/** A query parameter for a column of this type; throws a message naming the table and column when it cannot. */
export function toParam(value: Value, type: PgType, where: string): string | number | Buffer | null {
  if (value === null) return null;
  switch (type) {
    case 'bigint':
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value).toString();
      if (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) return value;
      break;
    case 'double precision':
      if (typeof value === 'number') return value;
      if (typeof value === 'bigint') return value.toString();
      break;
    case 'bytea':
      return Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8');
    case 'text':
      return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
  throw dataError(
    `state column ${where} holds ${typeof value} ${describe(value)}, which a PostgreSQL ${type} column cannot take; ` +
      'store values of the type the column declares',
  );
}

/** A value read from PostgreSQL (bigint selected as text) as SQLite gets it. */
export function fromPg(value: unknown, type: PgType): Value {
  if (value === null || value === undefined) return null;
  if (type === 'bigint') return BigInt(value as string);
  return value as Value;
}

/** `$n::type`, the placeholder for the nth parameter of a column of this type. */
export function placeholder(n: number, type: PgType): string {
  return `$${n}::${type}`;
}

function describe(value: Value): string {
  const text = Buffer.isBuffer(value) ? `<${value.length} bytes>` : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A value PostgreSQL can never take: replication stops instead of retrying it forever. */
function dataError(message: string): Error {
  return Object.assign(new Error(message), { code: 'SENTINEL_DATA' });
}
