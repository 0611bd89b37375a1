// The client reads both eras of the service: the 0.129 shapes and today's (key-object batch_key, high_volume,
// null node and valid_duration_seconds, unknown members), from pages written for these tests.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fastTransaction } from './fast-records.js';
import { quoteUnsafeIntegers } from './json.js';
import { parsePageText } from './page.js';

function page(name: string) {
  const text = readFileSync(new URL(`../../test/fixtures/ledger/pages/${name}`, import.meta.url), 'utf8');
  return parsePageText('transactions', '/api/v1/transactions', text);
}

describe('service eras', () => {
  it('reads a 0.129 batch inner transaction: hex batch key, exact int64 amounts', () => {
    const p = page('v0129-batch.json');

    expect(p.invalid).toEqual([]);
    expect(p.records[0]?.batch_key).toBe(
      '0x1220bfc9d4a3c5e1f2a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4',
    );
    expect(p.records[0]?.transfers.map((t) => t.amount)).toEqual([
      -9223372036847275807n,
      9223372036847275807n,
    ]);
  });

  it('reads the current shapes: key objects, high_volume, null node and duration, unknown members', () => {
    const p = page('current-batch.json');

    const [batch, ed, ecdsa] = p.records;
    expect(p.records.map((r) => r.consensus_timestamp)).toEqual([
      '1764072000.123456789',
      '1764072000.123456790',
      '1764072000.123456791',
    ]);
    expect(batch?.batch_key).toBeNull();
    expect(ed?.batch_key).toEqual({ _type: 'ED25519', key: expect.stringMatching(/^bfc9/) as string });
    expect(ed?.node).toBeNull();
    expect(ed?.valid_duration_seconds).toBeNull();
    expect(ed?.transfers.map((t) => t.amount)).toEqual([-9223372036847275807n, 9223372036847275807n]);
    expect(ed).not.toHaveProperty('future_member');
    expect(ed).not.toHaveProperty('high_volume');
    expect(ecdsa?.batch_key).toEqual({
      _type: 'ECDSA_SECP256K1',
      key: expect.stringMatching(/^02a1/) as string,
    });
  });

  it('keeps a record whose lenient fields turned objects, with those fields unknown', () => {
    const p = page('current-batch.json');

    const ecdsa = p.records[2];
    expect(ecdsa?.bytes).toBeUndefined();
    expect(ecdsa?.max_fee).toBeUndefined();
    expect(ecdsa?.transfers.map((t) => t.amount)).toEqual([-500000000000n, 500000000000n]);
    expect(p.degraded).toEqual([
      { index: 2, field: 'bytes', timestamp: '1764072000.123456791' },
      { index: 2, field: 'max_fee', timestamp: '1764072000.123456791' },
    ]);
  });

  it('reports the record whose memo (an essential field) is an object, with what is needed to keep it', () => {
    const p = page('current-batch.json');

    expect(p.invalid).toEqual([
      {
        index: 3,
        path: 'transactions[3].memo_base64',
        field: 'memo_base64',
        message: expect.any(String) as string,
        timestamp: '1764072000.123456792',
        transactionId: '0.0.1006-1764071991-000000003',
        raw: expect.stringContaining('"memo_base64":{"text":"not base64"}') as string,
      },
    ]);
  });

  it('keeps the raw text of an invalid record exact when it holds an integer beyond 2^53', () => {
    const text = readFileSync(
      new URL('../../test/fixtures/ledger/pages/v0129-batch.json', import.meta.url),
      'utf8',
    );
    const broken = text.replace('"name": "CRYPTOTRANSFER"', '"name": null');

    const p = parsePageText('transactions', '/api/v1/transactions', broken);

    expect(p.invalid[0]?.field).toBe('name');
    expect(p.invalid[0]?.raw).toContain('"amount":"-9223372036847275807"');
  });

  it('reads the current shapes on the fast path (no fallback to zod for a key object or null node)', () => {
    const text = readFileSync(
      new URL('../../test/fixtures/ledger/pages/current-batch.json', import.meta.url),
      'utf8',
    );
    const body = JSON.parse(quoteUnsafeIntegers(text)) as { transactions: unknown[] };

    const fast = body.transactions.map((raw) => fastTransaction(raw) !== undefined);

    expect(fast).toEqual([true, true, false, false]);
  });
});
