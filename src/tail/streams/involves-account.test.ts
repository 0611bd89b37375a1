import { describe, expect, it } from 'vitest';
import { involvesAccount } from './involves-account.js';
import { reward, tx } from '../../../test/fixtures/rules/records.js';

const ME = '0.0.1001';
const NOBODY = { transaction_id: '0.0.7777-1700000000-000000000' };

describe('involvesAccount', () => {
  it.each([
    ['the payer', tx({ transaction_id: `${ME}-1700000000-000000000` }), true],
    ['a payer that only shares a prefix', tx({ transaction_id: '0.0.10011-1700000000-000000000' }), false],
    ['an HBAR transfer row', tx({ ...NOBODY, transfers: [{ account: ME, amount: 5 }] }), true],
    [
      'a token transfer row',
      tx({ ...NOBODY, token_transfers: [{ token_id: '0.0.5000', account: ME, amount: 1 }] }),
      true,
    ],
    [
      'an NFT receiver',
      tx({
        ...NOBODY,
        nft_transfers: [
          { receiver_account_id: ME, sender_account_id: '0.0.7777', serial_number: 1, token_id: '0.0.6000' },
        ],
      }),
      true,
    ],
    [
      'an NFT sender',
      tx({
        ...NOBODY,
        nft_transfers: [
          { receiver_account_id: null, sender_account_id: ME, serial_number: 1, token_id: '0.0.6000' },
        ],
      }),
      true,
    ],
    [
      'a staking reward transfer',
      tx({ ...NOBODY, staking_reward_transfers: [{ account: ME, amount: 1 }] }),
      true,
    ],
    [
      'a staking reward transfer as an encoded id',
      tx({ ...NOBODY, staking_reward_transfers: [{ account: 1001, amount: 1 }] }),
      true,
    ],
    ['the entity', tx({ ...NOBODY, entity_id: ME }), true],
    [
      'a record of other accounts only',
      tx({
        ...NOBODY,
        transfers: [
          { account: '0.0.7777', amount: -5 },
          { account: '0.0.8888', amount: 5 },
        ],
      }),
      false,
    ],
    ['its own reward', reward(1n, 0, ME), true],
    ['another account’s reward', reward(1n, 0, '0.0.2002'), false],
  ])('%s', (_name, record, expected) => {
    expect(involvesAccount(record, ME)).toBe(expected);
  });

  it('accepts any reward for an alias-only entry (its id is the alias, which rewards never show)', () => {
    expect(
      involvesAccount(reward(1n, 0, '0.0.2002'), 'CIQGEDC7VQEZCB3SAGSWP5GEHHM4GKP6JHU6Z3FFFDKB2RRTOLU3XGI'),
    ).toBe(true);
  });
});
