// The rule engine's in-memory state, as one named structure: every collection the alert transitions read and
// write, with what each holds. The transitions (on-match.ts, on-tick.ts, take-changes.ts) are small functions
// that take it; nothing else holds state.
import type { AlertAccount } from '../alert/alert.js';
import type { CompiledRule, RuleSet } from '../load/rule-set.js';
import type { EngineSnapshot } from '../alert-state/group-state.js';
import { groupsByAccount } from '../alert-state/group-key.js';
import {
  groupStateStore,
  restoreGroupState,
  type GroupState,
  type StoredGroupState,
} from '../alert-state/group-state.js';
import { PendingCounts, pendingLimitOf, restoresPending } from '../windows/pending-counts.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

export interface EngineState {
  readonly ruleSet: RuleSet;
  /** The compiled rules by id. */
  readonly rules: ReadonlyMap<string, CompiledRule>;
  /** The full group states (alert state, window, shown records) by alert key. */
  readonly states: Map<string, GroupState>;
  /**
   * Full states changed since the last takeChanges(): written back then. The states themselves, not their keys:
   * a match marks one and takeChanges reads it without hashing the (long) key twice.
   */
  readonly dirty: Set<GroupState>;
  /** Keys whose stored state must go at the next takeChanges() (stale groups, rules that are gone). */
  readonly deleted: Set<string>;
  /** Count windows per account far below their threshold: bare match times (windows/pending-counts.ts). */
  readonly pending: PendingCounts;
  /** Writes a full group state as the repository stores it, sharing unchanged window entries (one cache per engine). */
  readonly store: (s: GroupState) => StoredGroupState;
  /** Per rule id: how many matches a group may hold and stay pending (0: never). */
  readonly pendingLimits: ReadonlyMap<string, number>;
  /**
   * The common `group_by: [account]`: its states by rule id and account id, so a match builds no key (this runs
   * per match). An entry lives exactly as long as the state it points to.
   */
  readonly byAccount: Map<string, Map<string, GroupState>>;
  /** One shared `{ account }` group object per account id, for the `group_by: [account]` states. */
  readonly accountGroups: Map<string, Readonly<Record<string, string>>>;
  /** One AlertAccount per watched account, shared by all of its states. */
  readonly alertAccounts: WeakMap<WatchedAccount, AlertAccount>;
  /** Accounts each absence rule watches now; the state of an account no longer watched is dropped on a tick. */
  readonly absenceAccounts: ReadonlyMap<CompiledRule, ReadonlySet<string>>;
}

/** The state of a rule set, restored from a snapshot of the stored groups (those of rules now gone are deleted). */
export function createEngineState(ruleSet: RuleSet, snapshot: EngineSnapshot | undefined): EngineState {
  const state: EngineState = {
    ruleSet,
    rules: new Map(ruleSet.rules.map((r) => [r.id, r])),
    states: new Map(),
    dirty: new Set(),
    deleted: new Set(),
    pending: new PendingCounts(),
    store: groupStateStore(),
    pendingLimits: new Map(ruleSet.rules.map((r) => [r.id, pendingLimitOf(r)])),
    byAccount: new Map(),
    accountGroups: new Map(),
    alertAccounts: new WeakMap(),
    absenceAccounts: absenceAccountsOf(ruleSet),
  };
  for (const g of snapshot?.groups ?? []) {
    const rule = state.rules.get(g.ruleId);
    if (!rule)
      state.deleted.add(g.key); // the rule is gone: forget its state
    else if (restoresPending(g, state.pendingLimits.get(rule.id) ?? 0))
      state.pending.restore(
        rule.id,
        g.group.account ?? '',
        g.window.map(([t]) => BigInt(t)),
      );
    else state.states.set(g.key, restoreGroupState(g));
  }
  for (const s of state.states.values()) indexState(state, state.rules.get(s.ruleId), s);
  return state;
}

/** Adds a full state to the per-account index when its rule groups by account. */
export function indexState(state: EngineState, rule: CompiledRule | undefined, s: GroupState): void {
  if (rule && groupsByAccount(rule.groupBy)) {
    let m = state.byAccount.get(rule.id);
    if (!m) state.byAccount.set(rule.id, (m = new Map()));
    m.set(s.group.account ?? '', s);
  }
}

/** Forgets a full state: out of memory and the index now, out of the store at the next takeChanges(). */
export function dropState(state: EngineState, s: GroupState): void {
  state.states.delete(s.key);
  state.byAccount.get(s.ruleId)?.delete(s.group.account ?? '');
  state.dirty.delete(s);
  state.deleted.add(s.key);
}

function absenceAccountsOf(ruleSet: RuleSet): Map<CompiledRule, ReadonlySet<string>> {
  return new Map(
    ruleSet.rules
      .filter((r) => r.window?.kind === 'absent')
      .map((r) => [
        r,
        new Set(ruleSet.accounts.filter((a) => !r.accountIds || r.accountIds.has(a.id)).map((a) => a.id)),
      ]),
  );
}
