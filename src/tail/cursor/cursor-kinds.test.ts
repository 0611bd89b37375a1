// The cursor kinds: each position survives the store (encode, decode), the stored text of a composite kind
// sorts as its positions do, and what the store gives back that no encode wrote is refused, not guessed at.
import { describe, expect, it } from 'vitest';
import { earlier, later } from './cursor-kind.js';
import { sequenceCursor } from './sequence-cursor.js';
import { timestampCursor } from './timestamp-cursor.js';
import { timestampIndexCursor, type TimestampIndex } from './timestamp-index-cursor.js';

describe('timestamp cursor', () => {
  it('keeps a timestamp as the integer it is, and reads back its decimal text too', () => {
    const ts = 1_700_000_000_123_456_789n;
    expect(timestampCursor.encode(ts)).toBe(ts);
    expect(timestampCursor.decode(timestampCursor.encode(ts))).toBe(ts);
    expect(timestampCursor.decode('1700000000123456789')).toBe(ts);
  });

  it('orders positions, and later/earlier follow that order', () => {
    expect(timestampCursor.compare(1n, 2n)).toBeLessThan(0);
    expect(timestampCursor.compare(2n, 2n)).toBe(0);
    expect(later(timestampCursor, 5n, 3n)).toBe(5n);
    expect(earlier(timestampCursor, 5n, 3n)).toBe(3n);
  });

  it.each(['', 'now', '1.5', '0x10', '1'.repeat(21)])('refuses the stored value %j', (stored) => {
    expect(() => timestampCursor.decode(stored)).toThrow(/not an integer/);
  });
});

describe('sequence cursor', () => {
  it('round-trips and orders sequence numbers', () => {
    expect(sequenceCursor.decode(sequenceCursor.encode(42n))).toBe(42n);
    expect(sequenceCursor.compare(9n, 10n)).toBeLessThan(0);
    expect(() => sequenceCursor.decode('forty-two')).toThrow(/sequence cursor/);
  });
});

describe('timestamp + index cursor', () => {
  const positions: TimestampIndex[] = [
    { ts: 9n, index: 5 },
    { ts: 10n, index: 0 },
    { ts: 10n, index: 2 },
    { ts: 10n, index: 10 },
    { ts: 1_700_000_000_000_000_000n, index: 0 },
  ];

  it('round-trips every position', () => {
    for (const p of positions) expect(timestampIndexCursor.decode(timestampIndexCursor.encode(p))).toEqual(p);
  });

  it('stores text that sorts as the positions do', () => {
    const stored = positions.map((p) => timestampIndexCursor.encode(p) as string);
    expect([...stored].reverse().sort()).toEqual(stored);
    for (let i = 1; i < positions.length; i += 1)
      expect(timestampIndexCursor.compare(positions[i - 1]!, positions[i]!)).toBeLessThan(0);
  });

  it.each(['10:2', '00000000000000000010-0000000002', '00000000000000000010:00000000x2'])(
    'refuses the stored value %j',
    (stored) => {
      expect(() => timestampIndexCursor.decode(stored)).toThrow(/malformed/);
    },
  );

  it('refuses a bare integer (what the timestamp kind stores)', () => {
    expect(() => timestampIndexCursor.decode(10n)).toThrow(/malformed/);
  });

  it('refuses to encode a position it could not store in order', () => {
    expect(() => timestampIndexCursor.encode({ ts: -1n, index: 0 })).toThrow(/no stored form/);
    expect(() => timestampIndexCursor.encode({ ts: 1n, index: 1.5 })).toThrow(/no stored form/);
  });
});
