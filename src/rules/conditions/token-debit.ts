import { unitsText } from '../facts/amount-text.js';
import { defineCondition } from './shared/condition.js';
import { TokenAmount, tokenAmountPredicate } from './shared/token-amount.js';

/** The watched account's net change in a fungible token is a loss of at least `min` units. */
export const tokenDebit = defineCondition({
  name: 'token_debit',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'The watched account lost at least `min` of the token: "1000000 units" (smallest unit), or "1.5 tokens" with `decimals:` (default 1 unit).',
  example: '{ token_id: 0.0.456858, min: "1.5 tokens", decimals: 6 }',
  schema: () => TokenAmount,
  compile: (value: TokenAmount) => tokenAmountPredicate(value, -1n),
  explain: (value: TokenAmount, f) =>
    `token ${value.token_id} debit ${unitsText(-f.tokenNet(value.token_id))} ≥ ${unitsText(value.min)}`,
});
