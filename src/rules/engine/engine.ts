// The rule engine: records and time in, alert transitions out. Pure apart from its own in-memory state (which
// takeChanges() hands to the state repository); no I/O, no clock — tick(now) is given the time.
//
// evaluate() is all-or-nothing per record: when a rule still needs call traces or contract verification, it
// changes nothing and says so, and the pipeline calls it again with them.
import type { Alert } from '../alert/alert.js';
import type { CompiledRule, RuleSet } from '../load/rule-set.js';
import { Facts, RecordFacts, cachedMemoDecoder, type RecordEvent } from '../facts/facts.js';
import type { EngineSnapshot, StateChanges } from '../alert-state/group-state.js';
import { createRuleIndex, withinBounds, type Candidate } from '../index/rule-index.js';
import { createEngineState } from './engine-state.js';
import { onMatch } from './on-match.js';
import { onTick } from './on-tick.js';
import { takeChanges } from './take-changes.js';

/** The matched list of a record no rule matched (never pushed to). */
const NONE: CompiledRule[] = [];
/** The matched ids of an evaluation that matched nothing: most (record, account) pairs, so one shared array. */
const NO_IDS: readonly string[] = Object.freeze([]);

export interface EngineEvent extends RecordEvent {
  /** Enrichment results (enrich/verification.ts); undefined = not fetched yet. */
  readonly annotations?: Readonly<Record<string, string>>;
}

export interface Evaluation {
  readonly alerts: Alert[];
  /** Ids of the rules whose condition the record met (alert or not: throttled, or only counted in a window). */
  readonly matched: readonly string[];
  /** A rule depends on call traces: fetch them and evaluate again with `traces` (nothing changed). */
  readonly needsTrace: boolean;
  /** A `verify_contracts` rule matched a contract creation: verify it and evaluate again with `annotations`. */
  readonly needsVerification: boolean;
}

export interface Engine {
  /** What evaluate() would ask for, without changing anything (for the pipeline's async prepare step). */
  needs(event: EngineEvent): { trace: boolean; verification: boolean; matched: boolean };
  /** Tokens whose facts a rule needs to decide (RuleSet.factsTokens): read them before evaluating a record moving one. */
  readonly factsTokens: ReadonlySet<string>;
  evaluate(event: EngineEvent): Evaluation;
  /**
   * Absence windows fire, drained count/sum windows resolve, stale groups are dropped. `now` in ms. `ledgerNs`,
   * when known, is the newest consensus time the ledger has shown (the tail's head): windows and throttles hold
   * consensus times, so they drain by it, never past `now` (docs/tailing.md, "Clock steps").
   */
  tick(nowMs: number, ledgerNs?: bigint): Alert[];
  /** Group states changed since the last call: what the state repository must write. */
  takeChanges(): StateChanges;
}

export function createEngine(ruleSet: RuleSet, snapshot?: EngineSnapshot): Engine {
  // Every collection the alert transitions read and write (engine-state.ts); the transitions are functions of it.
  const state = createEngineState(ruleSet, snapshot);
  const index = createRuleIndex(ruleSet);
  // The record-level values of the record seen last: one record is evaluated once per watched account.
  const memoDecoder = cachedMemoDecoder();
  let shared = new RecordFacts({}, memoDecoder);
  // The last Facts is kept too. While one instance lives, so does its hidden class: a major GC between two pages
  // otherwise collects it, and with it every optimized function that reads Facts (V8 deopts on "weak objects").
  const alive: { facts?: Facts } = {};

  function classify(event: EngineEvent) {
    if (shared.record !== event.record) shared = new RecordFacts(event.record, memoDecoder);
    const facts = new Facts(event, shared);
    alive.facts = facts;
    const accountId = event.account.id;
    const transactions = event.source === 'transactions';
    const list = transactions ? index.candidates(facts) : ruleSet.bySource[event.source];
    let matched: CompiledRule[] = NONE;
    let trace = false;
    for (let i = 0; i < list.length; i++) {
      let rule: CompiledRule;
      if (transactions) {
        const c = list[i] as Candidate;
        if (c.bounded && !withinBounds(c, facts)) continue;
        rule = c.rule;
      } else rule = list[i] as CompiledRule;
      if (rule.accountIds && !rule.accountIds.has(accountId)) continue;
      const verdict = rule.predicate(facts);
      if (verdict === undefined) trace = true;
      else if (verdict) {
        if (matched === NONE) matched = [];
        matched.push(rule);
      }
    }
    const verification =
      event.annotations === undefined && matched.some((r) => r.verifyContracts && isContractCreation(facts));
    return { facts, matched, trace, verification };
  }

  return {
    needs(event) {
      const { trace, verification, matched } = classify(event);
      return { trace, verification, matched: matched.length > 0 };
    },
    factsTokens: ruleSet.factsTokens ?? new Set(),
    evaluate(event) {
      const { facts, matched, trace, verification } = classify(event);
      if (trace || verification)
        return { alerts: [], matched: [], needsTrace: trace, needsVerification: verification };
      const alerts: Alert[] = [];
      if (matched === NONE) return { alerts, matched: NO_IDS, needsTrace: false, needsVerification: false };
      const ids = new Array<string>(matched.length);
      for (let i = 0; i < matched.length; i++) {
        const rule = matched[i] as CompiledRule;
        onMatch(state, rule, facts, event.annotations, alerts);
        ids[i] = rule.id;
      }
      return { alerts, matched: ids, needsTrace: false, needsVerification: false };
    },
    tick: (nowMs, ledgerNs) => onTick(state, BigInt(Math.trunc(nowMs)) * 1_000_000n, ledgerNs),
    takeChanges: () => takeChanges(state),
  };
}

/** A successful CONTRACTCREATEINSTANCE that names the new contract. */
export function isContractCreation(f: Facts): boolean {
  return f.tx?.name === 'CONTRACTCREATEINSTANCE' && f.tx.result === 'SUCCESS' && !!f.tx.entity_id;
}
