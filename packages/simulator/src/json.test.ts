import { describe, expect, it } from 'vitest';
import { serializeJson } from './json.js';

describe('serializeJson', () => {
  it('writes bigints as exact bare integers', () => {
    const text = serializeJson({ amount: 9223372036847275807n, debit: -9223372036847275808n, n: 1 });

    expect(text).toBe('{"amount":9223372036847275807,"debit":-9223372036847275808,"n":1}');
  });

  it('matches JSON.stringify on plain data and skips undefined members', () => {
    const value = { s: 'a"\\\u2028', list: [1, null, true, { x: 'y' }], none: null, gone: undefined };

    expect(serializeJson(value)).toBe(JSON.stringify(value));
  });
});
