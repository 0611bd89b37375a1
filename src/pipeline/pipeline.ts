// The daemon's RecordHandler: the pipeline step of docs/architecture.md. prepare() does the I/O a rule asks for
// (call traces, contract verification) and writes nothing; apply() runs inside the tailer's transaction:
// evaluate → alert state saved → routed → enqueued in the outbox. If rules were reloaded between the two, the
// page is rolled back and replayed, so it is never evaluated half by old rules and half by new ones.
import type { CallTraces } from '../enrich/call-trace.js';
import { actionsIdFor } from '../enrich/call-trace.js';
import type { ContractVerification } from '../enrich/verification.js';
import type { TokenFactsStore } from '../tokens/token-facts.js';
import { tokensMoved } from './tokens-moved.js';
import { LedgerHttpError } from '../ledger/errors.js';
import type { ContractAction, Transaction } from '@ledger-sentinel/ledger-model/schema';
import type { Metrics } from '../observability/metrics.js';
import type { Engine, EngineEvent } from '../rules/engine/engine.js';
import type { RuleStateRepo } from '../rules/alert-state/state-repo.js';
import type { RecordHandler, TailRecord } from '../tail/streams/record-handler.js';
import type { Alert } from '../rules/alert/alert.js';
import { countAlerts, emitAlerts, type EmitDeps } from './emit-alerts.js';
import type { EngineHolder } from './engine-holder.js';

export interface PipelineDeps extends EmitDeps {
  readonly metrics: Pick<Metrics, 'alerts' | 'ruleMatches'>;
  readonly engines: EngineHolder;
  readonly repo: RuleStateRepo;
  readonly traces: CallTraces;
  readonly verification: ContractVerification;
  /** Token facts (decimals, symbol) for amounts in token units; absent: amounts stay in raw units. */
  readonly tokens?: TokenFactsStore;
  /** Called after apply() enqueued alerts (the delivery worker's poke). */
  readonly onAlerts?: () => void;
  /** Told the per-rule match counts of every committed page (the status page's "last match"). */
  readonly onMatches?: (counts: ReadonlyMap<string, number>) => void;
}

export interface Prepared {
  readonly engine: Engine;
  readonly events: readonly EngineEvent[];
}

export function createPipelineHandler(deps: PipelineDeps): RecordHandler<Prepared> {
  // Zero-valued series for every loaded rule, so rate() and absent() work before the first match.
  for (const rule of deps.engines.ruleSet().rules) deps.metrics.ruleMatches.inc({ rule: rule.id }, 0);
  // Matches and alerts of pages applied but not yet committed: counted once the tailer's transaction commits.
  const matches = new WeakMap<Prepared, { rules: Map<string, number>; alerts: Alert[] }>();
  return {
    async prepare(batch, signal) {
      const engine = deps.engines.current();
      const events: EngineEvent[] = [];
      for (const item of batch) {
        signal.throwIfAborted();
        events.push(await enrichEvent(engine, item, deps));
      }
      return { engine, events };
    },
    apply(prepared) {
      const engine = deps.engines.committed();
      if (engine !== prepared.engine) throw new Error('rules were reloaded during the page; it is replayed');
      const counts = new Map<string, number>();
      const alerts: Alert[] = [];
      try {
        for (const event of prepared.events) {
          const evaluation = engine.evaluate(event);
          if (evaluation.needsTrace || evaluation.needsVerification)
            throw new Error('a rule still needs enrichment after prepare; the page is replayed');
          emitAlerts(deps, evaluation.alerts);
          alerts.push(...evaluation.alerts);
          for (const rule of evaluation.matched) counts.set(rule, (counts.get(rule) ?? 0) + 1);
        }
        const changes = engine.takeChanges();
        deps.repo.apply(changes);
        // State dropped without a resolve (rule removed, account no longer watched) is no longer kept alive.
        deps.outbox.firing.forget(changes.deletes);
      } catch (err) {
        deps.engines.invalidate();
        throw err;
      }
      matches.set(prepared, { rules: counts, alerts });
      deps.onAlerts?.();
    },
    committed(prepared) {
      const applied = matches.get(prepared);
      for (const [rule, n] of applied?.rules ?? []) deps.metrics.ruleMatches.inc({ rule }, n);
      if (applied) deps.onMatches?.(applied.rules);
      countAlerts(deps.metrics, applied?.alerts ?? []);
      matches.delete(prepared);
    },
    // The engine's in-memory state already took the page in; the store did not. Reload it from the store, or
    // the replayed page would find its alerts "already fired" and they would be lost.
    rolledBack(prepared) {
      deps.engines.invalidate();
      matches.delete(prepared);
    },
  };
}

/** The engine event for one record, with the traces and annotations its rules need (and only those). */
export async function enrichEvent(
  engine: Engine,
  item: TailRecord,
  deps: Pick<PipelineDeps, 'traces' | 'verification' | 'tokens'>,
): Promise<EngineEvent> {
  let event: EngineEvent = { source: item.source, record: item.record, account: item.account };
  if (item.stateTimeNs !== undefined) event = { ...event, stateTimeNs: item.stateTimeNs };
  if (item.source !== 'transactions') return event;
  const tx: Transaction = item.record;
  const moved = deps.tokens ? tokensMoved(tx, item.account.id) : [];
  if (deps.tokens && moved.length > 0) event = await withTokenFacts(engine, event, moved, deps.tokens);
  let needs = engine.needs(event);
  if (needs.trace) {
    event = { ...event, traces: await actionsOf(tx, deps.traces) };
    needs = engine.needs(event); // a rule decided by the trace may be the one that asks for verification
  }
  if (needs.verification) event = { ...event, annotations: await deps.verification.annotate(tx) };
  // The alert's amounts: every token the record moves for the account, once a rule matched (traces included).
  if (deps.tokens && moved.length > 0 && needs.matched) await deps.tokens.ensure(moved);
  return event;
}

/**
 * The event with the token facts lookup, after reading the facts of the moved tokens a rule decides by (an amount
 * in tokens or a symbol). A token whose facts cannot be read leaves its amounts in raw units and such a condition
 * unmatched; the store counts and logs it.
 */
async function withTokenFacts(
  engine: Engine,
  event: EngineEvent,
  moved: readonly string[],
  tokens: TokenFactsStore,
): Promise<EngineEvent> {
  const decisive = moved.filter((id) => engine.factsTokens.has(id));
  if (decisive.length > 0) await tokens.ensure(decisive);
  return { ...event, tokenFacts: tokens.units };
}

/** A transaction the actions endpoint does not know (404) has no trace; anything else fails the poll (retried). */
async function actionsOf(tx: Transaction, traces: CallTraces): Promise<readonly ContractAction[]> {
  try {
    return (await traces.get(actionsIdFor(tx))).actions;
  } catch (err) {
    if (err instanceof LedgerHttpError && err.status === 404) return [];
    throw err;
  }
}
