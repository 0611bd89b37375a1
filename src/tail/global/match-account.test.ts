import { describe, expect, it } from 'vitest';
import { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { matchAccounts } from './match-account.js';
import { passesPushdown } from '../../accounts/pushdown.js';

function tx(fields: Record<string, unknown>): Transaction {
  return Transaction.parse({
    charged_tx_fee: 100,
    consensus_timestamp: '1700000000.000000001',
    name: 'CRYPTOTRANSFER',
    result: 'SUCCESS',
    transaction_id: '0.0.10-1700000000-000000000',
    ...fields,
  });
}

const WATCHED = new Set(['0.0.10', '0.0.20', '0.0.30', '0.0.40']);

describe('matchAccounts (the service account.id union, docs/ledger-api.md §5.3)', () => {
  it.each([
    ['payer', {}, ['0.0.10']],
    [
      'HBAR transfer row',
      { transaction_id: '0.0.99-1-0', transfers: [{ account: '0.0.20', amount: 5 }] },
      ['0.0.20'],
    ],
    [
      'token transfer row',
      {
        transaction_id: '0.0.99-1-0',
        token_transfers: [{ token_id: '0.0.5', account: '0.0.30', amount: 1 }],
      },
      ['0.0.30'],
    ],
    [
      'payer and receiver once each',
      {
        transfers: [
          { account: '0.0.10', amount: -5 },
          { account: '0.0.20', amount: 5 },
          { account: '0.0.10', amount: 1 },
        ],
      },
      ['0.0.10', '0.0.20'],
    ],
    ['synthetic child: payer branch excluded', { nonce: 1, parent_consensus_timestamp: null }, []],
    [
      'synthetic child still matches through a transfer row',
      { nonce: 1, transfers: [{ account: '0.0.10', amount: -1 }] },
      ['0.0.10'],
    ],
    [
      'synthetic CRYPTOCREATEACCOUNT child keeps its payer',
      { nonce: 1, name: 'CRYPTOCREATEACCOUNT' },
      ['0.0.10'],
    ],
    [
      'synthetic CRYPTOUPDATEACCOUNT child keeps its payer',
      { nonce: 1, name: 'CRYPTOUPDATEACCOUNT' },
      ['0.0.10'],
    ],
    [
      'child with a parent keeps its payer',
      { nonce: 1, parent_consensus_timestamp: '1700000000.000000000' },
      ['0.0.10'],
    ],
    [
      'NFT-only involvement does not count',
      {
        transaction_id: '0.0.99-1-0',
        nft_transfers: [
          { receiver_account_id: '0.0.40', sender_account_id: null, serial_number: 1, token_id: '0.0.6' },
        ],
      },
      [],
    ],
    [
      'each account once, in first-seen order across HBAR and token rows',
      {
        transaction_id: '0.0.99-1-0',
        transfers: [
          { account: '0.0.30', amount: -5 },
          { account: '0.0.98', amount: 1 },
          { account: '0.0.20', amount: 4 },
        ],
        token_transfers: [
          { token_id: '0.0.5', account: '0.0.40', amount: 1 },
          { token_id: '0.0.5', account: '0.0.20', amount: -1 },
          { token_id: '0.0.6', account: '0.0.30', amount: 2 },
        ],
      },
      ['0.0.30', '0.0.20', '0.0.40'],
    ],
    [
      'a transfer account that is only a prefix of the payer is not the payer',
      {
        transfers: [
          { account: '0.0.1', amount: 3 },
          { account: '0.0.20', amount: -3 },
        ],
      },
      ['0.0.10', '0.0.20'],
    ],
    [
      'payer first even when a transfer row names it again',
      {
        transfers: [
          { account: '0.0.20', amount: 3 },
          { account: '0.0.10', amount: -3 },
        ],
      },
      ['0.0.10', '0.0.20'],
    ],
    ['entity_id does not count', { transaction_id: '0.0.99-1-0', entity_id: '0.0.40' }, []],
    [
      'staking_reward_transfers do not count',
      { transaction_id: '0.0.99-1-0', staking_reward_transfers: [{ account: '0.0.40', amount: 5 }] },
      [],
    ],
    [
      'unwatched accounts are ignored',
      { transaction_id: '0.0.99-1-0', transfers: [{ account: '0.0.98', amount: 1 }] },
      [],
    ],
  ])('%s', (_name, fields, expected) => {
    const matched = matchAccounts(tx(fields), WATCHED);

    expect(matched).toEqual(expected);
  });
});

describe('passesPushdown (the query filters, applied locally by the global tail)', () => {
  it.each([
    [undefined, {}, true],
    [{ result: 'fail' as const }, { result: 'INSUFFICIENT_PAYER_BALANCE' }, true],
    [{ result: 'fail' as const }, { result: 'SUCCESS' }, false],
    [{ result: 'success' as const }, { result: 'FEE_SCHEDULE_FILE_PART_UPLOADED' }, true],
    [{ result: 'success' as const }, { result: 'REVERTED_SUCCESS' }, false],
    [{ transactiontype: ['cryptotransfer'] }, { name: 'CRYPTOTRANSFER' }, true],
    [{ transactiontype: ['CONTRACTCALL', 'TOKENMINT'] }, { name: 'CRYPTOTRANSFER' }, false],
  ])('%j on %j → %s', (pushdown, fields, expected) => {
    const passes = passesPushdown(tx(fields), pushdown);

    expect(passes).toBe(expected);
  });
});
