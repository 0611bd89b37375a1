import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';

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
