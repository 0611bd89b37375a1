import { describe, expect, it } from 'vitest';
import { explorerUrls } from './explorer-urls.js';

describe('explorer links', () => {
  it.each([
    [
      'public mainnet mirror node',
      'https://mainnet.mirrornode.hedera.com',
      {},
      {
        transactionUrl: 'https://hashscan.io/mainnet/transaction/{{consensus_timestamp}}',
        accountUrl: 'https://hashscan.io/mainnet/account/{{id}}',
      },
    ],
    [
      'public testnet mirror node',
      'https://testnet.mirrornode.hedera.com/',
      {},
      {
        transactionUrl: 'https://hashscan.io/testnet/transaction/{{consensus_timestamp}}',
        accountUrl: 'https://hashscan.io/testnet/account/{{id}}',
      },
    ],
    ['the simulator of demo', 'http://127.0.0.1:40123', {}, {}],
    ['a private ledger', 'https://mirror.internal.example', {}, {}],
    ['a look-alike host', 'https://mainnet.mirrornode.hedera.com.evil.example', {}, {}],
    [
      'a configured explorer for a private ledger',
      'https://mirror.internal.example',
      { transaction_url: 'https://explorer.internal/tx/{{consensus_timestamp}}' },
      { transactionUrl: 'https://explorer.internal/tx/{{consensus_timestamp}}' },
    ],
    [
      'links turned off on mainnet',
      'https://mainnet.mirrornode.hedera.com',
      { transaction_url: '', account_url: '' },
      {},
    ],
  ])('%s', (_name, baseUrl, explorer, expected) => {
    expect(explorerUrls(explorer, baseUrl)).toEqual(expected);
  });
});
