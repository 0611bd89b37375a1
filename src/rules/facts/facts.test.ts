import { describe, expect, it } from 'vitest';
import { Facts, RecordFacts, cachedMemoDecoder, decodeMemo } from './facts.js';
import { OTHER, WATCHED, memo, transfer } from '../../../test/fixtures/rules/records.js';

const viaBuffer = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

describe('decodeMemo: what Buffer decodes, faster for ASCII', () => {
  it.each([
    ['ASCII', memo('refund-42 for invoice 7')],
    ['one padding character', memo('ab')],
    ['two padding characters', memo('a')],
    ['no padding', memo('abc')],
    ['UTF-8', memo('zahlung für März ✓')],
    ['latin1 bytes that are not UTF-8', Buffer.from([0x41, 0xe9, 0x42]).toString('base64')],
    ['a NUL byte', memo('a\u0000b')],
    ['missing padding', 'YWI'],
    ['whitespace inside', 'YW Jj\nZA=='],
    ['url-safe alphabet', 'a-_b'],
    ['padding in the middle', 'YQ==YQ=='],
    ['trailing bits set', 'YR=='],
    ['only padding', '===='],
    ['a lone character', 'Y'],
    ['invalid characters', 'Y!W*J'],
    ['non-ASCII characters', 'YWé='],
    ['a vertical tab', 'YW\u000bI='],
  ])('%s', (_, base64) => {
    const decoded = decodeMemo(base64);

    expect(decoded).toBe(viaBuffer(base64));
  });

  it.each([[null], [undefined], ['']])('%s is the empty memo', (base64) => {
    expect(decodeMemo(base64)).toBe('');
  });
});

describe('cachedMemoDecoder', () => {
  it('decodes like decodeMemo, also past its size and for memos too long to cache', () => {
    const decode = cachedMemoDecoder(2, 12);
    const inputs = [
      'aGk=',
      'aGk=',
      memo('two'),
      memo('three'),
      'aGk=',
      memo('a memo longer than twelve'),
      '',
      null,
    ];

    const decoded = inputs.map((m) => decode(m));

    expect(decoded).toEqual(inputs.map((m) => decodeMemo(m)));
    expect(decoded.slice(0, 4)).toEqual(['hi', 'hi', 'two', 'three']);
  });
});

describe('Facts: record values shared between the accounts of one record', () => {
  it('shares the memo, payer and time, and keeps the net change per account', () => {
    const record = transfer(WATCHED.id, OTHER.id, 5n, { memo_base64: memo('hello') });
    const shared = new RecordFacts(record);
    const payer = new Facts({ source: 'transactions', record, account: WATCHED }, shared);
    const payee = new Facts({ source: 'transactions', record, account: OTHER }, shared);

    const values = [payer, payee].map((f) => [f.memo(), f.payer(), f.timeNs(), f.net()]);

    expect(values[0]?.slice(0, 3)).toEqual(values[1]?.slice(0, 3));
    expect(values[0]?.[0]).toBe('hello');
    expect(payer.net()).toBeLessThan(-5n);
    expect(payee.net()).toBe(5n);
  });

  it('ignores a shared cache built for another record', () => {
    const first = transfer(WATCHED.id, OTHER.id, 5n, { memo_base64: memo('first') });
    const second = transfer(OTHER.id, WATCHED.id, 5n, { memo_base64: memo('second') });
    const shared = new RecordFacts(first);
    new Facts({ source: 'transactions', record: first, account: WATCHED }, shared).memo();

    const memoOfSecond = new Facts(
      { source: 'transactions', record: second, account: WATCHED },
      shared,
    ).memo();

    expect(memoOfSecond).toBe('second');
  });
});
