import { describe, expect, it } from 'vitest';
import { literalPrefix, memo } from './memo.js';
import { Facts } from '../facts/facts.js';
import { WATCHED, memo as base64, tx } from '../../../test/fixtures/rules/records.js';

describe('literalPrefix: what every match of an anchored regex starts with', () => {
  it.each([
    ['^refund-\\d+$', 'refund-'],
    ['^bench-4-\\d+$', 'bench-4-'],
    ['^ab*', 'a'],
    ['^ab?c', 'a'],
    ['^ab+', 'a'],
    ['^ab{2}', 'a'],
    ['^a*', ''],
    ['^ab(?=c)', 'ab'],
    ['^ab.c', 'ab'],
    ['^a b:c,d;e=f@g#h%i&j!k~l\'m"n<o>p_q-r', 'a b:c,d;e=f@g#h%i&j!k~l\'m"n<o>p_q-r'],
    ['^ab|cd', ''],
    ['^a[|]', ''],
    ['refund', ''],
    ['^', ''],
    ['^\\d', ''],
    ['^(ab)', ''],
  ])('%s → %j', (source, expected) => {
    expect(literalPrefix(source)).toBe(expected);
  });
});

const REGEXES = ['^refund-\\d+$', '^ab*c', '^ab?', '^ab{2}', '^a|b', '^ab(?:c)', '^ab.', '^$', 'ab$', '^ä'];
const MEMOS = [
  '',
  'refund-12',
  'refund-',
  'xrefund-1',
  'ac',
  'abbc',
  'a',
  'ab',
  'abb',
  'b',
  'abc',
  'abd',
  'ä',
  'xab',
];

describe('memo regex with the prefix check: the regex alone decides', () => {
  it.each(REGEXES.flatMap((regex) => MEMOS.map((text) => [regex, text] as const)))(
    '%s on %j',
    (regex, text) => {
      const verdict = regexVerdict(regex, text);

      expect(verdict).toBe(new RegExp(regex, 'u').test(text));
    },
  );
});

describe('memo regex on RE2: catastrophic-backtracking patterns answer on hostile memos', () => {
  it.each([
    ['^(\\w+\\s?)*$', `${'a'.repeat(49)}!`, false],
    ['^(\\w+\\s?)*$', 'pay the rent now', true],
    ['^(a+)+$', `${'a'.repeat(1023)}!`, false],
    ['(x+x+)+y', 'x'.repeat(1024), false],
    ['^(a|a)*$', 'a'.repeat(1024), true],
  ])('%s on %j', (regex, text, expected) => {
    const verdict = regexVerdict(regex, text);

    expect(verdict).toBe(expected);
  });
});

/** What a memo condition with this regex answers on a transaction with this memo. */
function regexVerdict(regex: string, text: string): boolean | undefined {
  const predicate = memo.compile({ regex, ignore_case: false }, { compileTree: () => () => true });
  return predicate(
    new Facts({ source: 'transactions', record: tx({ memo_base64: base64(text) }), account: WATCHED }),
  );
}
