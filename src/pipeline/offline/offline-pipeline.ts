// The daemon's pipeline without a service, a state directory or receivers, for `ledger-sentinel backtest` and rule
// tests: the same handler (pipeline.ts: enrichment in prepare, evaluation, alert state, routing and the outbox in
// apply) and the same rule tick (tick-rules.ts), on an in-memory state store. Records are handed over as the
// tailer does (prepare, then apply in one transaction, then committed); what the outbox would send is collected
// (collect-sent.ts) and returned instead of delivered. Nothing outlives close().
import type { CallTraces } from '../../enrich/call-trace.js';
import type { ContractVerification } from '../../enrich/verification.js';
import type { TokenFactsStore } from '../../tokens/token-facts.js';
import { createOutbox } from '../../delivery/outbox.js';
import type { Route } from '../../notifiers/schema.js';
import { createMetrics } from '../../observability/metrics.js';
import type { Alert } from '../../rules/alert/alert.js';
import type { RuleSet } from '../../rules/load/compile.js';
import { createRuleStateRepo } from '../../rules/alert-state/state-repo.js';
import { openStateStore } from '../../state/store.js';
import type { TailRecord } from '../../tail/streams/record-handler.js';
import { createEngineHolder } from '../engine-holder.js';
import { createPipelineHandler } from '../pipeline.js';
import { tickRules } from '../tick-rules.js';
import { collectSent } from './collect-sent.js';

export interface OfflinePipelineOptions {
  readonly ruleSet: RuleSet;
  /** The config's routes (none in a rule test): alerts are routed as in the daemon, then collected. */
  readonly routes?: readonly Route[];
  readonly traces: CallTraces;
  readonly verification: ContractVerification;
  /** Token facts for amounts in token units (backtest reads them from the query service); none: raw units. */
  readonly tokens?: TokenFactsStore;
}

export interface OfflinePipeline {
  /** One page of records, as the tailer hands it over; returns the alerts the daemon would send for it. */
  handOver(records: readonly TailRecord[], signal?: AbortSignal): Promise<Alert[]>;
  /** The daemon's rule tick at `nowMs`; returns the alerts it would send. */
  tick(nowMs: number): Alert[];
  /** Drops the in-memory state. */
  close(): void;
}

const NEVER = new AbortController().signal;

export function createOfflinePipeline(options: OfflinePipelineOptions): OfflinePipeline {
  const store = openStateStore({ dir: ':memory:' });
  const repo = createRuleStateRepo(store);
  const sent = collectSent(createOutbox(store, Date.now));
  const engines = createEngineHolder(options.ruleSet, repo);
  const routes = () => options.routes ?? [];
  const metrics = createMetrics();
  const deps = { store, repo, engines, metrics, outbox: sent.outbox, routes };
  const handler = createPipelineHandler({
    ...deps,
    traces: options.traces,
    verification: options.verification,
    ...(options.tokens ? { tokens: options.tokens } : {}),
  });
  return {
    async handOver(records, signal = NEVER) {
      if (records.length === 0) return [];
      const prepared = await handler.prepare(records, signal);
      try {
        store.transaction(() => handler.apply(prepared));
      } catch (err) {
        sent.take(); // enqueued in the transaction that rolled back: never sent
        handler.rolledBack?.(prepared);
        throw err;
      }
      handler.committed?.(prepared);
      return sent.take();
    },
    tick(nowMs) {
      try {
        tickRules(deps, nowMs);
      } catch (err) {
        sent.take();
        throw err;
      }
      return sent.take();
    },
    close() {
      void store.close();
    },
  };
}
