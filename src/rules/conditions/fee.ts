import { hbarText } from '../facts/amount-text.js';
import { defineCondition } from './shared/condition.js';
import { HbarAmount } from '../facts/values.js';

/** The transaction's charged fee (`charged_tx_fee`) is at least the amount. */
export const fee = defineCondition({
  name: 'fee',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'The charged fee (`charged_tx_fee`) is at least the amount.',
  example: '"2 hbar"',
  schema: () => HbarAmount,
  compile: (min: bigint) => (f) => f.tx !== undefined && f.tx.charged_tx_fee >= min,
  explain: (min: bigint, f) => `fee ${hbarText(f.tx?.charged_tx_fee ?? 0n)} ≥ ${hbarText(min)}`,
});
