// Token amounts in words are exact at every scale: bigint string arithmetic, never a float.
import { describe, expect, it } from 'vitest';
import { rawUnitsText, tokenAmountText } from './token-amount-text.js';

const USDC = { decimals: 6, symbol: 'USDC' };
const INT64_MAX = '9223372036854775807';

describe('tokenAmountText', () => {
  it.each([
    ['-293843768', { decimals: 5, symbol: 'USDC' }, '-2,938.43768 USDC'],
    ['2500000', USDC, '2.5 USDC'],
    ['1', USDC, '0.000001 USDC'],
    ['-1', USDC, '-0.000001 USDC'],
    ['1000000', USDC, '1 USDC'],
    ['0', USDC, '0 USDC'],
    ['-0', USDC, '0 USDC'],
    ['000123', USDC, '0.000123 USDC'],
    ['1234567', { decimals: 0, symbol: 'PTS' }, '1,234,567 PTS'],
    ['1500000', { decimals: 6 }, '1.5 tokens'],
    ['1500000', { decimals: 6, symbol: '' }, '1.5 tokens'],
  ])('%s with %j → %s', (amount, facts, text) => expect(tokenAmountText(amount, facts)).toBe(text));

  it('keeps every digit of 18 decimals (a float would lose them past 2^53)', () => {
    expect(tokenAmountText('1234567890123456789', { decimals: 18, symbol: 'WETH' })).toBe(
      '1.234567890123456789 WETH',
    );
    expect(tokenAmountText('1', { decimals: 18, symbol: 'WETH' })).toBe('0.000000000000000001 WETH');
    expect(tokenAmountText(`-${INT64_MAX}`, { decimals: 18, symbol: 'WETH' })).toBe(
      '-9.223372036854775807 WETH',
    );
  });

  it('shows a huge supply exactly, beyond int64 as well', () => {
    expect(tokenAmountText(INT64_MAX, { decimals: 2, symbol: 'BIG' })).toBe('92,233,720,368,547,758.07 BIG');
    expect(tokenAmountText(10n ** 40n + 1n, { decimals: 8, symbol: 'X' })).toBe(
      '100,000,000,000,000,000,000,000,000,000,000.00000001 X',
    );
  });

  it.each([
    [undefined, '-293,843,768 units (decimals unknown)'],
    [{ symbol: 'USDC' }, '-293,843,768 units (decimals unknown)'],
    [{ decimals: 19, symbol: 'USDC' }, '-293,843,768 units (decimals unknown)'],
    [{ decimals: -1, symbol: 'USDC' }, '-293,843,768 units (decimals unknown)'],
    [{ decimals: 2.5, symbol: 'USDC' }, '-293,843,768 units (decimals unknown)'],
  ])('without usable decimals (%j) stays in raw units, saying so', (facts, text) =>
    expect(tokenAmountText(-293843768n, facts)).toBe(text),
  );

  it('returns text that is not an integer as it is', () => {
    expect(tokenAmountText('12.5', USDC)).toBe('12.5');
  });

  it('groups raw units', () => {
    expect(rawUnitsText('-293843768')).toBe('-293,843,768');
    expect(rawUnitsText(1000n)).toBe('1,000');
  });
});
