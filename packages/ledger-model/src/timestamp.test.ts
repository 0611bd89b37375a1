import { describe, expect, it } from 'vitest';
import {
  compareTimestamps,
  formatTimestamp,
  isTimestamp,
  parseTimestamp,
  timestampToIso,
} from './timestamp.js';

describe('timestamp', () => {
  it.each([
    ['1565779444.711927005', 1565779444711927005n],
    ['1.5', 1500000000n],
    ['0', 0n],
    ['9999999999.999999999', 9999999999999999999n],
  ])('parses %s exactly', (text, ns) => {
    expect(parseTimestamp(text)).toBe(ns);
  });

  it.each(['-1', 'abc', '1.', '.5', '1.1234567890', '1e9'])('rejects %s', (text) => {
    expect(() => parseTimestamp(text)).toThrow(/not a timestamp/);
  });

  it('formats with exactly nine fraction digits', () => {
    expect(formatTimestamp(1565779444000000005n)).toBe('1565779444.000000005');
  });

  it('compares at nanosecond resolution where doubles cannot', () => {
    expect(compareTimestamps('1565779444.711927005', '1565779444.711927006')).toBe(-1);
    expect(compareTimestamps('1.5', '1.500000000')).toBe(0);
  });

  it('accepts only the query form in isTimestamp', () => {
    expect(isTimestamp('12345678901')).toBe(false);
    expect(isTimestamp('1234567890.1')).toBe(true);
  });

  it('renders ISO UTC with nanoseconds', () => {
    expect(timestampToIso(1565779444711927005n)).toBe('2019-08-14T10:44:04.711927005Z');
  });
});
