// Small row builders with the fixture defaults (docs/ledger-api.md §F2.2), for tests, benchmarks and demos.
import type { TransactionRowInput } from './transaction-json.js';

const HASH = Uint8Array.from({ length: 48 }, (_, i) => i + 1);
const BYTES = Uint8Array.from(Buffer.from('bytes'));

/** A successful CRYPTOTRANSFER at `consensusTimestamp` paid by `payer`, with the default fee legs. */
export function sampleTransactionRow(
  consensusTimestamp: bigint,
  payer: bigint,
  overrides: Partial<TransactionRowInput> = {},
): TransactionRowInput {
  return {
    consensusTimestamp,
    payer,
    node: 3n,
    entityId: null,
    type: 14,
    result: 22,
    chargedTxFee: 7n,
    maxFee: 33n,
    validDurationSeconds: 11n,
    validStartNs: consensusTimestamp - 1n,
    nonce: 0,
    parentConsensusTimestamp: null,
    scheduled: false,
    memo: null,
    transactionBytes: BYTES,
    transactionHash: HASH,
    batchKey: null,
    maxCustomFees: [],
    nftTransfers: [],
    transfers: [
      { account: 3n, amount: 2n },
      { account: 98n, amount: 1n },
      { account: payer, amount: -3n },
    ],
    tokenTransfers: [],
    stakingRewards: [],
    ...overrides,
  };
}
