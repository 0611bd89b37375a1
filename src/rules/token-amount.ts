// Shared by token_debit and token_credit: the watched account's net change in one fungible token.
import { z } from 'zod';
import { AccountId, TokenUnits } from './values.js';
import type { Predicate } from './condition.js';

export const TokenAmount = z.object({ token_id: AccountId, min: TokenUnits.default(1n) }).strict();
export type TokenAmount = z.output<typeof TokenAmount>;

export function tokenAmountPredicate(value: TokenAmount, sign: -1n | 1n): Predicate {
  return (f) => {
    const change = f.tokenNet(value.token_id) * sign;
    return change > 0n && change >= value.min;
  };
}
