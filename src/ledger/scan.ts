// Hand-written checks for the hot formats of the fast path (fast-records.ts). Each equals its regex in
// schema.ts / entity-id.ts / timestamp.ts (scan.test.ts compares them); a char loop is several times faster.

function digitsAt(s: string, from: number): number {
  let i = from;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
  }
  return i - from;
}

/** ENTITY_ID_PATTERN: `^\d{1,10}\.\d{1,10}\.\d{1,10}$`. */
export function isEntityIdText(s: string): boolean {
  let at = 0;
  for (let group = 0; group < 3; group++) {
    const n = digitsAt(s, at);
    if (n < 1 || n > 10) return false;
    at += n;
    if (group < 2) {
      if (s.charCodeAt(at) !== 46) return false;
      at++;
    }
  }
  return at === s.length;
}

/** RECORD_TIMESTAMP_PATTERN: `^\d{1,19}(\.\d{1,9})?$`. */
export function isRecordTimestampText(s: string): boolean {
  const seconds = digitsAt(s, 0);
  if (seconds < 1 || seconds > 19) return false;
  if (seconds === s.length) return true;
  if (s.charCodeAt(seconds) !== 46) return false;
  const nanos = digitsAt(s, seconds + 1);
  return nanos >= 1 && nanos <= 9 && seconds + 1 + nanos === s.length;
}

/** INT64_TEXT_PATTERN `^-?\d{1,19}$`, converted; undefined when it does not match. */
export function int64FromText(s: string): bigint | undefined {
  const sign = s.charCodeAt(0) === 45 ? 1 : 0;
  const n = digitsAt(s, sign);
  if (n < 1 || n > 19 || sign + n !== s.length) return undefined;
  // Up to 15 digits a double is exact and Number+BigInt is much faster than BigInt(string).
  return n <= 15 ? BigInt(Number(s)) : BigInt(s);
}
