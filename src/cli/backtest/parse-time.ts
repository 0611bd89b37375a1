import { isTimestamp, parseTimestamp, timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';

/** A consensus timestamp (`1700000000.123456789`) or an ISO 8601 date-time (`2024-05-01T00:00:00Z`), as ns. */
export function parseTimeArg(text: string): bigint | undefined {
  if (isTimestamp(text)) return parseTimestamp(text);
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : timestampFromMillis(ms);
}
