// Finding (or creating) the full group state a match belongs to.
import type { AlertAccount } from '../alert/alert.js';
import type { CompiledRule } from '../load/rule-set.js';
import { indexState, type EngineState } from './engine-state.js';
import { groupsByAccount, keyOf } from '../alert-state/group-key.js';
import { newGroupState, type GroupState } from '../alert-state/group-state.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

/** The state of the rule's group `values`, created (or promoted from pending) on first use, marked dirty. */
export function stateFor(
  state: EngineState,
  rule: CompiledRule,
  values: readonly string[],
  account: WatchedAccount,
): GroupState {
  let s = lookup(state, rule, values);
  if (!s) {
    const key = keyOf(rule.id, rule.groupBy, values);
    s = state.states.get(key) ?? newGroupState(key, rule.id, groupOf(state, rule, values));
    // A pending group outgrew its bound: it becomes a full state with the times it had.
    const times = groupsByAccount(rule.groupBy) ? state.pending.take(rule.id, values[0] ?? '') : undefined;
    if (times) s.times = [...times];
    state.states.set(key, s);
    indexState(state, rule, s);
  }
  if (s.account?.name !== account.name || s.account.labels !== account.labels) {
    let shared = state.alertAccounts.get(account);
    if (!shared) state.alertAccounts.set(account, (shared = toAlertAccount(account)));
    s.account = shared;
  }
  state.dirty.add(s);
  if (state.deleted.size) state.deleted.delete(s.key);
  return s;
}

function lookup(state: EngineState, rule: CompiledRule, values: readonly string[]): GroupState | undefined {
  if (groupsByAccount(rule.groupBy)) return state.byAccount.get(rule.id)?.get(values[0] ?? '');
  return state.states.get(keyOf(rule.id, rule.groupBy, values));
}

function groupOf(
  state: EngineState,
  rule: CompiledRule,
  values: readonly string[],
): Readonly<Record<string, string>> {
  if (!groupsByAccount(rule.groupBy))
    return Object.fromEntries(rule.groupBy.map((k, i) => [k, values[i] ?? '']));
  const id = values[0] ?? '';
  let g = state.accountGroups.get(id);
  if (!g) state.accountGroups.set(id, (g = { account: id }));
  return g;
}

function toAlertAccount(a: WatchedAccount): AlertAccount {
  return { id: a.id, name: a.name, labels: a.labels };
}
