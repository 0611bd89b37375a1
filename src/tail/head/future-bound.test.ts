// The clamp every state-moving timestamp goes through: table-driven, edges included.
import { describe, expect, it } from 'vitest';
import {
  clampCursor,
  clampTimestamp,
  futureBound,
  isBeyond,
  newestTrusted,
  secondsAhead,
} from './future-bound.js';

const NOW_MS = 1_700_000_000_000;
const NOW = 1_700_000_000_000_000_000n;
const S = 1_000_000_000n;
const YEAR_2100 = 4_102_444_800_000_000_000n;

describe('futureBound', () => {
  it.each([
    [0, NOW],
    [1, NOW + 1_000_000n],
    [300_000, NOW + 300n * S],
    [3_600_000, NOW + 3600n * S],
  ])('now + %i ms of skew is %s ns', (skewMs, bound) => {
    expect(futureBound(NOW_MS, skewMs)).toBe(bound);
  });
});

describe('isBeyond / clampTimestamp', () => {
  const bound = NOW + 300n * S;
  it.each([
    ['well in the past', NOW - 86_400n * S, false, NOW - 86_400n * S],
    ['now', NOW, false, NOW],
    ['within the skew', NOW + 299n * S, false, NOW + 299n * S],
    ['exactly at the bound', bound, false, bound],
    ['one nanosecond beyond', bound + 1n, true, bound],
    ['the year 2100', YEAR_2100, true, bound],
    ['the largest 10-digit timestamp', 9_999_999_999_999_999_999n, true, bound],
  ])('%s', (_name, ts, beyond, clamped) => {
    expect(isBeyond(ts, bound)).toBe(beyond);
    expect(clampTimestamp(ts, bound)).toBe(clamped);
  });
});

describe('newestTrusted', () => {
  const bound = NOW + 300n * S;
  it.each([
    ['a newer record within the bound moves it', NOW - S, NOW, NOW],
    ['an older record does not', NOW, NOW - S, NOW],
    ['a record beyond the bound does not', NOW, YEAR_2100, NOW],
    ['one nanosecond beyond does not', NOW, bound + 1n, NOW],
    ['the bound itself does', NOW, bound, bound],
  ])('%s', (_name, current, ts, expected) => {
    expect(newestTrusted(current, ts, bound)).toBe(expected);
  });
});

describe('clampCursor', () => {
  const bound = NOW + 300n * S;
  it.each([
    ['untouched below', { safe: NOW - S, read: NOW }, { safe: NOW - S, read: NOW }],
    ['read beyond', { safe: NOW - S, read: YEAR_2100 }, { safe: NOW - S, read: bound }],
    ['both beyond', { safe: YEAR_2100, read: YEAR_2100 }, { safe: bound, read: bound }],
  ])('%s', (_name, cursor, expected) => {
    expect(clampCursor(cursor, bound)).toEqual(expected);
  });
});

describe('secondsAhead', () => {
  it.each([
    [NOW - S, 0],
    [NOW, 0],
    [NOW + 90n * S + 999_999_999n, 90],
    [YEAR_2100, 2_402_444_800],
  ])('%s ns is %i s ahead', (ts, seconds) => {
    expect(secondsAhead(ts, NOW_MS)).toBe(seconds);
  });
});
