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
    ['7', 7n],
    [500_000_000, 500_000_000n],
    ['  3 hbar ', 300_000_000n],
  ] as [unknown, bigint][])('%s → %s tinybar', (input, expected) => {
    const parsed = parseAmount(input);

    expect(parsed).toEqual({ ok: true, tinybar: expected });
  });

  it.each([
    ['10k', 'got "10k"'],
    ['0.000000001 hbar', 'got "0.000000001 hbar"'],
    ['0.5 tinybar', '(tinybars are whole numbers)'],
    [1.5, 'got 1.5 (write decimals as a "… hbar" string)'],
    [-1, '(amounts are positive)'],
    ['92233720368.54775808 hbar', '(more than int64 tinybars)'],
    [true, 'got true'],
    ['-5 hbar', 'got "-5 hbar"'],
  ] as [unknown, string][])('%s is refused: %s', (input, ending) => {
    const parsed = parseAmount(input);

    expect(parsed.ok ? '' : parsed.message).toMatch(
      new RegExp(`^expected an amount like .*${escape(ending)}$`),
    );
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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
