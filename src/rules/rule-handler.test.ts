import { describe, expect, it } from 'vitest';
import type { Alert } from './alert.js';
import { createRuleHandler } from './rule-handler.js';
import { createRuleStateRepo } from './state-repo.js';
import { createCallTraces } from '../enrich/call-trace.js';
import { createContractVerification } from '../enrich/verification.js';
import type { ContractAction } from '../ledger/schema.js';
import { openStateStore } from '../state/store.js';
import type { TailRecord } from '../tail/record-handler.js';
import { WATCHED, action, tx } from '../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../test/fixtures/rules/rule-set.js';

const RULES = ruleSetFrom(`rules:
  - id: deep
    summary: deep call
    when: { type: [CONTRACTCALL], call_depth: 5 }
  - id: new-contract
    summary: new contract
    when: { type: [CONTRACTCREATEINSTANCE] }
    verify_contracts: true
`);
const call: TailRecord = { source: 'transactions', record: tx({ name: 'CONTRACTCALL' }), account: WATCHED };
const transfer: TailRecord = {
  source: 'transactions',
  record: tx({ consensus_timestamp: '1700000001.000000000' }),
  account: WATCHED,
};
const creation: TailRecord = {
  source: 'transactions',
  record: tx({
    name: 'CONTRACTCREATEINSTANCE',
    entity_id: '0.0.7007',
    consensus_timestamp: '1700000002.000000000',
  }),
  account: WATCHED,
};

function setup(failEnqueue = false) {
  const store = openStateStore({ dir: ':memory:' });
  const fetched: string[] = [];
  const outbox: Alert[] = [];
  const handler = createRuleHandler({
    ruleSet: RULES,
    repo: createRuleStateRepo(store),
    traces: createCallTraces({
      listActions: async function* (id) {
        fetched.push(id);
        yield { records: [action({ call_depth: 7 })] as ContractAction[] };
      },
    }),
    verification: createContractVerification({ verify: async () => ({ status: 'perfect' }) }),
    enqueue: (alerts) => {
      if (failEnqueue) throw new Error('outbox full');
      outbox.push(...alerts);
    },
  });
  return { store, handler, fetched, outbox };
}

describe('rule handler', () => {
  it('fetches traces only for records that need them, verifies new contracts, and enqueues the alerts', async () => {
    const { store, handler, fetched, outbox } = setup();

    const prepared = await handler.prepare([call, transfer, creation], new AbortController().signal);
    store.transaction(() => handler.apply(prepared));

    expect(fetched).toEqual(['0.0.1001-1700000000-000000000']);
    expect(outbox.map((a) => [a.ruleId, a.annotations.contract_verification])).toEqual([
      ['deep', undefined],
      ['new-contract', 'perfect'],
    ]);
    store.close();
  });

  it('leaves no trace of a page whose transaction failed, so the replayed page alerts again', async () => {
    const failing = setup(true);
    const prepared = await failing.handler.prepare([call], new AbortController().signal);

    const first = () => failing.store.transaction(() => failing.handler.apply(prepared));
    const repo = createRuleStateRepo(failing.store);

    expect(first).toThrow('outbox full');
    expect(repo.load().groups).toEqual([]);
    failing.store.close();
  });

  it('restores the engine after a failed page: the replay is not throttled by the lost alert', async () => {
    const { store, handler, outbox } = setup();
    const prepared = await handler.prepare([call], new AbortController().signal);
    expect(() =>
      store.transaction(() => {
        handler.apply(prepared);
        throw new Error('cursor write failed');
      }),
    ).toThrow('cursor write failed');
    outbox.length = 0;

    store.transaction(() => handler.apply(prepared));

    expect(outbox.map((a) => a.ruleId)).toEqual(['deep']);
    store.close();
  });
});
