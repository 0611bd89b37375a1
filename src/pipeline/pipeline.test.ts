// The pipeline step on a real (in-memory) state store: evaluation, alert state, routing and the outbox in the
// tailer's transaction; enrichment only where a rule needs it; a reload between prepare and apply replays.
import { describe, expect, it } from 'vitest';
import { createCallTraces } from '../enrich/call-trace.js';
import { createContractVerification } from '../enrich/verification.js';
import { LedgerHttpError } from '../ledger/errors.js';
import type { ContractAction } from '@ledger-sentinel/ledger-model/schema';
import { createOutbox } from '../delivery/outbox.js';
import { createMetrics } from '../observability/metrics.js';
import { createRuleStateRepo } from '../rules/alert-state/state-repo.js';
import { openStateStore } from '../state/store.js';
import type { TailRecord } from '../tail/streams/record-handler.js';
import { HBAR, WATCHED, action, transfer, tx } from '../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../test/fixtures/rules/rule-set.js';
import { createEngineHolder } from './engine-holder.js';
import { createPipelineHandler } from './pipeline.js';

const RULES = `rules:
  - id: large-debit
    when: { debit: '1000 hbar' }
    summary: big
    notify: [ops]
  - id: deep-call
    when: { type: [CONTRACTCALL], call_depth: 5 }
    summary: deep
    notify: [ops]
`;

type Verify = Parameters<typeof createContractVerification>[0]['verify'];

function setup(
  actions: (id: string) => readonly ContractAction[] | Error = () => [],
  options: { rules?: string; verify?: Verify } = {},
) {
  const store = openStateStore({ dir: ':memory:' });
  const repo = createRuleStateRepo(store);
  const outbox = createOutbox(store, () => 1_700_000_000_000);
  const engines = createEngineHolder(ruleSetFrom(options.rules ?? RULES), repo);
  const fetched: string[] = [];
  const metrics = createMetrics();
  const traces = createCallTraces({
    listActions: (id) => {
      fetched.push(id);
      const result = actions(id);
      return (async function* () {
        if (result instanceof Error) throw result;
        yield { records: result };
      })();
    },
  });
  const handler = createPipelineHandler({
    engines,
    repo,
    traces,
    verification: createContractVerification({ verify: options.verify }),
    outbox,
    routes: () => [{ match: { severity: ['warning'] }, notify: ['pager'] }],
    metrics,
  });
  const applyInTransaction = (prepared: Parameters<typeof handler.apply>[0]) =>
    store.transaction(() => handler.apply(prepared));
  /** What the tailer's handOver does: apply in one transaction, then `committed` once it committed. */
  const handOver = (prepared: Parameters<typeof handler.apply>[0]) => {
    applyInTransaction(prepared);
    handler.committed?.(prepared);
  };
  const matches = async () =>
    Object.fromEntries((await metrics.ruleMatches.get()).values.map((v) => [v.labels.rule, v.value]));
  const alertCount = async () => (await metrics.alerts.get()).values.reduce((sum, v) => sum + v.value, 0);
  return {
    store,
    repo,
    outbox,
    engines,
    handler,
    fetched,
    applyInTransaction,
    handOver,
    matches,
    alertCount,
  };
}

const item = (record: TailRecord['record']): TailRecord =>
  ({ source: 'transactions', record, account: WATCHED }) as TailRecord;
const signal = new AbortController().signal;

function catching(fn: () => void): string {
  try {
    fn();
    return 'no error';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('pipeline handler', () => {
  it('enqueues an alert for the rule and the routes, and saves its state, in one apply', async () => {
    const p = setup();
    const prepared = await p.handler.prepare([item(transfer(WATCHED.id, '0.0.9', 2_000n * HBAR))], signal);

    p.applyInTransaction(prepared);

    expect([...p.outbox.depth()].sort()).toEqual([
      ['ops', 1],
      ['pager', 1],
    ]);
    expect([...p.repo.load().groups].map((g) => g.ruleId)).toEqual(['large-debit']);
  });

  it('fetches a call trace only for records a trace rule would otherwise match', async () => {
    const p = setup(() => [action({ call_depth: 6 })]);

    const prepared = await p.handler.prepare(
      [
        item(tx({ name: 'CRYPTOTRANSFER' })),
        item(tx({ name: 'CONTRACTCALL', consensus_timestamp: '1700000001.000000000' })),
      ],
      signal,
    );
    p.applyInTransaction(prepared);

    expect(p.fetched).toHaveLength(1);
    expect([...p.repo.load().groups].map((g) => g.ruleId)).toEqual(['deep-call']);
  });

  it('treats a 404 from the actions endpoint as no trace, and fails the page on other errors', async () => {
    const missing = setup(() => new LedgerHttpError(404, ['Not found'], '/actions'));
    const broken = setup(() => new LedgerHttpError(400, ['Bad'], '/actions'));
    const call = [item(tx({ name: 'CONTRACTCALL' }))];

    const prepared = await missing.handler.prepare(call, signal);
    const failed = broken.handler.prepare(call, signal);

    expect(prepared.events[0]?.traces).toEqual([]);
    await expect(failed).rejects.toThrow(LedgerHttpError);
  });

  it('rolls the page back when the rules were reloaded between prepare and apply', async () => {
    const p = setup();
    const prepared = await p.handler.prepare([item(transfer(WATCHED.id, '0.0.9', 2_000n * HBAR))], signal);
    p.engines.replace(ruleSetFrom(RULES));
    p.engines.current();

    const apply = () => p.applyInTransaction(prepared);

    expect(apply).toThrow('rules were reloaded during the page');
    expect(p.outbox.depth().size).toBe(0);
    expect([...p.repo.load().groups]).toEqual([]);
  });

  it('has a zero-valued match series for every loaded rule from the start', async () => {
    const p = setup();

    const matches = await p.matches();

    expect(matches).toEqual({ 'large-debit': 0, 'deep-call': 0 });
  });

  it('counts the rules each record matched once its page committed, throttled repeats included', async () => {
    const p = setup(() => [action({ call_depth: 6 })]);
    const debit = (s: number) =>
      item(
        transfer(WATCHED.id, '0.0.9', 2_000n * HBAR, {
          consensus_timestamp: `${1_700_000_000 + s}.000000000`,
        }),
      );
    const prepared = await p.handler.prepare(
      [debit(0), debit(1), item(tx({ name: 'CONTRACTCALL' }))],
      signal,
    );

    p.applyInTransaction(prepared);
    const beforeCommit = await p.matches();
    p.handler.committed?.(prepared);

    expect(beforeCommit).toEqual({ 'large-debit': 0, 'deep-call': 0 });
    expect(await p.matches()).toEqual({ 'large-debit': 2, 'deep-call': 1 });
    expect(p.outbox.depth().get('ops')).toBe(2);
  });

  it('does not count a page that rolled back, and counts its replay once', async () => {
    const p = setup();
    const page = [item(transfer(WATCHED.id, '0.0.9', 2_000n * HBAR))];
    const stale = await p.handler.prepare(page, signal);
    p.engines.replace(ruleSetFrom(RULES));
    p.engines.current();

    const rolledBack = catching(() => p.handOver(stale));
    p.handOver(await p.handler.prepare(page, signal));

    expect(rolledBack).toMatch('rules were reloaded during the page');
    expect(await p.matches()).toEqual({ 'large-debit': 1, 'deep-call': 0 });
  });

  it('counts the alerts of a page whose transaction rolled back only once, when its replay commits', async () => {
    const p = setup();
    const page = [item(transfer(WATCHED.id, '0.0.9', 2_000n * HBAR))];
    const first = await p.handler.prepare(page, signal);

    const failed = catching(() =>
      p.store.transaction(() => {
        p.handler.apply(first);
        throw new Error('the tailer could not write its cursor');
      }),
    );
    p.handler.rolledBack?.(first);
    const afterRollback = await p.alertCount();
    p.handOver(await p.handler.prepare(page, signal));

    expect(failed).toMatch('could not write its cursor');
    expect(afterRollback).toBe(0);
    expect(await p.alertCount()).toBe(1);
    expect(p.outbox.depth().get('ops')).toBe(1);
  });

  it.each([
    [
      'verifies a creation whose deep trace makes the rule match',
      6,
      ['0x0000000000000000000000000000000000001b5f'],
    ],
    ['does not verify a creation whose shallow trace rules it out', 1, []],
  ])('%s (the verification need is decided after the trace)', async (_label, depth, expected) => {
    const rules = `rules:
  - id: deep-creation
    when: { type: [CONTRACTCREATEINSTANCE], call_depth: 5 }
    verify_contracts: true
    summary: deep creation
    notify: [ops]
`;
    const asked: string[] = [];
    const p = setup(() => [action({ call_depth: depth })], {
      rules,
      verify: async (address) => {
        asked.push(address);
        return { status: 'perfect' };
      },
    });
    const creation = item(tx({ name: 'CONTRACTCREATEINSTANCE', entity_id: '0.0.7007' }));

    p.applyInTransaction(await p.handler.prepare([creation], signal));

    expect(asked).toEqual(expected);
    expect(p.outbox.depth().get('ops') ?? 0).toBe(expected.length);
  });

  it('verifies a contract a watched account created and puts the status into the alert', async () => {
    const rules = `rules:
  - id: new-contract
    when: { type: [CONTRACTCREATEINSTANCE] }
    verify_contracts: true
    summary: new contract
    notify: [ops]
`;
    const asked: string[] = [];
    const p = setup(() => [], {
      rules,
      verify: async (address) => {
        asked.push(address);
        return { status: 'perfect' };
      },
    });
    const creation = item(tx({ name: 'CONTRACTCREATEINSTANCE', entity_id: '0.0.7007' }));

    p.applyInTransaction(await p.handler.prepare([creation, item(tx({}))], signal));

    const queued = p.outbox
      .due(Number.MAX_SAFE_INTEGER)
      .filter((row) => row.channel === 'ops')
      .map((row) => row.alert);
    expect(asked).toEqual(['0x0000000000000000000000000000000000001b5f']);
    expect(queued.map((a) => [a.ruleId, a.annotations.contract_verification])).toEqual([
      ['new-contract', 'perfect'],
    ]);
  });
});
