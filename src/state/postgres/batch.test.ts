// Merging queued batches and telling a retryable failure from a final one: the two decisions that make a retried
// replication step neither lose nor resurrect a row.
import { describe, expect, it } from 'vitest';
import { FencedError } from '../fenced-error.js';
import { type Batch, emptyBatch, keyId, mergeBatches, type Value } from './batch.js';
import { retryable } from './replicator.js';
import type { TableDef } from './table-def.js';

const T: TableDef = {
  name: 't',
  sql: 'CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)',
  columns: [
    { name: 'k', type: 'text' },
    { name: 'v', type: 'bigint' },
  ],
  pk: ['k'],
};

function batch(seq: number, rows: [string, bigint | null][], drop = false): Batch {
  const b = emptyBatch();
  b.seq = seq;
  if (drop) b.schema.push({ kind: 'drop', name: 't', table: true });
  const changes = new Map(
    rows.map(([k, v]) => [keyId([k]), { key: [k] as Value[], row: v === null ? null : ([k, v] as Value[]) }]),
  );
  if (rows.length) b.tables.set('t', { def: T, rows: changes });
  return b;
}

describe('mergeBatches', () => {
  it('keeps the latest state of every key and the last sequence number', () => {
    const merged = mergeBatches([
      batch(1, [
        ['a', 1n],
        ['b', 1n],
      ]),
      batch(2, [['a', null]]),
      batch(3, [['b', 2n ** 63n - 1n]]),
    ]);

    expect(merged.seq).toBe(3);
    expect([...merged.tables.get('t')!.rows.values()].map((r) => r.row)).toEqual([
      null,
      ['b', 2n ** 63n - 1n],
    ]);
  });

  it('forgets the rows queued before a table was dropped', () => {
    const merged = mergeBatches([batch(1, [['a', 1n]]), batch(2, [], true), batch(3, [['z', 9n]])]);

    expect(merged.schema).toEqual([{ kind: 'drop', name: 't', table: true }]);
    expect([...merged.tables.get('t')!.rows.keys()]).toEqual([keyId(['z'])]);
  });

  it('tells keys of different types apart', () => {
    expect(keyId([1n])).not.toBe(keyId(['1']));
    expect(keyId(['a', 'b'])).not.toBe(keyId(['a\u0000b']));
  });
});

describe('retryable', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), true],
    ['connection terminated', new Error('Connection terminated unexpectedly'), true],
    ['admin shutdown', Object.assign(new Error('terminating connection'), { code: '57P01' }), true],
    ['too many connections', Object.assign(new Error('too many clients'), { code: '53300' }), true],
    ['statement timeout', Object.assign(new Error('canceling statement'), { code: '57014' }), true],
    ['serialization failure', Object.assign(new Error('could not serialize'), { code: '40001' }), true],
    ['undefined column', Object.assign(new Error('column does not exist'), { code: '42703' }), false],
    ['bad value', Object.assign(new Error('state column t.v holds…'), { code: 'SENTINEL_DATA' }), false],
    ['fenced', new FencedError(1n, 2n), false],
  ])('%s → %s', (_name, err, expected) => {
    expect(retryable(err)).toBe(expected);
  });
});
