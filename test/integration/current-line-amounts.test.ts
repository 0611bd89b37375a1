// The current line of the query service changed two things around a watched account's records, and neither may
// change an amount a rule computes: the network collects fees in the fee-collection account 0.0.802 (records
// credit it with the fee instead of the node and 0.0.98), and `account.id` also returns transactions in which
// the account only sends or receives an NFT. A page in the service's current shape goes through the client's
// real parsing, the per-account stream's attribution check and the daemon's offline pipeline (the one backtests
// and rule tests use), with debit, credit, counterparty and sum-window rules.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import type { WatchedAccount } from '../../src/accounts/watched-account.js';
import { createContractVerification } from '../../src/enrich/verification.js';
import { createCallTraces } from '../../src/enrich/call-trace.js';
import { parsePageText } from '../../src/ledger/page.js';
import { createOfflinePipeline } from '../../src/pipeline/offline/offline-pipeline.js';
import { Facts } from '../../src/rules/facts/facts.js';
import { involvesAccount } from '../../src/tail/streams/involves-account.js';
import { ruleSetFrom } from '../fixtures/rules/rule-set.js';

const WATCHED: WatchedAccount = {
  id: '0.0.1003',
  name: 'treasury-hot',
  labels: {},
  priority: 0,
  rewardsPath: '0.0.1003',
};
const URL_OF_PAGE = '/api/v1/transactions?account.id=0.0.1003&order=asc&timestamp=gt:1764072100.000000000';

function page(): Transaction[] {
  const file = new URL('../fixtures/ledger/pages/current-fee-collection.json', import.meta.url);
  const parsed = parsePageText('transactions', URL_OF_PAGE, readFileSync(file, 'utf8'));
  expect(parsed.invalid).toEqual([]);
  return parsed.records;
}

// A: 2,000 HBAR out, fee to 0.0.802. B: the same in the older layout (node + 0.0.98). C: NFT in only.
// D: NFT out only, a spender pays. E: 0.5 HBAR in, the sender's fee to 0.0.802.
const DEBIT = -200_000_187_412n;

describe('amounts on pages of the current line (fee collection in 0.0.802, NFT-only account.id matches)', () => {
  it('reads every record, and every one is attributed to the watched account as the per-account stream does', () => {
    const records = page();

    expect(records.map((r) => r.consensus_timestamp.slice(-1))).toEqual(['1', '2', '3', '4', '5']);
    expect(records.map((r) => involvesAccount(r, WATCHED.id))).toEqual([true, true, true, true, true]);
  });

  it('gives the same net change and counterparties whether the fee went to 0.0.802 or to the node and 0.0.98', () => {
    const facts = page().map((record) => new Facts({ source: 'transactions', record, account: WATCHED }));

    expect(facts.map((f) => f.net())).toEqual([DEBIT, DEBIT, 0n, 0n, 50_000_000n]);
    expect(facts.map((f) => f.counterparties())).toEqual([['0.0.1005'], ['0.0.1005'], [], [], []]);
  });

  it('fires debit, credit and sum rules with exact amounts; NFT-only records and 0.0.802 change none of them', async () => {
    const rules = ruleSetFrom(
      `rules:
  - id: large-debit
    when: { debit: '1000 hbar' }
    summary: '{{amount_tinybar}} {{why}}'
  - id: credit
    when: { credit: '0.5 hbar' }
    summary: '{{amount_tinybar}} {{why}}'
  - id: not-allowed
    when: { counterparty: { not_in: [0.0.1005] } }
    summary: '{{counterparty}}'
  - id: paid-to
    when: { counterparty: { in: [0.0.1005] } }
    summary: '{{counterparty}}'
  - id: out-sum
    when: {}
    window: { duration: 1h, debit_sum: '4000.00374824 hbar' }
    summary: '{{window_total}}'
  - id: out-sum-one-more
    when: {}
    window: { duration: 1h, debit_sum: '400000374825 tinybar' }
    summary: '{{window_total}}'
  - id: in-sum
    when: {}
    window: { duration: 1h, credit_sum: '0.5 hbar' }
    summary: '{{window_total}}'
  - id: in-sum-one-more
    when: {}
    window: { duration: 1h, credit_sum: '50000001 tinybar' }
    summary: '{{window_total}}'
  - id: nft-arrives
    when: { nft_in: { token_id: 0.0.4000 } }
    summary: '{{consensus_timestamp}}'
`,
      [WATCHED],
    );
    const pipeline = createOfflinePipeline({
      ruleSet: rules,
      traces: createCallTraces({ listActions: async function* () {} }),
      verification: createContractVerification({ verify: undefined }),
    });
    try {
      const alerts = await pipeline.handOver(
        page().map((record) => ({ source: 'transactions' as const, record, account: WATCHED })),
      );

      const fired = alerts.map(
        (a) => `${a.ruleId} ${a.status} ${a.trigger?.consensusTimestamp ?? ''}: ${a.summary}`,
      );
      expect(fired.sort()).toEqual(
        [
          `large-debit firing 1764072100.000000001: ${DEBIT} net debit 2,000.00187412 HBAR ≥ 1,000 HBAR`,
          'paid-to firing 1764072100.000000001: 0.0.1005',
          'out-sum firing 1764072100.000000002: 400000374824',
          'nft-arrives firing 1764072100.000000003: 1764072100.000000003',
          'credit firing 1764072100.000000005: 50000000 net credit 0.5 HBAR ≥ 0.5 HBAR',
          'in-sum firing 1764072100.000000005: 50000000',
        ].sort(),
      );
    } finally {
      pipeline.close();
    }
  });
});
