// Kind: the whole ledger's transactions, GET /api/v1/transactions, by consensus timestamp: one stream, matched
// locally against the watch list (global/global-tail.ts reads it; the strategy decides when). Its sweep is a
// poll of its own with no cursor of its own (GLOBAL_SWEEP).
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { timestampCursor } from '../../../cursor/timestamp-cursor.js';
import type { StreamKind } from '../../stream-kind.js';

/** The global stream's key (cursor store, poll runner). */
export const GLOBAL_STREAM = 'global';
/** The poll key of the global tail's sweep (immediate mode): a job of its own, not a stream with a cursor. */
export const GLOBAL_SWEEP = 'global:sweep';

export const globalTransactions: StreamKind<Transaction> & {
  readonly key: string;
  readonly sweepKey: string;
} = {
  name: 'global',
  endpoint: '/api/v1/transactions',
  subject: 'ledger',
  cursor: timestampCursor,
  settlement: { lateVisibility: 'overlap' },
  key: GLOBAL_STREAM,
  sweepKey: GLOBAL_SWEEP,
  position: (tx) => parseTimestamp(tx.consensus_timestamp),
};
