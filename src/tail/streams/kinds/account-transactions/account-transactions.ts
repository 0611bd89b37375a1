// Kind: one watched account's transactions, GET /api/v1/transactions?account.id=<id>, by consensus timestamp.
// Covered by the global tail too (the same records, matched locally).
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { involvesAccount } from '../../involves-account.js';
import { timestampCursor } from '../../../cursor/timestamp-cursor.js';
import { listedPosition } from '../../listed-position.js';
import type { ListedStreamKind } from '../../stream-kind.js';

export const accountTransactions: ListedStreamKind = {
  name: 'transactions',
  endpoint: '/api/v1/transactions?account.id=<id>',
  subject: 'account',
  cursor: timestampCursor,
  settlement: { lateVisibility: 'overlap' },
  takesPushdown: true,
  key: (account) => ({ key: `tx:${account.id}`, coveredByGlobal: true }),
  position: listedPosition,
  list(source, stream, page, options) {
    const query = {
      accountId: stream.account.id,
      after: page.after,
      order: 'asc' as const,
      limit: page.limit,
    };
    return source.transactions(stream.pushdown ? { ...query, pushdown: stream.pushdown } : query, options);
  },
  involves: involvesAccount,
  handOver: (record, account) => ({ source: 'transactions', record: record as Transaction, account }),
};
