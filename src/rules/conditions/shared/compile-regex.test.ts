import { describe, expect, it } from 'vitest';
import { compileRegex, MAX_REGEX_LENGTH } from './compile-regex.js';

const LINEAR = 'rule regexes run on RE2, a linear-time engine; rewrite without it';

describe('compileRegex: accepted patterns match like unicode-mode RegExp', () => {
  it.each([
    ['^refund-\\d+$', '', 'refund-42', true],
    ['^refund-\\d+$', '', 'refund-', false],
    ['^(refund|payout)-\\d+$', '', 'payout-7', true],
    ['INVOICE', 'i', 'paid invoice 12', true],
    ['INVOICE', '', 'paid invoice 12', false],
    ['^ä+$', '', 'ää', true],
    ['\\p{L}{3}', '', 'ab1', false],
    ['[(?=]x', '', '(x', true],
    ['\\(\\?=', '', '(?=', true],
    ['^(\\w+\\s?)*$', '', `${'a'.repeat(49)}!`, false],
    ['^(\\w+\\s?)*$', '', 'aa bb cc', true],
    ['(a|aa)+$', '', `${'a'.repeat(5000)}b`, false],
    ['^$', '', '', true],
    ['x{1,100}', '', 'xx', true],
    ['(?:(?:\\w|\\W){1,10}){1,10}z', '', 'abz', true],
    ['\\u{1F600}{2}', '', '😀😀', true],
    ['^(?<word>\\w+)-\\d$', '', 'abc-1', true],
    ['[\\](]{1,100}', '', '](', true],
    ['a{0,}b', '', 'aaab', true],
  ] as const)('%s (flags %j) on %j → %s', (source, flags, text, expected) => {
    const compiled = compileRegex(source, flags);

    expect(compiled.ok && compiled.regex.test(text)).toBe(expected);
  });
});

describe('compileRegex: rejected patterns say why', () => {
  it.each([
    ['(?=a)b', `lookahead \`(?=\` at character 1 is not supported: ${LINEAR}`],
    ['a(?!b)', `negative lookahead \`(?!\` at character 2 is not supported: ${LINEAR}`],
    ['(?<=\\$)\\d+', `lookbehind \`(?<=\` at character 1 is not supported: ${LINEAR}`],
    ['(?<!x)y', `negative lookbehind \`(?<!\` at character 1 is not supported: ${LINEAR}`],
    ['(a)\\1', `backreference \`\\1\` at character 4 is not supported: ${LINEAR}`],
    ['(?<n>a)\\k<n>', `named backreference \`\\k<\` at character 8 is not supported: ${LINEAR}`],
    ['(unclosed', 'Unterminated group (JavaScript regular expression syntax, unicode mode)'],
    ['a\\1', 'Invalid escape (JavaScript regular expression syntax, unicode mode)'],
    ['a**', 'Nothing to repeat (JavaScript regular expression syntax, unicode mode)'],
    [
      '.{1,1000}x',
      'counted repetition `{1,1000}` at character 2 repeats up to 1000 times (nested counts multiply); the limit is 100 because RE2 unrolls counts into states; use + or * or a smaller count',
    ],
    [
      '(?:(?:\\w|\\W){1,30}){1,30}x',
      'counted repetition `{1,30}` at character 20 repeats up to 900 times (nested counts multiply); the limit is 100 because RE2 unrolls counts into states; use + or * or a smaller count',
    ],
    [
      '[\\](]{1,200}',
      'counted repetition `{1,200}` at character 6 repeats up to 200 times (nested counts multiply); the limit is 100 because RE2 unrolls counts into states; use + or * or a smaller count',
    ],
    [
      'a{100}b{100}c{100}d{100}e{1}',
      'counted repetitions add up to more than 400 (at `{1}`, character 26); RE2 unrolls counts into states; use + or * or smaller counts',
    ],
    [
      'a'.repeat(MAX_REGEX_LENGTH + 1),
      `256 characters at most, got 257; shorten it or split it over several rules`,
    ],
  ])('%s', (source, reason) => {
    expect(compileRegex(source)).toEqual({ ok: false, reason });
  });
});
