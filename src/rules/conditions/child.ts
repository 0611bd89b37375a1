import { z } from 'zod';
import { defineCondition } from './shared/condition.js';

/** The record is (true) / is not (false) a child record (nonce > 0). */
export const child = defineCondition({
  name: 'child',
  sources: ['transactions'],
  needsTrace: false,
  doc: '`true`: the record is a child record (`nonce` > 0); `false`: a top-level one.',
  example: 'false',
  schema: () => z.boolean({ error: (i) => `expected true or false, got ${JSON.stringify(i.input)}` }),
  compile: (value: boolean) => (f) => f.tx !== undefined && f.tx.nonce > 0 === value,
  explain: (value: boolean, f) =>
    value ? `a child record (nonce ${f.tx?.nonce ?? 0})` : 'a top-level record',
});
