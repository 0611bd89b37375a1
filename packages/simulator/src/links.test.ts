import { describe, expect, it } from 'vitest';
import { buildNextLink } from './links.js';
import { parseQuery } from './params.js';

function link(url: string, field: string, order: 'asc' | 'desc', cursor: string): string {
  const [path = '', query = ''] = url.split('?');
  return buildNextLink({ path, params: parseQuery(query), field, order, cursor });
}

describe('buildNextLink (docs/ledger-api.md §11.3)', () => {
  it.each([
    [
      '/api/v1/transactions?limit=2',
      'desc',
      '1565779600.711927001',
      '/api/v1/transactions?limit=2&timestamp=lt:1565779600.711927001',
    ],
    [
      '/api/v1/transactions?timestamp=gte:1565779209.711927001&order=desc&limit=1',
      'desc',
      '1565779333.711927001',
      '/api/v1/transactions?timestamp=gte:1565779209.711927001&timestamp=lt:1565779333.711927001&order=desc&limit=1',
    ],
    [
      '/api/v1/transactions?timestamp=gte:A&timestamp=lte:B&order=desc&limit=2',
      'desc',
      'C',
      '/api/v1/transactions?timestamp=gte:A&timestamp=lt:C&order=desc&limit=2',
    ],
    [
      '/api/v1/accounts/0.1001/rewards?timestamp=gte:0&order=asc&limit=2',
      'asc',
      'X',
      '/api/v1/accounts/0.1001/rewards?order=asc&limit=2&timestamp=gt:X',
    ],
    [
      '/api/v1/transactions?timestamp=1.000000001&limit=1',
      'desc',
      '1.000000001',
      '/api/v1/transactions?timestamp=1.000000001&limit=1',
    ],
    [
      '/api/v1/transactions?timestamp=ne:5&timestamp=6&limit=1',
      'desc',
      '9',
      '/api/v1/transactions?timestamp=ne:5&timestamp=6&limit=1',
    ],
    [
      '/api/v1/transactions/?Limit=1000&type=CREDIT&ORDER=ASC',
      'asc',
      '7',
      '/api/v1/transactions?limit=1000&type=CREDIT&order=asc&timestamp=gt:7',
    ],
  ] as const)('%s', (url, order, cursor, expected) => {
    expect(link(url, 'timestamp', order, cursor)).toBe(expected);
  });

  it('rewrites index cursors of the actions route the same way', () => {
    expect(link('/x/actions?index=lt:3&order=desc&limit=1', 'index', 'desc', '2')).toBe(
      '/x/actions?order=desc&limit=1&index=lt:2',
    );
  });
});
