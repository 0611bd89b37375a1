import { describe, expect, it } from 'vitest';
import { encodeEntityId, longZeroAddress, normalizeEntityId, parseEntityId } from './entity-id.js';

describe('entity id', () => {
  it.each([
    ['0.0.1234', '0.0.1234'],
    ['0.1234', '0.0.1234'],
    ['1234', '0.0.1234'],
    ['1.2.3', '1.2.3'],
  ])('normalises %s', (text, canonical) => {
    expect(normalizeEntityId(text)).toBe(canonical);
  });

  it.each(['0.x', 'abc', '0.0.0.1', '', '12345.0.1'])('rejects the form of %s', (text) => {
    expect(parseEntityId(text)).toEqual({ ok: false, reason: 'format' });
  });

  it('rejects a num above 2^38-1 as out of range, like the service', () => {
    expect(parseEntityId('0.0.274877906944')).toEqual({ ok: false, reason: 'range' });
  });

  it('round-trips the encoded form', () => {
    const parsed = parseEntityId('1.2.3');
    if (!parsed.ok) throw new Error('expected ok');
    expect(normalizeEntityId(encodeEntityId(parsed.id).toString())).toBe('1.2.3');
  });

  it('builds the long-zero EVM address', () => {
    expect(longZeroAddress({ shard: 0n, realm: 0n, num: 1001n })).toBe(
      '0x00000000000000000000000000000000000003e9',
    );
  });
});
