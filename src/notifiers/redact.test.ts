import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';
import { RECEIVER_SAID_MAX, receiverSaid } from './receiver-said.js';

describe('redact', () => {
  it.each([
    ['token abc123xyz in text', ['abc123xyz'], 'token [redacted] in text'],
    ['url-encoded a%2Fb%3Dc', ['a/b=c'], 'url-encoded [redacted]'],
    ['short secrets are ignored: abc', ['abc'], 'short secrets are ignored: abc'],
    ['two s3cretA and s3cretB', ['s3cretA', 's3cretB'], 'two [redacted] and [redacted]'],
    // Credential shapes go whether configured or not: a Telegram bot token in a request path, Slack tokens.
    [
      'POST /bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage failed',
      [],
      'POST /bot[redacted]/sendMessage failed',
    ],
    ['token xoxb-1234-5678-AbCdEfGhIj in a header', [], 'token [redacted] in a header'],
    ['app token xapp-1-A0123-4567-abcdef', [], 'app token [redacted]'],
    ['a time 1700000000:12 and 0.0.1234 stay', [], 'a time 1700000000:12 and 0.0.1234 stay'],
  ])('%j', (text, secrets, expected) => {
    expect(redact(text, secrets)).toBe(expected);
  });
});

describe('receiverSaid: what a receiver answered, fit to show', () => {
  it.each([
    [
      '{"errors":["Invalid routing key R0UT1NG"]}',
      ['R0UT1NG'],
      '{"errors":["Invalid routing key [redacted]"]}',
    ],
    ['Key GenieKey%20abc%2F123 refused', ['GenieKey abc/123'], 'Key [redacted] refused'],
    ['bad\u001b[31m\u202Ekey\r\nX-Injected: 1', [], 'bad\\u{1B}[31m\\u{202E}key\\u{D}\\u{A}X-Injected: 1'],
  ])('%j', (text, secrets, expected) => {
    expect(receiverSaid(text, secrets)).toBe(expected);
  });

  it('caps a huge answer', () => {
    const said = receiverSaid('x'.repeat(100_000), []);

    expect(said).toBe(`${'x'.repeat(RECEIVER_SAID_MAX)}… (${100_000 - RECEIVER_SAID_MAX} more characters)`);
  });
});
