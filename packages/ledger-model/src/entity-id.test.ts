import { describe, expect, it } from 'vitest';
import {
  encodeEntityId,
  longZeroAddress,
  normalizeEntityId,
  parseEntityId,
  parseLongZeroAddress,
} from './entity-id.js';

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

describe('long-zero EVM addresses', () => {
  it.each([
    ['0x00000000000000000000000000000000000004d2', '0.0.1234'],
    ['00000000000000000000000000000000000004D2', '0.0.1234'],
    ['0x0000000000000000000000000000000000000000', '0.0.0'],
    ['0x0000000000000000000000000000003fffffffff', '0.0.274877906943'],
  ])('decodes %s to %s without a request', (text, id) => {
    const parsed = parseLongZeroAddress(text);

    expect(parsed.ok && `${parsed.id.shard}.${parsed.id.realm}.${parsed.id.num}`).toBe(id);
  });

  it('round-trips with longZeroAddress', () => {
    const parsed = parseLongZeroAddress(longZeroAddress({ shard: 0n, realm: 0n, num: 98n }));

    expect(parsed).toEqual({ ok: true, id: { shard: 0n, realm: 0n, num: 98n } });
  });

  it.each([
    ['0x71c7656ec7ab88b098defb751b7401b5f6d8976f', 'not-long-zero'],
    ['0x0000000000000000000000010000000000000001', 'not-long-zero'],
    ['0x0000000000000000000000000000004000000000', 'range'],
    ['0x00000000000000000000000000000000000004d', 'not-evm'],
    ['0.0.1234', 'not-evm'],
    ['0x00000000000000000000000000000000000004dg', 'not-evm'],
  ])('refuses %s (%s)', (text, reason) => {
    expect(parseLongZeroAddress(text)).toEqual({ ok: false, reason });
  });
});
