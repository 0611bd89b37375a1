// The offline pipeline (backtest, rule tests) is the daemon's: alert state carried from page to page, the rule
// tick firing and resolving windows, a page that failed in prepare handed over again, and the outbox as the sink.
import { describe, expect, it } from 'vitest';
import { createCallTraces } from '../../enrich/call-trace.js';
import { createContractVerification } from '../../enrich/verification.js';
import { createOutbox } from '../../delivery/outbox.js';
import type { Alert } from '../../rules/alert/alert.js';
import { openStateStore } from '../../state/store.js';
import type { TailRecord } from '../../tail/streams/record-handler.js';
import { HBAR, OTHER, WATCHED, action, transfer, tx } from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';
import { collectSent } from './collect-sent.js';
import { createOfflinePipeline } from './offline-pipeline.js';

const RULES = `rules:
  - id: large-debit
    when: { debit: '1000 hbar' }
    summary: big
    throttle: 1m
  - id: quiet
    when: { debit: '1 tinybar' }
    window: { duration: 2h, absent: true }
    summary: quiet
  - id: deep-call
    when: { type: [CONTRACTCALL], call_depth: 5 }
    summary: deep
`;
const T0 = 1_700_000_000;

type ListActions = Parameters<typeof createCallTraces>[0]['listActions'];

function pipelineWith(listActions: ListActions) {
  return createOfflinePipeline({
    ruleSet: ruleSetFrom(RULES),
    routes: [{ match: { severity: ['warning'] }, notify: ['pager'] }],
    traces: createCallTraces({ listActions }),
    verification: createContractVerification({ verify: undefined }),
  });
}

const debitAt = (seconds: number, amount = 2_000n * HBAR): TailRecord => ({
  source: 'transactions',
  record: transfer(WATCHED.id, '0.0.9', amount, { consensus_timestamp: `${T0 + seconds}.000000000` }),
  account: WATCHED,
});
const states = (alerts: readonly Alert[]) =>
  alerts.map((a) => `${a.ruleId} ${a.status} ${a.account?.id ?? '-'}`).sort();

describe('offline pipeline', () => {
  it('keeps alert state from page to page: a throttled repeat is not sent, the absence tick fires', async () => {
    const pipeline = pipelineWith(async function* () {});
    try {
      const first = await pipeline.handOver([debitAt(0)]);
      const repeat = await pipeline.handOver([debitAt(10)]);
      const early = pipeline.tick((T0 + 3_600) * 1000);
      const late = pipeline.tick((T0 + 3 * 3_600) * 1000);

      expect(states(first)).toEqual([`large-debit firing ${WATCHED.id}`]);
      expect(repeat).toEqual([]);
      expect(early).toEqual([]);
      // Every watched account of the rule has been quiet for 2h: the one debited and the one never seen.
      expect(states(late)).toEqual([`quiet firing ${WATCHED.id}`, `quiet firing ${OTHER.id}`].sort());
    } finally {
      pipeline.close();
    }
  });

  it('hands a page whose call trace failed over again, as the tailer does, and sends its alert once', async () => {
    let calls = 0;
    const pipeline = pipelineWith(async function* () {
      calls += 1;
      if (calls === 1) throw new Error('query service unavailable');
      yield { records: [action({ call_depth: 6 })] };
    });
    const call: TailRecord = {
      source: 'transactions',
      record: tx({ name: 'CONTRACTCALL' }),
      account: WATCHED,
    };
    try {
      await expect(pipeline.handOver([call])).rejects.toThrow('query service unavailable');
      const again = await pipeline.handOver([call]);

      expect(states(again)).toEqual([`deep-call firing ${WATCHED.id}`]);
    } finally {
      pipeline.close();
    }
  });
});

describe('the sent-alert collector', () => {
  it('hands back each alert enqueued once, not the copies for more receivers, and keeps the outbox rows', async () => {
    const pipeline = pipelineWith(async function* () {});
    const [alert] = await pipeline.handOver([debitAt(0)]);
    pipeline.close();
    const store = openStateStore({ dir: ':memory:' });
    const sent = collectSent(createOutbox(store, () => 0));

    store.transaction(() => {
      sent.outbox.enqueue(alert as Alert, ['ops']);
      sent.outbox.enqueue(alert as Alert, ['pager'], { copy: true });
    });

    expect(sent.take()).toEqual([alert]);
    expect(sent.take()).toEqual([]);
    expect([
      sent.outbox.status(alert?.id ?? '', 'ops'),
      sent.outbox.status(alert?.id ?? '', 'pager'),
    ]).toEqual(['pending', 'pending']);
    void store.close();
  });
});
