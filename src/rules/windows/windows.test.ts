// withItemAt: the one-allocation insert that out-of-order matches use on window and pending times.
import { describe, expect, it } from 'vitest';
import { withItemAt } from './windows.js';

describe('withItemAt', () => {
  it('inserts at the start, the middle and the end, leaving the input as it was', () => {
    const list = Object.freeze([10n, 20n, 30n]);
    expect(withItemAt(list, 0, 5n)).toEqual([5n, 10n, 20n, 30n]);
    expect(withItemAt(list, 2, 25n)).toEqual([10n, 20n, 25n, 30n]);
    expect(withItemAt(list, 3, 35n)).toEqual([10n, 20n, 30n, 35n]);
    expect(list).toEqual([10n, 20n, 30n]);
  });

  it('returns a new array of exactly one more element, with no holes', () => {
    const out = withItemAt([], 0, 'a');
    expect(out).toEqual(['a']);
    const longer = withItemAt(['a', 'c'], 1, 'b');
    expect(longer).toHaveLength(3);
    expect(Object.keys(longer)).toEqual(['0', '1', '2']);
  });
});
