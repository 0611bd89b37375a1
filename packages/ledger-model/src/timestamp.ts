// Consensus timestamps as exact nanosecond values. The wire form is "<seconds>.<9 digits>"; we keep it as a
// string on records and convert to a bigint count of nanoseconds (the value type) for comparison and arithmetic.
// Floats are never involved: 1565779444.711927005 does not survive a double.

/** Nanoseconds since the Unix epoch. */
export type Timestamp = bigint;

const NS_PER_SECOND = 1_000_000_000n;
/** The query form the service accepts: 1-10 digits of seconds, optional 1-9 digit fraction (docs/ledger-api.md §2.4). */
export const TIMESTAMP_PATTERN = /^\d{1,10}(\.\d{1,9})?$/;
/** What response records carry; a little wider than the query form, for forward compatibility. */
export const RECORD_TIMESTAMP_PATTERN = /^\d{1,19}(\.\d{1,9})?$/;

export function isTimestamp(text: string): boolean {
  return TIMESTAMP_PATTERN.test(text);
}

/** Parses "<seconds>[.<fraction>]"; the fraction is right-padded to nanoseconds ("1.5" = 1.500000000). */
export function parseTimestamp(text: string): Timestamp {
  if (!RECORD_TIMESTAMP_PATTERN.test(text)) {
    throw new RangeError(
      `not a timestamp: expected seconds with an optional 1-9 digit fraction, got "${text}"`,
    );
  }
  const dot = text.indexOf('.');
  if (dot < 0) return BigInt(text) * NS_PER_SECOND;
  const fraction = text.slice(dot + 1).padEnd(9, '0');
  return BigInt(text.slice(0, dot)) * NS_PER_SECOND + BigInt(fraction);
}

/** The canonical wire form: seconds, a dot, exactly nine digits. */
export function formatTimestamp(ns: Timestamp): string {
  if (ns < 0n) throw new RangeError('timestamps before the epoch are not representable');
  const seconds = ns / NS_PER_SECOND;
  const nanos = ns % NS_PER_SECOND;
  return `${seconds}.${nanos.toString().padStart(9, '0')}`;
}

/** Orders two wire-form timestamps exactly (negative, zero or positive). */
export function compareTimestamps(a: string, b: string): number {
  const x = parseTimestamp(a);
  const y = parseTimestamp(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function timestampFromMillis(ms: number): Timestamp {
  return BigInt(Math.trunc(ms)) * 1_000_000n;
}

/** Milliseconds since the epoch, for clocks and durations; loses sub-millisecond precision on purpose. */
export function timestampToMillis(ns: Timestamp): number {
  return Number(ns / 1_000_000n);
}

export function secondsToNanos(seconds: number): bigint {
  return BigInt(Math.round(seconds * 1000)) * 1_000_000n;
}

/** ISO 8601 UTC with nanoseconds, for humans: 2019-08-14T10:50:00.711927005Z. */
export function timestampToIso(ns: Timestamp): string {
  const iso = new Date(timestampToMillis(ns)).toISOString();
  const nanos = (ns % NS_PER_SECOND).toString().padStart(9, '0');
  return `${iso.slice(0, 19)}.${nanos}Z`;
}
