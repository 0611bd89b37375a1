import { describe, expect, it } from 'vitest';
import { checkHttpStatus, errorCode, parseRetryAfter } from './http-status.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('checkHttpStatus', () => {
  it.each([
    [200, undefined, undefined],
    [204, undefined, undefined],
    [429, '3', { retryable: true, retryAfterMs: 3000, reason: 'http_429' }],
    [503, 'Thu, 01 Jan 2026 00:01:00 GMT', { retryable: true, retryAfterMs: 60_000, reason: 'http_503' }],
    [500, undefined, { retryable: true, retryAfterMs: undefined, reason: 'http_500' }],
    [408, undefined, { retryable: true, reason: 'http_408' }],
    [400, '5', { retryable: false, retryAfterMs: undefined, reason: 'http_400' }],
    [404, undefined, { retryable: false, reason: 'http_404' }],
    [301, undefined, { retryable: false, reason: 'http_301' }],
    [429, '3600', { retryable: true, retryAfterMs: 60_000, askedRetryAfterMs: 3_600_000 }],
  ])('HTTP %i (Retry-After %j)', (status, retryAfter, expected) => {
    const thrown = (() => {
      try {
        checkHttpStatus('receiver', status, retryAfter, NOW);
        return undefined;
      } catch (err) {
        return err;
      }
    })();

    if (expected === undefined) expect(thrown).toBeUndefined();
    else expect(thrown).toMatchObject(expected);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    [null, undefined],
    ['', undefined],
    ['0', 0],
    ['1.5', 1500],
    ['soon', undefined],
    ['Wed, 31 Dec 2025 23:00:00 GMT', 0],
    [' 120 ', 120_000],
    ['-5', undefined],
    ['3600, 60', undefined],
    ['1e3', undefined],
    ['99999999999999999999999', 86_400_000],
    ['Thu, 01 Jan 2026 02:00:00 GMT', 7_200_000],
    ['Fri, 99 Foo 2026 25:00:00 GMT', undefined],
    ['x'.repeat(10_000), undefined],
  ])('%j → %j', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});

describe('errorCode', () => {
  it('finds the code on the error or its causes, and nothing else', () => {
    const nested = new TypeError('fetch failed https://secret', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });

    expect(errorCode(nested)).toBe('ECONNREFUSED');
    expect(errorCode(Object.assign(new Error('x'), { code: 'has spaces https://x' }))).toBe('UNKNOWN');
    expect(errorCode('not an error')).toBe('UNKNOWN');
  });
});

describe('every non-2xx status says what happened and what to do', () => {
  it.each([
    [307, /redirects, and redirects are not followed \(permanent; set the final URL/],
    [301, /redirects/],
    [401, /refused our credentials/],
    [404, /webhook was removed or the URL is wrong/],
    [410, /webhook was removed/],
    [413, /message size/],
    [429, /rate limited/],
    [503, /server error\); will retry/],
    [418, /rejected the request \(permanent/],
    [999, /not a valid HTTP status/],
    [102, /informational/],
  ])('HTTP %i', (status, pattern) => {
    let message = '';
    try {
      checkHttpStatus('Slack webhook of notifier "ops"', status, null, NOW);
    } catch (err) {
      message = (err as Error).message;
    }

    expect(message).toMatch(new RegExp(`^Slack webhook of notifier "ops" answered HTTP ${status}: `));
    expect(message).toMatch(pattern);
  });
});
