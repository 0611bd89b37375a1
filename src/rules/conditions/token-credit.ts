import { unitsText } from '../facts/amount-text.js';
import { defineCondition } from './shared/condition.js';
import { TokenAmount, tokenAmountPredicate } from './shared/token-amount.js';

/** The watched account's net change in a fungible token is a gain of at least `min` units. */
export const tokenCredit = defineCondition({
  name: 'token_credit',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'The watched account gained at least `min` of the token: "1000000 units" (smallest unit), or "1.5 tokens" with `decimals:` (default 1 unit).',
  example: '{ token_id: 0.0.456858, min: "1 unit" }',
  schema: () => TokenAmount,
  compile: (value: TokenAmount) => tokenAmountPredicate(value, 1n),
  explain: (value: TokenAmount, f) =>
    `token ${value.token_id} credit ${unitsText(f.tokenNet(value.token_id))} ≥ ${unitsText(value.min)}`,
});
