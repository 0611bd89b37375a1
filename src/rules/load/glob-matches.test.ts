import { describe, expect, it } from 'vitest';
import { globMatches } from './glob-matches.js';

describe('globMatches: * and ? in rule file names', () => {
  it.each([
    ['*.yaml', 'large-debit.yaml', true],
    ['*.yaml', 'large-debit.yml', false],
    ['*.yaml', '.yaml', true],
    ['rule-?.yaml', 'rule-1.yaml', true],
    ['rule-?.yaml', 'rule-12.yaml', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['*', '', true],
    ['', '', true],
    ['', 'a', false],
    ['a.yaml', 'a.yaml', true],
    ['a.yaml', 'abyaml', false],
    ['(x)+.yaml', '(x)+.yaml', true],
    ['**a', 'bba', true],
  ])('%s against %j → %s', (pattern, name, expected) => {
    expect(globMatches(pattern, name)).toBe(expected);
  });

  it('answers a many-star pattern against a long non-matching name (a backtracking regex would not return)', () => {
    const pattern = `${'*a'.repeat(30)}*b`;
    const name = 'a'.repeat(250);

    expect(globMatches(pattern, name)).toBe(false);
  });
});
