// The rule engine as the tailers' RecordHandler (tail/record-handler.ts): prepare() fetches what rules need
// (call traces, contract verification) without writing state; apply() runs inside the tailer's store
// transaction and evaluates, saves alert state and hands the alerts to the outbox, all or nothing.
import type { Alert } from './alert.js';
import type { RuleSet } from './compile.js';
import { createEngine, type Engine, type EngineEvent } from './engine.js';
import type { RuleStateRepo } from './state-repo.js';
import { actionsIdFor, type CallTraces } from '../enrich/call-trace.js';
import type { ContractVerification } from '../enrich/verification.js';
import type { Transaction } from '../ledger/schema.js';
import type { RecordHandler, TailRecord } from '../tail/record-handler.js';

export interface RuleHandlerOptions {
  readonly ruleSet: RuleSet;
  readonly repo: RuleStateRepo;
  readonly traces: CallTraces;
  readonly verification: ContractVerification;
  /** Writes alerts to the outbox; called inside the same store transaction. */
  readonly enqueue: (alerts: readonly Alert[]) => void;
}

export interface RuleHandler extends RecordHandler<EngineEvent[]> {
  /** Absence windows and drained windows; call inside a store transaction, with the clock's time in ms. */
  tick(nowMs: number): void;
}

export function createRuleHandler(options: RuleHandlerOptions): RuleHandler {
  let engine: Engine = createEngine(options.ruleSet, options.repo.load());
  let written = options.repo.generation();

  // The engine's memory must equal what the store holds. When our last write was rolled back (here, or later in
  // the caller's transaction), the generation tells, and the engine goes back to the stored state.
  function commit(work: () => void): void {
    if (options.repo.generation() !== written) engine = createEngine(options.ruleSet, options.repo.load());
    try {
      work();
      written = options.repo.apply(engine.takeChanges());
    } catch (err) {
      engine = createEngine(options.ruleSet, options.repo.load());
      throw err;
    }
  }

  async function prepareOne(item: TailRecord): Promise<EngineEvent> {
    let event: EngineEvent = item;
    let needs = engine.needs(event);
    if (needs.trace) {
      const trace = await options.traces.get(actionsIdFor(item.record as Transaction));
      event = { ...event, traces: trace.actions };
      needs = engine.needs(event);
    }
    if (needs.verification)
      event = { ...event, annotations: await options.verification.annotate(item.record as Transaction) };
    return event;
  }

  return {
    prepare: (batch) => Promise.all(batch.map(prepareOne)),
    apply: (events) =>
      commit(() => {
        const alerts = events.flatMap((event) => engine.evaluate(event).alerts);
        if (alerts.length) options.enqueue(alerts);
      }),
    tick: (nowMs) =>
      commit(() => {
        const alerts = engine.tick(nowMs);
        if (alerts.length) options.enqueue(alerts);
      }),
  };
}
