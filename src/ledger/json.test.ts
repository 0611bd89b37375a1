import { describe, expect, it } from 'vitest';
import { needsExactParse, parseJson, quoteUnsafeIntegers } from './json.js';

describe('parseJson', () => {
  it.each([
    ['{"amount":5000000000000000000}', 5000000000000000000n],
    ['{"amount":-9223372036847275807}', -9223372036847275807n],
    ['{"amount":9007199254740993}', 9007199254740993n],
    ['{"amount":9007199254740991}', 9007199254740991],
    ['{"amount":12}', 12],
    ['{"amount":1.5}', 1.5],
  ])('parses %s exactly', (text, amount) => {
    const parsed = parseJson(text) as { amount: unknown };

    expect(parsed.amount).toBe(amount);
  });

  it('keeps the fast path for pages without long digit runs', () => {
    const text = '{"consensus_timestamp":"1565779444.711927005","amount":123456789012345}';

    const fast = needsExactParse(text);

    expect(fast).toBe(false);
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('is not fooled by a long digit run inside a string', () => {
    const text = '{"memo":"12345678901234567890","amount":7}';

    const parsed = parseJson(text);

    expect(parsed).toEqual({ memo: '12345678901234567890', amount: 7 });
  });

  it('throws a SyntaxError on invalid JSON in both paths', () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":12345678901234567890')).toThrow();
  });
});

describe('quoteUnsafeIntegers', () => {
  it.each([
    ['{"a":5000000000000000000}', '{"a":"5000000000000000000"}'],
    ['[-9223372036847275807,1]', '["-9223372036847275807",1]'],
    ['{"a": 9007199254740993 }', '{"a": "9007199254740993" }'],
    ['{"a":9007199254740991}', '{"a":9007199254740991}'],
    ['{"a":12345678901234567.5,"b":1e300}', '{"a":12345678901234567.5,"b":1e300}'],
    ['{"m":"x:12345678901234567890","n":1}', '{"m":"x:12345678901234567890","n":1}'],
    [
      '{"m":"q\\"12345678901234567890\\\\","n":12345678901234567890}',
      '{"m":"q\\"12345678901234567890\\\\","n":"12345678901234567890"}',
    ],
  ])('%s → %s', (input, output) => {
    const quoted = quoteUnsafeIntegers(input);

    expect(quoted).toBe(output);
    expect(() => JSON.parse(quoted) as unknown).not.toThrow();
  });

  it('returns the same string when nothing needs quoting', () => {
    const text = '{"transactions":[{"amount":1}]}';

    expect(quoteUnsafeIntegers(text)).toBe(text);
  });
});
