// Two alerts made by the real engine from real rules, for tests and for the examples in docs/notifiers.md (a test
// checks the docs still show what this code produces): a large debit firing, and a missing staking reward
// resolved by the reward that arrived.
import { StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import type { Alert } from '../../src/rules/alert/alert.js';
import { compileRules } from '../../src/rules/load/compile.js';
import { createEngine } from '../../src/rules/engine/engine.js';
import { RuleFile } from '../../src/rules/load/schema.js';
import type { WatchedAccount } from '../../src/accounts/watched-account.js';
import { parse } from 'yaml';

const ACCOUNT: WatchedAccount = {
  id: '0.0.1001',
  name: 'treasury-hot',
  labels: { team: 'treasury' },
  priority: 0,
  rewardsPath: '0.0.1001',
};

const RULES = `rules:
  - id: large-debit
    severity: critical
    when: { debit: "10000 hbar" }
    summary: "{{account.name}}: {{abs_amount_hbar}} HBAR debited"
    description: "{{abs_amount_hbar}} HBAR left {{account.name}} in {{name}} {{transaction_id}}."
  - id: missing-staking-reward
    source: rewards
    severity: warning
    summary: "no staking reward for {{account.name}} in {{window_duration}}"
    window: { duration: 26h, absent: true }
`;

const T0 = 1_763_000_000;

export function exampleAlerts(): { firing: Alert; resolved: Alert } {
  const ruleSet = compileRules(RuleFile.parse(parse(RULES)).rules, {
    accounts: [ACCOUNT],
    explorerUrl: 'https://hashscan.io/testnet/transaction/{{consensus_timestamp}}',
    accountUrl: 'https://hashscan.io/testnet/account/{{id}}',
  });
  const engine = createEngine(ruleSet);
  const record = Transaction.parse({
    charged_tx_fee: 184_000,
    consensus_timestamp: `${T0 + 60}.123456789`,
    name: 'CRYPTOTRANSFER',
    node: '0.0.3',
    result: 'SUCCESS',
    transaction_id: `0.0.1001-${T0 + 55}-000000000`,
    memo_base64: Buffer.from('OTC settlement 2025-11').toString('base64'),
    transfers: [
      { account: '0.0.1001', amount: String(-50_000n * 100_000_000n - 184_000n) },
      { account: '0.0.7777', amount: String(50_000n * 100_000_000n) },
      { account: '0.0.3', amount: '46000' },
      { account: '0.0.98', amount: '138000' },
    ],
  });
  const [firing] = engine.evaluate({ source: 'transactions', record, account: ACCOUNT }).alerts;
  engine.tick(T0 * 1000);
  engine.tick((T0 + 26 * 3600) * 1000);
  const payout = StakingReward.parse({
    account_id: '0.0.1001',
    amount: '1230000000',
    timestamp: `${T0 + 27 * 3600}.000000001`,
  });
  const [resolved] = engine.evaluate({ source: 'rewards', record: payout, account: ACCOUNT }).alerts;
  if (!firing || !resolved) throw new Error('example rules did not fire and resolve: fix example-alerts.ts');
  return { firing, resolved };
}
