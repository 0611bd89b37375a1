import { z } from 'zod';
import { defineCondition } from './shared/condition.js';
import { batchKeyText, batchRole, batchTimestamp, type BatchRole } from '../facts/batch.js';

/** `inner`: a transaction carried by an atomic batch (HIP-551); `outer`: the ATOMICBATCH record itself. */
export const batch = defineCondition({
  name: 'batch',
  sources: ['transactions'],
  needsTrace: false,
  doc: '`inner`: a transaction inside an atomic batch (it has a `batch_key`); `outer`: the ATOMICBATCH record itself.',
  example: 'inner',
  schema: () =>
    z.enum(['inner', 'outer'], {
      error: (i) => `expected inner or outer, got ${JSON.stringify(i.input)}`,
    }),
  compile: (value: BatchRole) => (f) => f.tx !== undefined && batchRole(f.tx) === value,
  explain: (value: BatchRole, f) => {
    const tx = f.tx;
    if (tx === undefined) return '';
    if (value === 'outer') return `an atomic batch paid by ${f.payer() ?? ''}`;
    const key = batchKeyText(tx.batch_key) || 'not sent';
    return `inner transaction of the atomic batch at ${batchTimestamp(tx, value)}, payer ${f.payer() ?? ''}, batch key ${key}`;
  },
});
