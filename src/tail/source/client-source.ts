// The TailSource over the real ledger client: every request goes through its shared RequestBudget (with the
// account's priority), its retries and its links.next handling.
import type { LedgerClient } from '../../ledger/client.js';
import type { TailSource } from './listing-source.js';

export function clientTailSource(client: LedgerClient): TailSource {
  return {
    transactions: (query, options) =>
      client.listTransactions(
        {
          ...(query.accountId === undefined ? {} : { accountId: query.accountId }),
          timestamp:
            query.upTo === undefined
              ? { op: 'gt', value: query.after }
              : [
                  { op: 'gt', value: query.after },
                  { op: 'lte', value: query.upTo },
                ],
          order: query.order,
          limit: query.limit,
          ...(query.pushdown?.result ? { result: query.pushdown.result } : {}),
          ...(query.pushdown?.transactiontype ? { transactionType: query.pushdown.transactiontype } : {}),
        },
        options,
      ),
    rewards: (path, query, options) =>
      client.listRewards(
        path,
        { timestamp: { op: 'gt', value: query.after }, order: 'asc', limit: query.limit },
        options,
      ),
  };
}
