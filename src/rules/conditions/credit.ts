import { hbarText } from '../facts/amount-text.js';
import { defineCondition } from './shared/condition.js';
import { HbarAmount } from '../facts/values.js';

/** The watched account's net HBAR change, fees included, is a gain of at least the amount. */
export const credit = defineCondition({
  name: 'credit',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'Net HBAR arriving at the watched account (fees included) is at least the amount.',
  example: '"0.5 hbar"',
  schema: () => HbarAmount,
  compile: (min: bigint) => (f) => {
    const net = f.net();
    return net > 0n && net >= min;
  },
  explain: (min: bigint, f) => `net credit ${hbarText(f.net())} ≥ ${hbarText(min)}`,
});
