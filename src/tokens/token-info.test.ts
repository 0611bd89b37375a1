// Reading GET /api/v1/tokens/{id} tolerantly, except decimals and symbol: a hostile value is refused, never used.
import { describe, expect, it } from 'vitest';
import { MAX_DECIMALS, readDecimals, readTokenInfo } from './token-info.js';

/** The shape the current service answers (its own spec case for a token with custom fees), decimals made real. */
const USDC_BODY = {
  token_id: '0.0.456858',
  symbol: 'USDC',
  admin_key: null,
  auto_renew_account: null,
  auto_renew_period: null,
  created_timestamp: '1234567890.000000002',
  decimals: '6',
  deleted: false,
  expiry_timestamp: 1234567890000010,
  fee_schedule_key: { _type: 'ProtobufEncoded', key: '7b2231222c2232222c2233227d' },
  freeze_default: false,
  freeze_key: null,
  initial_supply: '1000000',
  kyc_key: null,
  max_supply: '9223372036854775807',
  memo: 'token.0.0.456858',
  metadata: '',
  metadata_key: null,
  modified_timestamp: '1234567890.000000002',
  name: 'USD Coin',
  pause_key: { _type: 'ED25519', key: 'AB12' },
  pause_status: 'UNPAUSED',
  supply_key: null,
  supply_type: 'INFINITE',
  total_supply: '9223372036854775806',
  treasury_account_id: '0.0.98',
  type: 'FUNGIBLE_COMMON',
  wipe_key: null,
  custom_fees: {
    created_timestamp: '1234567899.999999007',
    fixed_fees: [{ amount: 12, collector_account_id: '0.0.8904', denominating_token_id: '0.0.1137' }],
    fractional_fees: [],
    royalty_fees: [],
  },
  a_member_of_a_later_version: { anything: true },
};

describe('readTokenInfo', () => {
  it('reads the facts the daemon keeps, exactly, and ignores unknown members', () => {
    const facts = readTokenInfo('0.0.456858', USDC_BODY);

    expect(facts).toEqual({
      tokenId: '0.0.456858',
      decimals: 6,
      symbol: 'USDC',
      name: 'USD Coin',
      type: 'FUNGIBLE_COMMON',
      totalSupply: 9223372036854775806n,
      maxSupply: 9223372036854775807n,
      treasury: '0.0.98',
      keys: { fee_schedule: 'ProtobufEncoded:7b2231222c2232222c2233227d', pause: 'ED25519:ab12' },
      pauseStatus: 'UNPAUSED',
      freezeDefault: false,
      deleted: false,
      customFees: { fixed: 1, fractional: 0, royalty: 0 },
    });
  });

  it.each([
    ['999'],
    ['-1'],
    ['1000'],
    ['19'],
    ['1e3'],
    ['6.0'],
    [' 6'],
    [''],
    [6.5],
    [-1],
    [null],
    [true],
    [[6]],
    [{ value: 6 }],
  ])('refuses decimals %j and says why', (decimals) => {
    const facts = readTokenInfo('0.0.5', { ...USDC_BODY, decimals });

    expect(facts.decimals).toBeUndefined();
    expect(facts.refused).toMatch(/^decimals /);
    expect(facts.symbol).toBe('USDC');
  });

  it.each([
    ['0', 0],
    ['18', MAX_DECIMALS],
    [8, 8],
  ])('accepts decimals %j', (value, decimals) => expect(readDecimals(value)).toEqual({ ok: true, decimals }));

  it.each([['USDC\u202E'], ['US\nDC'], ['\u200BUSDC'], [' USDC'], ['X'.repeat(101)], [42]])(
    'refuses the symbol %j but keeps the decimals',
    (symbol) => {
      const facts = readTokenInfo('0.0.5', { ...USDC_BODY, symbol });

      expect(facts.symbol).toBeUndefined();
      expect(facts.decimals).toBe(6);
      expect(facts.refused).toMatch(/^symbol /);
    },
  );

  it('drops odd optional members without refusing the token', () => {
    const facts = readTokenInfo('0.0.5', {
      decimals: '2',
      symbol: 'OK',
      total_supply: 12.5,
      treasury_account_id: '<script>',
      type: 'SOMETHING_NEW',
      admin_key: { _type: 'ED25519', key: 'not hex' },
      custom_fees: 'nope',
      pause_status: 7,
    });

    expect(facts).toMatchObject({ decimals: 2, symbol: 'OK', keys: {} });
    expect(facts.totalSupply).toBeUndefined();
    expect(facts.treasury).toBeUndefined();
    expect(facts.type).toBeUndefined();
    expect(facts.pauseStatus).toBeUndefined();
    expect(facts.customFees).toEqual({ fixed: 0, fractional: 0, royalty: 0 });
    expect(facts.refused).toBeUndefined();
  });
});
