import { describe, expect, it } from 'vitest';
import { compareAlerts } from './compare-alerts.js';
import { formatObserved, yamlString } from './format-alert.js';
import { ownSummary } from './own-summary.js';
import type { Expect } from './schema.js';
import type { Observed } from './types.js';

const observed = (atNs: bigint, summary: string, state: Observed['state'] = 'firing'): Observed => ({
  atNs,
  rule: 'r',
  accountId: '0.0.1',
  accountName: 'hot',
  state,
  summary,
});
const expect_ = (over: Partial<Expect>): Expect => ({ rule: 'r', state: 'firing', ...over });
const at = (ns: bigint) => ({ kind: 'after' as const, ns, text: `+${ns}ns` });

describe('compareAlerts', () => {
  it('matches each expectation to one alert, so a loose one cannot take the alert a precise one needs', () => {
    const got = [observed(0n, 'a'), observed(5n, 'b')];
    const expected = [expect_({}), expect_({ at: at(0n), summary: 'a' })];

    const result = compareAlerts(expected, got, 0n);

    expect(result).toEqual({ mismatches: [], unexpected: [] });
  });

  it('shows a missing expectation beside the closest unmatched alert of its rule, with the fields that differ', () => {
    const got = [observed(0n, 'a'), observed(5n, 'b', 'resolved'), observed(9n, 'c')];
    const expected = [
      expect_({ at: at(5n), state: 'firing', summary: 'b' }),
      expect_({ account: 'hot', summary: 'a' }),
    ];

    const result = compareAlerts(expected, got, 0n);

    expect(result.mismatches).toEqual([{ expected: 0, closest: got[1], differs: ['state'] }]);
    expect(result.unexpected).toEqual([got[2]]);
  });

  it('an expectation of another rule has no closest alert', () => {
    const result = compareAlerts([expect_({ rule: 'other' })], [observed(0n, 'a')], 0n);

    expect(result.mismatches).toEqual([{ expected: 0, closest: undefined, differs: [] }]);
  });
});

describe('own summary and diff lines', () => {
  it.each([
    ['\uE000a: b\uE001', 'a: b'],
    ['RESOLVED: \uE000a: b\uE001', 'a: b'],
    ['\uE000cut off… (5 more characters)', 'cut off… (5 more characters)'],
    ['no marks', 'no marks'],
  ])('reads the rule template out of %j', (summary, own) => {
    expect(ownSummary(summary)).toBe(own);
  });

  it.each([
    ['0.0.1234', '0.0.1234'],
    ['large-debit', 'large-debit'],
    ['+1h', '+1h'],
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ['true', "'true'"],
    ['1.5', "'1.5'"],
    ['', "''"],
    ["it's: fine", "'it''s: fine'"],
    ['a\nb', '"a\\nb"'],
    ['x\u202ey\u0007', '"x\\u202ey\\u0007"'],
  ])('quotes %j as %s', (text, yaml) => {
    expect(yamlString(text)).toBe(yaml);
  });

  it('prints an alert in the time and account form of the expectation beside it', () => {
    const o = observed(1_767_225_600_000_000_000n, 'x');

    const relative = formatObserved(o, 1_767_225_599_000_000_000n);
    const absolute = formatObserved(o, 0n, {
      ...expect_({ account: 'hot' }),
      at: { kind: 'at', ns: 0n, text: '1970-01-01T00:00:00Z' },
    });

    expect(relative).toBe('{ at: +1s, rule: r, account: 0.0.1, state: firing, summary: x }');
    expect(absolute).toBe('{ at: 2026-01-01T00:00:00Z, rule: r, account: hot, state: firing, summary: x }');
  });
});
