import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';

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
