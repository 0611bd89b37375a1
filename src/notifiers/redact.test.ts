import { describe, expect, it } from 'vitest';
import { assertHttpUrl, redact } from './redact.js';

describe('redact', () => {
  it.each([
    ['token abc123xyz in text', ['abc123xyz'], 'token [redacted] in text'],
    ['url-encoded a%2Fb%3Dc', ['a/b=c'], 'url-encoded [redacted]'],
    ['short secrets are ignored: abc', ['abc'], 'short secrets are ignored: abc'],
    ['two s3cretA and s3cretB', ['s3cretA', 's3cretB'], 'two [redacted] and [redacted]'],
  ])('%j', (text, secrets, expected) => {
    expect(redact(text, secrets)).toBe(expected);
  });
});

describe('assertHttpUrl', () => {
  it.each(['https://hooks.slack.com/services/T/B/x', 'http://127.0.0.1:9/x'])('accepts %s', (url) => {
    expect(() => assertHttpUrl('n', 'url', url)).not.toThrow();
  });

  it.each(['hooks.slack.com/x', 'file:///etc/passwd', ''])('refuses %j without echoing it', (url) => {
    expect(() => assertHttpUrl('n', 'url', url)).toThrow(
      'notifier "n": url is not an http(s) URL (value hidden: it is a secret)',
    );
  });
});
