import { defineCondition } from '../condition.js';
import { HbarAmount } from '../values.js';

/** The watched account's net HBAR change, fees included, is a loss of at least the amount. */
export const debit = defineCondition({
  name: 'debit',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'Net HBAR leaving the watched account (fees included) is at least the amount.',
  example: '"10000 hbar"',
  schema: () => HbarAmount,
  compile: (min: bigint) => (f) => -f.net() >= min && f.net() < 0n,
});
