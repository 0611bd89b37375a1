import { describe, expect, it } from 'vitest';
import { formatAfter, parseSpan, parseTestTime } from './test-time.js';

describe('rule test times', () => {
  it.each([
    ['2026-01-01T00:00:00Z', { kind: 'at', ns: 1_767_225_600_000_000_000n }],
    ['2026-01-01T00:00:00.000000001Z', { kind: 'at', ns: 1_767_225_600_000_000_001n }],
    ['2026-01-01T00:00:00.5Z', { kind: 'at', ns: 1_767_225_600_500_000_000n }],
    ['1767225600.000000001', { kind: 'at', ns: 1_767_225_600_000_000_001n }],
    ['1767225600', { kind: 'at', ns: 1_767_225_600_000_000_000n }],
    ['+0s', { kind: 'after', ns: 0n }],
    ['+1h30m', { kind: 'after', ns: 5_400_000_000_000n }],
    ['+1.5s', { kind: 'after', ns: 1_500_000_000n }],
    ['+27h', { kind: 'after', ns: 97_200_000_000_000n }],
    ['+250ms1ns', { kind: 'after', ns: 250_000_001n }],
    ['2026-02-30T00:00:00Z', undefined],
    ['2026-01-01T00:00:00+01:00', undefined],
    ['2026-01-01T00:00:00.0000000001Z', undefined],
    ['+1.5ns', undefined],
    ['+', undefined],
    ['+30', undefined],
    ['soon', undefined],
  ])('parses %s', (text, expected) => {
    const parsed = parseTestTime(text);

    expect(parsed).toEqual(expected);
  });

  it.each([
    [0n, '+0s'],
    [1n, '+0.000000001s'],
    [1_500_000_000n, '+1.5s'],
    [5_400_000_000_000n, '+1h30m'],
    [97_205_000_000_000n, '+27h5s'],
  ])('formats %s ns after the start as %s, which parses back', (ns, text) => {
    const formatted = formatAfter(ns);

    expect(formatted).toBe(text);
    expect(parseSpan(formatted.slice(1))).toBe(ns);
  });
});
