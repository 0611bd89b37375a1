// One test: a fresh engine, the inputs fed in order through the backtest's evaluation path (records-of.ts,
// evaluate-records.ts: watch-list matching, call traces, verification), and the clock stepped from the start to
// the end so absence and window rules see time pass. Returns every alert with the time it was sent at.
import { actionsIdFor, createCallTraces } from '../../enrich/call-trace.js';
import { createContractVerification, createdContractAddress } from '../../enrich/verification.js';
import type { ContractAction } from '@ledger-sentinel/ledger-model/schema';
import type { Alert } from '../../rules/alert.js';
import type { RuleSet } from '../../rules/compile.js';
import { createEngine } from '../../rules/engine.js';
import type { TailRecord } from '../../tail/streams/record-handler.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import { evaluateRecords, type EnrichSources } from '../backtest/evaluate-records.js';
import { recordsOf, watchListOf, type WatchList } from '../backtest/records-of.js';
import { buildReward, buildTrace, buildTransaction } from './build-records.js';
import type { Input, TestCase, TestFile } from './schema.js';
import { clockOf, type TestClock } from './test-clock.js';
import { resolveTime } from './test-time.js';

export interface SentAlert {
  /** When the engine emitted it: the record's time, or the clock step's (ticks are whole milliseconds). */
  readonly atNs: bigint;
  readonly alert: Alert;
}

export interface TestRun {
  readonly clock: TestClock;
  readonly sent: SentAlert[];
}

export interface TestContext {
  readonly spec: Pick<TestFile, 'start' | 'eval_interval'>;
  readonly ruleSet: RuleSet;
  readonly accounts: readonly WatchedAccount[];
}

interface Moment {
  readonly atNs: bigint;
  readonly items: TailRecord[];
}

export async function runTestCase(test: TestCase, ctx: TestContext): Promise<TestRun> {
  const clock = clockOf(test, ctx.spec);
  const traces = new Map<string, ContractAction[]>();
  const statuses = new Map<string, string>();
  const watch = watchListOf(ctx.accounts);
  const moments = test.input.map((input, i) => momentOf(input, i, clock, watch, { traces, statuses }));
  const sources: EnrichSources = {
    traces: createCallTraces({
      listActions: async function* (id) {
        yield { records: traces.get(id) ?? [] };
      },
    }),
    // A contract without a `verification:` answer reads as it does in a daemon with no verification service.
    verification: createContractVerification({
      verify: async (address) =>
        statuses.has(address)
          ? { status: statuses.get(address) as string }
          : { status: 'not checked', message: 'no verification service is configured' },
    }),
  };
  const engine = createEngine(ctx.ruleSet);
  const sent: SentAlert[] = [];
  let now = clock.start;
  const tick = (atNs: bigint) => {
    const ms = atNs / 1_000_000n;
    for (const alert of engine.tick(Number(ms))) sent.push({ atNs: ms * 1_000_000n, alert });
    now = atNs;
  };
  let next = clock.start;
  // Every step up to `until`, then `until` itself: the daemon's clock does not wait for the next step.
  const stepTo = (until: bigint) => {
    for (; next <= until; next += clock.interval) tick(next);
    if (until > now) tick(until);
  };
  for (const moment of moments) {
    stepTo(moment.atNs);
    for (const alert of await evaluateRecords(engine, moment.items, sources))
      sent.push({ atNs: moment.atNs, alert });
  }
  stepTo(clock.end);
  return { clock, sent };
}

interface Enrichment {
  readonly traces: Map<string, ContractAction[]>;
  readonly statuses: Map<string, string>;
}

function momentOf(
  input: Input,
  serial: number,
  clock: TestClock,
  watch: WatchList,
  enrichment: Enrichment,
): Moment {
  const atNs = clock.inputs[serial] as bigint;
  const first = watch.byId.values().next().value as WatchedAccount;
  if (input.reward) {
    const id = input.reward.account ?? first.id;
    const account = watch.byId.get(id) as WatchedAccount;
    const record = buildReward(id, input.reward.amount, atNs);
    return { atNs, items: [{ source: 'rewards', record, account }] };
  }
  const tx = input.tx as NonNullable<Input['tx']>;
  const parentNs = tx.parent && resolveTime(tx.parent, clock.start);
  const record = buildTransaction(tx, { atNs, defaultPayer: first.id, parentNs, serial });
  if (input.trace) enrichment.traces.set(actionsIdFor(record), buildTrace(input.trace, record));
  const created = createdContractAddress(record);
  if (input.verification && created) enrichment.statuses.set(created, input.verification);
  return { atNs, items: recordsOf(record, watch) };
}
