import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from './errors.js';
import { actionsUrl, rewardsUrl, transactionsUrl, type TransactionsQuery } from './query.js';
import { TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';

describe('transactionsUrl', () => {
  it.each<[TransactionsQuery, string]>([
    [{}, '/api/v1/transactions'],
    [{ accountId: '0.0.1234' }, '/api/v1/transactions?account.id=0.0.1234'],
    [{ accountId: ['8', { op: 'eq', value: '0.9' }] }, '/api/v1/transactions?account.id=8&account.id=0.9'],
    [
      {
        accountId: [
          { op: 'gte', value: '0.0.8' },
          { op: 'lte', value: '0.0.9' },
        ],
      },
      '/api/v1/transactions?account.id=gte:0.0.8&account.id=lte:0.0.9',
    ],
    [
      { accountId: { op: 'ne', value: '0x0000000000000000000000000000000000000064' } },
      '/api/v1/transactions?account.id=ne:0x0000000000000000000000000000000000000064',
    ],
    [
      { accountId: '1.2.0000000000000000000000000000000000000064' },
      '/api/v1/transactions?account.id=1.2.0000000000000000000000000000000000000064',
    ],
    [
      { timestamp: { op: 'gt', value: '1565779444.711927005' } },
      '/api/v1/transactions?timestamp=gt:1565779444.711927005',
    ],
    [
      {
        timestamp: [
          { op: 'gte', value: 1500000000n },
          { op: 'lt', value: '2' },
        ],
      },
      '/api/v1/transactions?timestamp=gte:1.500000000&timestamp=lt:2',
    ],
    [{ timestamp: { op: 'ne', value: '1.5' } }, '/api/v1/transactions?timestamp=ne:1.5'],
    [{ limit: 1, order: 'asc' }, '/api/v1/transactions?limit=1&order=asc'],
    [{ limit: 100, order: 'DESC' as 'desc' }, '/api/v1/transactions?limit=100&order=desc'],
    [
      { transactionType: ['cryptotransfer', 'ATOMICBATCH'] },
      '/api/v1/transactions?transactiontype=CRYPTOTRANSFER&transactiontype=ATOMICBATCH',
    ],
    [{ result: 'fail', type: 'credit' }, '/api/v1/transactions?result=fail&type=credit'],
  ])('%o → %s', (query, url) => {
    expect(transactionsUrl(query)).toBe(url);
  });

  it.each(TRANSACTION_TYPES.filter((t) => t !== 'UNKNOWN' && t !== 'NODE'))(
    'accepts transactiontype %s',
    (type) => {
      expect(transactionsUrl({ transactionType: type })).toContain(`transactiontype=${type}`);
    },
  );

  it.each<[string, TransactionsQuery, string]>([
    ['account.id', { accountId: '0.x' }, 'expected shard.realm.num'],
    ['account.id', { accountId: '0.0.274877906944' }, 'Invalid entity ID "0.0.274877906944"'],
    ['account.id', { accountId: '1024.0.1' }, 'Invalid entity ID'],
    [
      'account.id',
      { accountId: 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA' },
      'aliases are not accepted',
    ],
    ['account.id', { accountId: { op: 'like' as 'eq', value: '8' } }, 'operator must be one of'],
    ['account.id', { accountId: Array.from({ length: 101 }, () => '8') }, 'at most 100'],
    ['timestamp', { timestamp: { op: 'gt', value: '-1' } }, 'expected seconds'],
    ['timestamp', { timestamp: { op: 'gt', value: '12345678901' } }, 'expected seconds'],
    ['timestamp', { timestamp: { op: 'gt', value: '1.1234567890' } }, 'expected seconds'],
    ['timestamp', { timestamp: { op: 'gt', value: 'abc.def' } }, 'expected seconds'],
    ['timestamp', { timestamp: { op: 'gt', value: -1n } }, 'expected seconds'],
    ['limit', { limit: 0 }, 'from 1 to 100'],
    ['limit', { limit: -5 }, 'from 1 to 100'],
    ['limit', { limit: 2.5 }, 'from 1 to 100'],
    ['limit', { limit: 101 }, 'caps it silently'],
    ['limit', { limit: '5' as unknown as number }, 'from 1 to 100'],
    ['order', { order: 'up' as 'asc' }, 'one of asc, desc'],
    ['transactiontype', { transactionType: 'UNKNOWN' }, 'the service rejects it'],
    ['transactiontype', { transactionType: 'node' }, 'the service rejects it'],
    ['transactiontype', { transactionType: 'invalid' }, 'not a type name'],
    ['result', { result: 'best' as 'fail' }, 'one of success, fail'],
    ['type', { type: 'good' as 'credit' }, 'one of credit, debit'],
  ])('rejects %s in %o', (parameter, query, message) => {
    const act = () => transactionsUrl(query);

    expect(act).toThrow(InvalidParameterError);
    expect(act).toThrow(message);
    expect(() => transactionsUrl(query)).toThrow(expect.objectContaining({ parameter }) as Error);
  });
});

describe('rewardsUrl', () => {
  it.each([
    ['0.0.1001', {}, '/api/v1/accounts/0.0.1001/rewards'],
    ['1001', { limit: 2, order: 'asc' as const }, '/api/v1/accounts/1001/rewards?limit=2&order=asc'],
    [
      '0x0000000000000000000000000000000000000065',
      {},
      '/api/v1/accounts/0x0000000000000000000000000000000000000065/rewards',
    ],
    [
      '0.0.0000000000000000000000000000000000000065',
      {},
      '/api/v1/accounts/0.0.0000000000000000000000000000000000000065/rewards',
    ],
    [
      'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ',
      {},
      '/api/v1/accounts/KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ/rewards',
    ],
    ['0.0.AABBCCDD', {}, '/api/v1/accounts/0.0.AABBCCDD/rewards'],
    [
      '1001',
      {
        timestamp: [
          { op: 'eq' as const, value: '1.5' },
          { op: 'lte' as const, value: '2' },
        ],
      },
      '/api/v1/accounts/1001/rewards?timestamp=1.5&timestamp=lte:2',
    ],
  ])('%s %o → %s', (account, query, url) => {
    expect(rewardsUrl(account, query)).toBe(url);
  });

  it.each([
    ['ABC', {}, 'idOrAliasOrEvmAddress'],
    ['abcdefgh', {}, 'idOrAliasOrEvmAddress'],
    ['1.0.AABBCCDD', {}, 'idOrAliasOrEvmAddress'],
    ['0.0.1001/../x', {}, 'idOrAliasOrEvmAddress'],
    ['0x00000000000000000000000000000000000000651', {}, 'idOrAliasOrEvmAddress'],
    ['1001', { timestamp: { op: 'ne' as 'eq', value: '1' } }, 'timestamp'],
    ['1001', { limit: 1000 }, 'limit'],
  ])('rejects %s %o naming %s', (account, query, parameter) => {
    expect(() => rewardsUrl(account, query)).toThrow(expect.objectContaining({ parameter }) as Error);
  });

  it('explains the ne rejection like the service', () => {
    expect(() => rewardsUrl('1001', { timestamp: { op: 'ne', value: '1' } })).toThrow(
      'Not equals (ne) operator is not supported for timestamp',
    );
  });
});

describe('actionsUrl', () => {
  const HASH = 'a'.repeat(64);

  it.each([
    ['0.0.5001-1676540001-234390005', {}, '/api/v1/contracts/results/0.0.5001-1676540001-234390005/actions'],
    [
      `0x${HASH}`,
      { index: { op: 'gte' as const, value: 1 } },
      `/api/v1/contracts/results/0x${HASH}/actions?index=gte:1`,
    ],
    [
      HASH.toUpperCase(),
      { index: [2, { op: 'lt' as const, value: 5 }], limit: 1, order: 'desc' as const },
      `/api/v1/contracts/results/${HASH.toUpperCase()}/actions?index=2&index=lt:5&limit=1&order=desc`,
    ],
  ])('%s %o → %s', (id, query, url) => {
    expect(actionsUrl(id, query)).toBe(url);
  });

  it.each([
    ['0.0.5001@1676540001.234390005', {}, 'transactionIdOrHash', 'a 64-hex hash'],
    ['b'.repeat(96), {}, 'transactionIdOrHash', 'first 64 hex digits'],
    ['0.0.5001-1676540001-1234567890', {}, 'transactionIdOrHash', 'transaction id'],
    [HASH, { index: { op: 'ne' as 'eq', value: 1 } }, 'index', 'operator must be one of'],
    [HASH, { index: -1 }, 'index', 'from 0 to 2147483647'],
    [HASH, { index: 1.5 }, 'index', 'from 0 to 2147483647'],
    [HASH, { limit: 0 }, 'limit', 'from 1 to 100'],
  ])('rejects %s %o naming %s', (id, query, parameter, message) => {
    const act = () => actionsUrl(id, query);

    expect(act).toThrow(expect.objectContaining({ parameter }) as Error);
    expect(act).toThrow(message);
  });
});
