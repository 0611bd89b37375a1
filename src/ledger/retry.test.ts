import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  classifyNetworkError,
  DEFAULT_RETRY,
  parseRetryAfter,
  retryDelay,
  retryReasonForStatus,
} from './retry.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('retry policy', () => {
  it.each([
    ['5', 5000],
    [' 0 ', 0],
    ['Thu, 01 Jan 2026 00:00:30 GMT', 30_000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
    ['soon', undefined],
    ['-3', undefined],
    [undefined, undefined],
  ])('Retry-After %s → %s ms', (header, ms) => {
    expect(parseRetryAfter(header, NOW)).toBe(ms);
  });

  it.each([
    [1, 0.5, 125],
    [2, 0.5, 250],
    [3, 1, 1000],
    [20, 1, 30_000],
    [4, 0, 0],
  ])('backoff of retry %i with random %d is %i ms', (retry, random, ms) => {
    expect(backoffDelay(retry, DEFAULT_RETRY, () => random)).toBe(ms);
  });

  it('prefers Retry-After over backoff and caps it', () => {
    expect(retryDelay(1, 4000, DEFAULT_RETRY, () => 1)).toBe(4000);
    expect(retryDelay(1, 3_600_000, DEFAULT_RETRY, () => 1)).toBe(30_000);
  });

  it.each([
    [429, 'rate-limited'],
    [500, 'server'],
    [503, 'server'],
    [400, undefined],
    [404, undefined],
    [413, undefined],
  ])('status %i → %s', (status, reason) => {
    expect(retryReasonForStatus(status)).toBe(reason);
  });

  it.each([
    [Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), 'timeout'],
    [Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }), 'timeout'],
    [new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }), 'reset'],
    [Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET' }), 'reset'],
    [new Error('plain'), undefined],
    [new SyntaxError('bad json'), undefined],
  ])('classifies %s', (err, reason) => {
    expect(classifyNetworkError(err)).toBe(reason);
  });
});
