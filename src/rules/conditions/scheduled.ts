import { z } from 'zod';
import { defineCondition } from './shared/condition.js';

/** The record is (true) / is not (false) the execution of a scheduled transaction. */
export const scheduled = defineCondition({
  name: 'scheduled',
  sources: ['transactions'],
  needsTrace: false,
  doc: '`true`: the record is the execution of a scheduled transaction; `false`: it is not.',
  example: 'true',
  schema: () => z.boolean({ error: (i) => `expected true or false, got ${JSON.stringify(i.input)}` }),
  compile: (value: boolean) => (f) => f.tx !== undefined && f.tx.scheduled === value,
  explain: (value: boolean) => (value ? 'a scheduled execution' : 'not a scheduled execution'),
});
