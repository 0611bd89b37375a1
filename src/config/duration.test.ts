import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { duration, parseDuration } from './duration.js';
import { validate } from './validate.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['2s', 2000],
    ['10m', 600_000],
    ['26h', 93_600_000],
    ['7d', 604_800_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['0s', 0],
  ])('%s → %i ms', (text, ms) => {
    const parsed = parseDuration(text);

    expect(parsed).toBe(ms);
  });

  it.each([
    '',
    '2',
    's',
    '2 seconds',
    '2S',
    '-1s',
    ' 2s',
    '2s ',
    '1h 30m',
    '1w',
    '1e3s',
    '99999999999999999d',
  ])('rejects %j', (text) => {
    const parsed = parseDuration(text);

    expect(parsed).toBeUndefined();
  });
});

describe('duration()', () => {
  it.each([
    ['2 seconds', 'expected a duration like "2s" or "10m", got "2 seconds"'],
    [2, 'expected a duration like "2s" or "10m", got 2 (a number needs a unit: ms, s, m, h or d)'],
    [true, 'expected a duration like "2s" or "10m", got true'],
    ['0s', 'must be at least 1s, got "0s"'],
    ['2d', 'must be at most 1d, got "2d"'],
  ])('%j → %s', (input, message) => {
    const schema = duration({ min: '1s', max: '1d' });

    const result = validate(schema, input);

    expect(result.ok ? [] : result.issues.map((issue) => issue.message)).toEqual([message]);
  });

  it('parses to milliseconds', () => {
    const schema = duration();

    const result = schema.parse('1m30s');

    expect(result).toBe(90_000);
  });

  it('words a missing duration as a missing key', () => {
    const schema = z.strictObject({ every: duration() });

    const result = validate(schema, {});

    expect(result.ok ? [] : result.issues.map((issue) => issue.message)).toEqual([
      'missing required key "every"; add it at the top level',
    ]);
  });
});
