import { describe, expect, it } from 'vitest';
import { capText } from '../rules/alert/cap-text.js';
import { neutralizeText, shownText } from './neutralize.js';

describe('neutralizeText', () => {
  it.each([
    ['plain text', 'payroll 2024', 'payroll 2024'],
    ['NUL', 'a\u0000b', 'a\\u{0}b'],
    ['ANSI clear screen', '\u001b[2J\u001b[31mred', '\\u{1B}[2J\\u{1B}[31mred'],
    ['carriage return', 'ok\rFAKE', 'ok\\u{D}FAKE'],
    ['DEL and a C1 control', 'a\u007fb\u009bc', 'a\\u{7F}b\\u{9B}c'],
    ['right-to-left override', 'invoice\u202Efdp.exe', 'invoice\\u{202E}fdp.exe'],
    ['every bidi embedding and override', '\u202A\u202B\u202C\u202D', '\\u{202A}\\u{202B}\\u{202C}\\u{202D}'],
    ['bidi isolates', '\u2066x\u2067y\u2068z\u2069', '\\u{2066}x\\u{2067}y\\u{2068}z\\u{2069}'],
    ['arabic letter mark', 'a\u061Cb', 'a\\u{61C}b'],
    [
      'zero-width space, non-joiner, joiner, LRM, RLM',
      '\u200B\u200C\u200D\u200E\u200F',
      '\\u{200B}\\u{200C}\\u{200D}\\u{200E}\\u{200F}',
    ],
    ['word joiner and BOM', 'a\u2060b\uFEFFc', 'a\\u{2060}b\\u{FEFF}c'],
    ['soft hyphen', 'pay\u00ADroll', 'pay\\u{AD}roll'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u{2028}b\\u{2029}c'],
    ['tag characters (invisible ASCII)', 'x\u{E0041}\u{E0042}', 'x\\u{E0041}\\u{E0042}'],
    ['a lone surrogate', 'a\uD800b', 'a\\u{D800}b'],
    ['a Hangul filler', 'a\u3164b', 'a\\u{3164}b'],
    ['newline and tab in single-line text', 'a\nb\tc', 'a\\u{A}b\\u{9}c'],
    ['emoji and accents stay', 'café 🚀 日本', 'café 🚀 日本'],
    ['an encoded-word stays literal text', '=?utf-8?B?SGk=?=', '=?utf-8?B?SGk=?='],
  ])('%s', (_name, input, expected) => {
    expect(neutralizeText(input)).toBe(expected);
  });

  it('keeps newlines and tabs when multiline, and still escapes CR', () => {
    expect(neutralizeText('a\r\nb\tc', { multiline: true })).toBe('a\\u{D}\nb\tc');
  });
});

describe('capText and shownText', () => {
  it.each([
    ['short text unchanged', 'abc', 5, 'abc'],
    ['exactly the limit unchanged', 'abcde', 5, 'abcde'],
    ['longer text cut with a count', 'abcdefgh', 5, 'abcde… (3 more characters)'],
    ['never half a surrogate pair', 'abcd🚀x', 5, 'abcd… (3 more characters)'],
    [
      'capped text keeps its total count',
      'abcdefgh… (100 more characters)',
      5,
      'abcde… (103 more characters)',
    ],
  ])('%s', (_name, input, max, expected) => {
    expect(capText(input, max)).toBe(expected);
  });

  it('shows a 1 MB memo as 256 characters and a count', () => {
    const memo = '\u202E'.repeat(1_000_000);

    const shown = shownText(memo, 256);

    expect(shown).toBe(`${'\\u{202E}'.repeat(256)}… (999744 more characters)`);
  });
});
