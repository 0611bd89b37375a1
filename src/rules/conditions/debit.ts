import { hbarText } from '../facts/amount-text.js';
import { defineCondition } from './shared/condition.js';
import { HbarAmount } from '../facts/values.js';

/** The watched account's net HBAR change, fees included, is a loss of at least the amount. */
export const debit = defineCondition({
  name: 'debit',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'Net HBAR leaving the watched account (fees included) is at least the amount.',
  example: '"10000 hbar"',
  schema: () => HbarAmount,
  compile: (min: bigint) => {
    // net ≤ −min, written without negating the net (a BigInt operation allocates).
    const most = -min;
    return (f) => {
      const net = f.net();
      return net < 0n && net <= most;
    };
  },
  explain: (min: bigint, f) => `net debit ${hbarText(-f.net())} ≥ ${hbarText(min)}`,
});
