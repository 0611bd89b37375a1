import { z } from 'zod';
import { defineCondition } from './shared/condition.js';

/** `self`: the watched account paid (the transaction id's prefix); `other`: someone else did. */
export const payer = defineCondition({
  name: 'payer',
  sources: ['transactions'],
  needsTrace: false,
  doc: '`self`: the watched account is the payer (the `transaction_id` prefix); `other`: it is not.',
  example: 'other',
  schema: () =>
    z.enum(['self', 'other'], { error: (i) => `expected self or other, got ${JSON.stringify(i.input)}` }),
  compile: (value: 'self' | 'other') => (f) => (f.payer() === f.account.id) === (value === 'self'),
  explain: (value: 'self' | 'other', f) =>
    `payer ${f.payer() ?? ''}${value === 'self' ? ' (the account itself)' : ' (another account)'}`,
});
