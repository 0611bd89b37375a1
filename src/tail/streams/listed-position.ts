// The position of a listed record on its timestamp cursor: a transaction's consensus timestamp, a reward's
// timestamp.
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import type { ListedRecord } from './stream-kind.js';

export function listedPosition(record: ListedRecord): bigint {
  return parseTimestamp('consensus_timestamp' in record ? record.consensus_timestamp : record.timestamp);
}
