import { describe, expect, it } from 'vitest';
import type { AlertRecord } from '../alert/alert.js';
import type { CompiledWindow } from '../load/rule-set.js';
import { tokenMoveText, tokenUnits } from './token-moves.js';
import { absenceResolution, absenceWhy, durationText, windowResolution, windowWhy } from './window-texts.js';

const S = 1_000_000_000n;
const HBAR = 100_000_000n;
const T = 1_700_000_000n * S;
const count: CompiledWindow = { kind: 'count', durationNs: 600n * S, threshold: 5n };
const debits: CompiledWindow = { kind: 'debit_sum', durationNs: 3600n * S, threshold: 10_000n * HBAR };
const absent: CompiledWindow = { kind: 'absent', durationNs: 26n * 3600n * S, threshold: 0n };

describe('durationText', () => {
  it.each([
    [3600n * S, '1h'],
    [600n * S, '10m'],
    [20n * S, '20s'],
    [93600n * S, '26h'],
    [0n, '0s'],
  ])('%s ns → %s', (ns, text) => expect(durationText(ns)).toBe(text));
});

describe('why a window fired', () => {
  it.each([
    [count, 5n, 'result FAIL (a failure)', '5 matches in 10m ≥ 5 — newest: result FAIL (a failure)'],
    [
      debits,
      50_000n * HBAR,
      'net debit 20,000 HBAR ≥ 1 HBAR',
      'debits of 50,000 HBAR in 1h ≥ 10,000 HBAR — newest: net debit 20,000 HBAR ≥ 1 HBAR',
    ],
    [
      { ...debits, kind: 'credit_sum' as const },
      12_000n * HBAR,
      '',
      'credits of 12,000 HBAR in 1h ≥ 10,000 HBAR',
    ],
  ])('%#', (w, total, newest, why) => expect(windowWhy(w, total, newest)).toBe(why));

  it('an absence: for how long, since when', () => {
    expect(absenceWhy(absent, T, T + 26n * 3600n * S)).toBe(
      'no matching record for 26h ≥ 26h, last match or start of watching at 2023-11-14T22:13:20.000000000Z',
    );
  });
});

describe('what resolved it', () => {
  const reward: AlertRecord = {
    kind: 'reward',
    consensusTimestamp: '1700093600.000000001',
    amountTinybar: '1230000000',
  };
  const transfer: AlertRecord = {
    kind: 'transaction',
    consensusTimestamp: '1700000100.5',
    transactionId: '0.0.1001-1700000099-000000000',
    type: 'CRYPTOTRANSFER',
    result: 'SUCCESS',
    amountTinybar: '-500000000',
  };

  it.each([
    [reward, '', 'a matching record arrived: staking reward of 12.3 HBAR'],
    [
      transfer,
      'memo contains "heartbeat"',
      'a matching record arrived: CRYPTOTRANSFER SUCCESS, net -5 HBAR (memo contains "heartbeat")',
    ],
    [undefined, '', 'a matching record arrived'],
  ])('an absence ended by %#', (record, match, text) => expect(absenceResolution(record, match)).toBe(text));

  it.each([
    [count, 4n, 'fewer than 5 matches in the last 10m (4)'],
    [count, 1n, 'fewer than 5 matches in the last 10m (1)'],
    [{ ...count, threshold: 1n }, 0n, 'no match in the last 10m'],
    [debits, 9_999n * HBAR, 'debits in the last 1h fell below 10,000 HBAR (9,999 HBAR)'],
  ])('a window below its threshold %#', (w, total, text) => expect(windowResolution(w, total)).toBe(text));
});

describe('token amounts', () => {
  it.each([
    ['-2500000', undefined, '-2,500,000 units (decimals unknown)'],
    ['2500000', 6, '2.5 tokens'],
    ['-1', 8, '-0.00000001 tokens'],
    ['1000', 0, '1,000 tokens'],
    ['123456789012345678901234567890', 2, '1,234,567,890,123,456,789,012,345,678.9 tokens'],
  ])('%s with decimals %s → %s', (amount, decimals, text) => expect(tokenUnits(amount, decimals)).toBe(text));

  it.each([
    [{ tokenId: '0.0.9', amount: '-1', serial: '7' }, 'NFT 0.0.9 #7 sent'],
    [{ tokenId: '0.0.9', amount: '1', serial: '7' }, 'NFT 0.0.9 #7 received'],
    [{ tokenId: '0.0.5', amount: '-300' }, '-300 units (decimals unknown) of 0.0.5'],
    [{ tokenId: '0.0.5', amount: '-293843768', decimals: 5, symbol: 'USDC' }, '-2,938.43768 USDC of 0.0.5'],
  ])('%j → %s', (move, text) => expect(tokenMoveText(move)).toBe(text));
});
