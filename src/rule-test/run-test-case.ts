// One test: a fresh offline pipeline (the daemon's own, as the backtest drives it: pipeline/offline/), the inputs
// matched to the watch list (records-of.ts) and handed over in order (call traces, verification, alert state,
// the outbox), and the rule tick stepped from the start to the end so absence and window rules see time pass.
// Returns every alert the outbox would have sent, with the time it was sent at.
import { actionsIdFor, createCallTraces } from '../enrich/call-trace.js';
import { createContractVerification, createdContractAddress } from '../enrich/verification.js';
import type { ContractAction } from '@ledger-sentinel/ledger-model/schema';
import type { RuleSet } from '../rules/load/compile.js';
import { createOfflinePipeline, type OfflinePipeline } from '../pipeline/offline/offline-pipeline.js';
import type { TailRecord } from '../tail/streams/record-handler.js';
import type { WatchedAccount } from '../accounts/watched-account.js';
import { recordsOf, watchListOf, type WatchList } from '../pipeline/offline/records-of.js';
import { createTokenFacts, type TokenFactsStore } from '../tokens/token-facts.js';
import { buildReward, buildTrace, buildTransaction } from './build-records.js';
import type { Input, TestCase, TestFile } from './schema.js';
import { clockOf, type TestClock } from './test-clock.js';
import { resolveTime } from './test-time.js';
import type { SentAlert, TestRun } from './types.js';

export interface TestContext {
  readonly spec: Pick<TestFile, 'start' | 'eval_interval' | 'tokens'>;
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
  const pipeline = createOfflinePipeline({
    ruleSet: ctx.ruleSet,
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
    tokens: tokenFactsOf(ctx.spec.tokens),
  });
  try {
    return { clock, sent: await runMoments(pipeline, moments, clock) };
  } finally {
    pipeline.close();
  }
}

/** The test file's tokens answered as the query service would answer them; any other token is unknown (404). */
function tokenFactsOf(tokens: TestFile['tokens']): TokenFactsStore {
  const bodies = new Map(
    tokens.map((t) => [
      t.id,
      {
        token_id: t.id,
        decimals: String(t.decimals),
        ...(t.symbol === undefined ? {} : { symbol: t.symbol }),
      },
    ]),
  );
  const names = new Map(tokens.flatMap((t) => (t.name === undefined ? [] : [[t.id, t.name] as const])));
  return createTokenFacts({ fetch: async (id) => bodies.get(id) ?? null, names });
}

async function runMoments(pipeline: OfflinePipeline, moments: readonly Moment[], clock: TestClock) {
  const sent: SentAlert[] = [];
  let now = clock.start;
  const tick = (atNs: bigint) => {
    const ms = atNs / 1_000_000n;
    for (const alert of pipeline.tick(Number(ms))) sent.push({ atNs: ms * 1_000_000n, alert });
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
    for (const alert of await pipeline.handOver(moment.items)) sent.push({ atNs: moment.atNs, alert });
  }
  stepTo(clock.end);
  return sent;
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
