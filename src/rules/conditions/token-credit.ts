import { defineCondition } from './shared/condition.js';
import {
  TokenAmount,
  amountWords,
  factsOf,
  minUnits,
  tokenAmountPredicate,
  tokenAmountWarnings,
} from './shared/token-amount.js';

/** The watched account's net change in a fungible token is a gain of at least `min`. */
export const tokenCredit = defineCondition({
  name: 'token_credit',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'The watched account gained at least `min` of the token: "1000000 units" (smallest unit), or whole tokens as "1.5 tokens" or "10000 USDC" through the token\'s decimals (default 1 unit).',
  example: '{ token_id: 0.0.456858, min: "1.5 tokens" }',
  schema: () => TokenAmount,
  compile: (value: TokenAmount) => tokenAmountPredicate(value, 1n),
  explain: (value: TokenAmount, f) => {
    const facts = factsOf(value, f);
    const min = minUnits(value, facts) ?? 0n;
    return `token ${value.token_id} credit ${amountWords(f.tokenNet(value.token_id), facts)} ≥ ${amountWords(min, facts)}`;
  },
  warnings: (value: TokenAmount) => tokenAmountWarnings(value),
});
