// A pushdown: the filters every rule on an account agrees on (result, transaction types), derived by the rules
// (rules/index/pushdown.ts), so the query service can leave out what no rule wants. Its schema and its meaning,
// written once: per account it is sent as query parameters, the global tail applies passesPushdown locally,
// so both strategies hand over the same records.
import { z } from 'zod';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { isSuccessResult } from '@ledger-sentinel/ledger-model/result-codes';
import { QUERYABLE_TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';

export const Pushdown = z
  .object({
    result: z.enum(['success', 'fail']).optional(),
    transactiontype: z
      .array(z.string())
      .min(1)
      .refine((names) => names.every((n) => QUERYABLE_TRANSACTION_TYPES.has(n.toUpperCase())), {
        message: 'expected transaction type names the service accepts, like CRYPTOTRANSFER',
      })
      .optional(),
  })
  .strict();
export type Pushdown = z.output<typeof Pushdown>;

/** The pushdown filter applied locally, for the global tail (the same records the query would return). */
export function passesPushdown(tx: Transaction, pushdown: Pushdown | undefined): boolean {
  if (!pushdown) return true;
  if (pushdown.result && isSuccessResult(tx.result) !== (pushdown.result === 'success')) return false;
  if (pushdown.transactiontype) {
    const name = tx.name.toUpperCase();
    if (!pushdown.transactiontype.some((t) => t.toUpperCase() === name)) return false;
  }
  return true;
}
