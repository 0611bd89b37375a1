// The shipped example rules (rules/*.yaml), loaded as a deployment would load them: each fires on the records
// it describes and stays silent otherwise. All examples run together, so a case also proves the others quiet.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, type EngineEvent } from '../engine/engine.js';
import { loadRules } from './load-rules.js';
import { REPO_DIR } from '../../../test/helpers/shared.js';
import { HBAR, WATCHED, action, at, reward, transfer, tx } from '../../../test/fixtures/rules/records.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

const ACCOUNT: WatchedAccount = { ...WATCHED, labels: { role: 'treasury', staking: 'true' } };
const ALLOWED = '0.0.1002';
const STRANGER = '0.0.5555';
const ms = (seconds: number) => (1_700_000_000 + seconds) * 1000;

type Step =
  | { tx: Parameters<typeof tx>[0]; traces?: EngineEvent['traces']; annotations?: Record<string, string> }
  | { out: [bigint, string, number?] }
  | { reward: number }
  | { tick: number };

function load() {
  const result = loadRules({
    paths: [join(REPO_DIR, 'rules/*.yaml')],
    env: {},
    knownNotifiers: ['ops-slack', 'security-pager'],
    accounts: [ACCOUNT],
  });
  if (!result.ok)
    throw new Error(
      result.issues.map((i) => `${i.file}:${i.line}:${i.col} ${i.path}: ${i.message}`).join('\n'),
    );
  return result.ruleSet;
}

function run(steps: Step[]): string[] {
  const engine = createEngine(load());
  const fired: string[] = [];
  for (const step of steps) {
    if ('tick' in step) fired.push(...engine.tick(ms(step.tick)).map((a) => `${a.ruleId}:${a.status}`));
    else {
      const event: EngineEvent =
        'reward' in step
          ? { source: 'rewards', record: reward(HBAR, step.reward), account: ACCOUNT }
          : 'out' in step
            ? {
                source: 'transactions',
                record: transfer(ACCOUNT.id, step.out[1], step.out[0] * HBAR, {
                  consensus_timestamp: at(step.out[2] ?? 0),
                }),
                account: ACCOUNT,
              }
            : {
                source: 'transactions',
                record: tx(step.tx),
                account: ACCOUNT,
                traces: step.traces ?? [],
                annotations: step.annotations ?? {},
              };
      fired.push(...engine.evaluate(event).alerts.map((a) => `${a.ruleId}:${a.status}`));
    }
  }
  return fired;
}

const fail = (seconds: number): Step => ({
  tx: { result: 'INSUFFICIENT_PAYER_BALANCE', consensus_timestamp: at(seconds) },
});
const contractCall = (traces: EngineEvent['traces']): Step => ({ tx: { name: 'CONTRACTCALL' }, traces });

const cases: [string, Step[], string[]][] = [
  ['failed transactions: one failure', [fail(0)], ['failed-transaction:firing']],
  [
    'failed transactions: five in ten minutes',
    [0, 60, 120, 180, 240].map(fail),
    ['failed-transaction:firing', 'failed-transaction-burst:firing'],
  ],
  [
    'failed transactions: paid by someone else',
    [{ tx: { result: 'INSUFFICIENT_PAYER_BALANCE', transaction_id: '0.0.5555-1700000000-000000000' } }],
    [],
  ],
  [
    'large debit: 10,000 HBAR out to an allowed account',
    [{ out: [10_000n, ALLOWED] }],
    ['large-debit:firing'],
  ],
  ['large debit: 9,999 HBAR', [{ out: [9_999n, ALLOWED] }], []],
  [
    'token drain: a billion units out',
    [
      {
        tx: {
          token_transfers: [
            { token_id: '0.0.456858', account: ACCOUNT.id, amount: -1_000_000_000 },
            { token_id: '0.0.456858', account: STRANGER, amount: 1_000_000_000 },
          ],
        },
      },
    ],
    ['token-drain:firing'],
  ],
  [
    'token drain: a small amount',
    [
      {
        tx: {
          token_transfers: [
            { token_id: '0.0.456858', account: ACCOUNT.id, amount: -5 },
            { token_id: '0.0.456858', account: STRANGER, amount: 5 },
          ],
        },
      },
    ],
    [],
  ],
  [
    'token drain: an NFT out',
    [
      {
        tx: {
          nft_transfers: [
            {
              token_id: '0.0.1234567',
              sender_account_id: ACCOUNT.id,
              receiver_account_id: STRANGER,
              serial_number: 1,
            },
          ],
        },
      },
    ],
    ['nft-out:firing'],
  ],
  [
    'account changes: an allowance approved',
    [{ tx: { name: 'CRYPTOAPPROVEALLOWANCE' } }],
    ['account-change:firing'],
  ],
  [
    'account changes: a key update and a delete',
    [{ tx: { name: 'CRYPTOUPDATEACCOUNT' } }, { tx: { name: 'CRYPTODELETE', consensus_timestamp: at(1) } }],
    ['account-change:firing', 'account-change:firing'],
  ],
  [
    'account changes: a failed update',
    [
      {
        tx: {
          name: 'CRYPTOUPDATEACCOUNT',
          result: 'INVALID_SIGNATURE',
          transaction_id: '0.0.5555-1700000000-000000000',
        },
      },
    ],
    [],
  ],
  [
    'deep contract calls: depth 5',
    [contractCall([action(), action({ index: 1, call_depth: 5 })])],
    ['deep-contract-call:firing'],
  ],
  ['deep contract calls: depth 4', [contractCall([action({ call_depth: 4 })])], []],
  [
    'DELEGATECALL to an unlisted contract',
    [contractCall([action({ call_operation_type: 'DELEGATECALL', recipient: '0.0.6006', to: null })])],
    ['unexpected-delegatecall:firing'],
  ],
  [
    'DELEGATECALL to the listed contract',
    [contractCall([action({ call_operation_type: 'DELEGATECALL' })])],
    [],
  ],
  [
    'missing staking reward: 26h without one, then one arrives',
    [{ tick: 0 }, { tick: 26 * 3600 }, { reward: 26 * 3600 + 5 }],
    ['missing-staking-reward:firing', 'missing-staking-reward:resolved'],
  ],
  [
    'missing staking reward: paid daily',
    [{ tick: 0 }, { reward: 24 * 3600 }, { tick: 26 * 3600 }, { tick: 49 * 3600 }],
    [],
  ],
  ['fee spike: 5 HBAR fee', [{ tx: { charged_tx_fee: Number(5n * HBAR) } }], ['fee-spike:firing']],
  [
    'fee spike: 5 HBAR fee paid by someone else',
    [{ tx: { charged_tx_fee: Number(5n * HBAR), transaction_id: '0.0.5555-1700000000-000000000' } }],
    [],
  ],
  [
    'velocity limit: 1,000,000 HBAR out in an hour, in pieces',
    [{ out: [600_000n, ALLOWED, 0] }, { out: [400_000n, ALLOWED, 1800] }],
    ['large-debit:firing', 'large-debit:firing', 'hourly-velocity-limit:firing'],
  ],
  [
    'velocity limit: the same spread over two hours',
    [{ out: [600_000n, ALLOWED, 0] }, { out: [400_000n, ALLOWED, 3600] }],
    ['large-debit:firing', 'large-debit:firing'],
  ],
  [
    'HBAR to an account outside the allowlist',
    [{ out: [1n, STRANGER] }],
    ['hbar-to-unlisted-account:firing'],
  ],
  ['HBAR to an allowlisted account', [{ out: [1n, ALLOWED] }], []],
  [
    'a new contract, verified',
    [
      {
        tx: { name: 'CONTRACTCREATEINSTANCE', entity_id: '0.0.7007' },
        annotations: { contract_verification: 'perfect' },
      },
    ],
    ['new-contract:firing'],
  ],
  [
    'a contract created by someone else',
    [
      {
        tx: {
          name: 'CONTRACTCREATEINSTANCE',
          entity_id: '0.0.7007',
          transaction_id: '0.0.5555-1700000000-000000000',
        },
      },
    ],
    [],
  ],
];

describe('example rules', () => {
  it.each(cases)('%s', (_label, steps, expected) => {
    const ruleSet = load();

    const fired = run(steps);

    expect(ruleSet.rules.length).toBe(13);
    expect(fired).toEqual(expected);
  });
});
