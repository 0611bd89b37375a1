// Realistic /api/v1/transactions pages for the client benchmark: crypto transfers with node, fee-collection
// and staking legs, token transfers, memos and 48-byte hashes, as the 0.129 service serialises them.
function b64(bytes: number, seed: number): string {
  return Buffer.from(Array.from({ length: bytes }, (_, i) => (seed * 31 + i * 7) & 0xff)).toString('base64');
}

function transaction(i: number, big: boolean): Record<string, unknown> {
  const seconds = 1_700_000_000 + i;
  const payer = `0.0.${1000 + (i % 50)}`;
  const amount = big && i % 10 === 0 ? '5000000000000000000' : String(100_000_000 + i);
  const fee = 84_650 + i;
  return {
    batch_key: null,
    bytes: null,
    charged_tx_fee: fee,
    consensus_timestamp: `${seconds}.${String(123_456_789 - i).padStart(9, '0')}`,
    entity_id: null,
    max_custom_fees: [],
    max_fee: '100000000',
    memo_base64: i % 3 === 0 ? b64(24, i) : '',
    name: i % 4 === 0 ? 'TOKENASSOCIATE' : 'CRYPTOTRANSFER',
    nft_transfers: [],
    node: '0.0.3',
    nonce: 0,
    parent_consensus_timestamp: null,
    result: i % 17 === 0 ? 'INSUFFICIENT_PAYER_BALANCE' : 'SUCCESS',
    scheduled: false,
    staking_reward_transfers: i % 5 === 0 ? [{ account: 2000 + i, amount: 1234 }] : [],
    transaction_hash: b64(48, i),
    transaction_id: `${payer}-${seconds - 5}-${String(i * 1000).padStart(9, '0')}`,
    token_transfers:
      i % 2 === 0
        ? [
            { token_id: '0.0.456858', account: payer, amount: -(i + 1) * 100, is_approval: false },
            { token_id: '0.0.456858', account: `0.0.${3000 + i}`, amount: (i + 1) * 100, is_approval: false },
          ]
        : [],
    transfers: [
      { account: '0.0.3', amount: 2_000, is_approval: false },
      { account: '0.0.98', amount: fee - 2_000 - 500, is_approval: false },
      { account: '0.0.800', amount: 500, is_approval: false },
      { account: payer, amount: `-${amount}`, is_approval: false },
      { account: `0.0.${2000 + i}`, amount, is_approval: false },
    ],
    valid_duration_seconds: '120',
    valid_start_timestamp: `${seconds - 5}.${String(i * 1000).padStart(9, '0')}`,
  };
}

/** JSON text of a 100-record page; with `big`, every tenth transfer moves 5·10^18 tinybars (> 2^53). */
export function transactionsPage(big: boolean): string {
  const transactions = Array.from({ length: 100 }, (_, i) => transaction(i, big));
  const next = '/api/v1/transactions?limit=100&timestamp=lt:1700000000.123456789';
  // Amounts are written as bare JSON numbers, as the service does, by unquoting the digit strings we built.
  return JSON.stringify({ transactions, links: { next } }).replace(/"amount":"(-?\d+)"/g, '"amount":$1');
}
