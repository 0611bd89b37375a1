import { describe, expect, it } from 'vitest';
import { escapeLinkUrl, escapeMrkdwn, truncateEscaped, plainText } from './escape.js';

const Z = '\u200b';

describe('escapeMrkdwn', () => {
  it.each([
    ['<!channel>', '&lt;!channel&gt;'],
    ['<@U123>', '&lt;@U123&gt;'],
    ['<https://evil|click>', '&lt;https://evil|click&gt;'],
    ['<!subteam^S1>', '&lt;!subteam^S1&gt;'],
    ['a & b', 'a &amp; b'],
    ['&lt;', '&amp;lt;'],
    ['@here please', `@${Z}here please`],
    ['@channel @everyone', `@${Z}channel @${Z}everyone`],
    ['*bold*', `${Z}*${Z}bold${Z}*${Z}`],
    ['`code`', `${Z}\`${Z}code${Z}\`${Z}`],
    ['mail@example.com', 'mail@example.com'],
    ['INSUFFICIENT_ACCOUNT_BALANCE', 'INSUFFICIENT_ACCOUNT_BALANCE'],
    ['_italic_ ~strike~', `${Z}_${Z}italic${Z}_${Z} ${Z}~${Z}strike${Z}~${Z}`],
    ['plain memo', 'plain memo'],
  ])('%j → %j', (input, expected) => {
    const escaped = escapeMrkdwn(input);

    expect(escaped).toBe(expected);
  });

  it('leaves no Slack control sequence in any hostile input', () => {
    const hostile = '<!channel> <@U1> <#C1> <!here> <https://evil|x> @here';

    const escaped = escapeMrkdwn(hostile);

    expect(escaped).not.toMatch(/[<>]/);
    expect(escaped).not.toMatch(/@here/);
  });
});

describe('escapeLinkUrl', () => {
  it('cannot be split into a different label or target', () => {
    const url = 'https://x/a?b=1&c=2|evil>';

    const escaped = escapeLinkUrl(url);

    expect(escaped).toBe('https://x/a?b=1&amp;c=2%7Cevil%3E');
  });
});

describe('truncateEscaped', () => {
  it('keeps short text', () => {
    expect(truncateEscaped('abc', 10)).toBe('abc');
  });

  it('marks the cut and never splits an entity', () => {
    const text = 'x'.repeat(5) + '&amp;' + 'y'.repeat(20);

    const cut = truncateEscaped(text, 14, '…(cut)');

    expect(cut).toBe('xxxxx…(cut)');
    expect(cut.length).toBeLessThanOrEqual(14);
  });
});

describe('plainText (a plain_text object: Slack shows it as is)', () => {
  it('leaves <, > and & alone: entities would show as &gt; in a header', () => {
    expect(plainText('1 match in 30s < 2 & <!channel> > 0', 150)).toBe('1 match in 30s < 2 & <!channel> > 0');
  });

  it('keeps the text on one line', () => {
    expect(plainText('first\n  second\r\nthird', 150)).toBe('first second third');
  });

  it('caps with a visible marker and never splits a surrogate pair', () => {
    const cut = plainText(`${'x'.repeat(8)}😀yyyy`, 10);

    expect([cut, cut.length <= 10]).toEqual([`${'x'.repeat(8)}…`, true]);
  });
});
