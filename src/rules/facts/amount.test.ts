import { describe, expect, it } from 'vitest';
import { formatHbar, parseAmount } from './amount.js';

describe('parseAmount', () => {
  it.each([
    ['10000 hbar', 1_000_000_000_000n],
    ['0.5 hbar', 50_000_000n],
    ['0.00000001 hbar', 1n],
    ['1.23456789 HBAR', 123_456_789n],
    ['92233720368.54775807 hbar', 9_223_372_036_854_775_807n],
    ['5 tinybar', 5n],
    ['5 tinybars', 5n],
    ['5tinybar', 5n],
    ['2 ℏ', 200_000_000n],
    ['1_000 HBAR', 100_000_000_000n],
    ['  3 hbar ', 300_000_000n],
  ] as [unknown, bigint][])('%s → %s tinybar', (input, expected) => {
    const parsed = parseAmount(input);

    expect(parsed).toEqual({ ok: true, tinybar: expected });
  });

  it.each([
    [
      1000,
      'an amount needs a unit, got the bare number 1000; write "1000 hbar" or "1000 tinybar" (1 hbar = 100000000 tinybar)',
    ],
    ['7', 'an amount needs a unit, got "7"; write "7 hbar" or "7 tinybar" (1 hbar = 100000000 tinybar)'],
    [1.5, 'an amount needs a unit, got the bare number 1.5; write "1.5 hbar" (1 hbar = 100000000 tinybar)'],
    [
      '1,000 HBAR',
      'thousands separators are not accepted in "1,000 HBAR" (a comma is the decimal mark in many languages); write "1000 HBAR", or group digits with _ like "1_000 hbar"',
    ],
    ['10k', 'unknown unit "k" in "10k"; the units are hbar and tinybar'],
    ['5 usd', 'unknown unit "usd" in "5 usd"; the units are hbar and tinybar'],
    ['0.000000001 hbar', 'HBAR has 8 decimals (1 tinybar = 0.00000001 hbar), got "0.000000001 hbar"'],
    [
      '0.5 tinybar',
      'tinybars are whole numbers (1 tinybar = 0.00000001 hbar), got "0.5 tinybar"; round it or write hbar',
    ],
    [
      -1,
      'an amount needs a unit, got the bare number -1; amounts are positive; write it with its unit: "10000 hbar", "0.5 hbar" or "5 tinybar" (1 hbar = 100000000 tinybar)',
    ],
    [
      '-5 hbar',
      'amounts are positive, got "-5 hbar"; write it with its unit: "10000 hbar", "0.5 hbar" or "5 tinybar" (1 hbar = 100000000 tinybar)',
    ],
    ['92233720368.54775808 hbar', '"92233720368.54775808 hbar" is more than int64 tinybars'],
    [
      true,
      'expected an amount, got true; write it with its unit: "10000 hbar", "0.5 hbar" or "5 tinybar" (1 hbar = 100000000 tinybar)',
    ],
    [
      'hbar',
      'expected an amount like "10000 hbar", got "hbar"; write it with its unit: "10000 hbar", "0.5 hbar" or "5 tinybar" (1 hbar = 100000000 tinybar)',
    ],
  ] as [unknown, string][])('%s is refused with the fix', (input, message) => {
    const parsed = parseAmount(input);

    expect(parsed.ok ? '' : parsed.message).toBe(message);
  });
});

describe('formatHbar', () => {
  it.each([
    [150_000_000n, '1.5'],
    [100_000_000n, '1'],
    [0n, '0'],
    [-5n, '-0.00000005'],
    [9_223_372_036_854_775_807n, '92233720368.54775807'],
  ])('%s tinybar → %s', (tinybar, expected) => {
    const text = formatHbar(tinybar);

    expect(text).toBe(expected);
  });
});
