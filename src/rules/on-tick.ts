// What the passing of time does to the engine's state: absences fire, drained windows resolve, stale groups go.
import type { Alert } from './alert.js';
import type { CompiledRule, CompiledWindow } from './compile.js';
import { dropState, type EngineState } from './engine-state.js';
import { fireAlert, syntheticView } from './fire-alert.js';
import { alertKey } from './group-key.js';
import { isStale } from './is-stale.js';
import { resolveAlert } from './resolve-alert.js';
import { stateFor } from './state-for.js';
import { trimWindow, windowHolds } from './windows.js';

export function onTick(state: EngineState, nowNs: bigint): Alert[] {
  const out: Alert[] = [];
  for (const rule of state.ruleSet.rules) {
    if (rule.window?.kind === 'absent') tickAbsence(state, rule, rule.window, nowNs, out);
    if (rule.window && state.pendingLimits.get(rule.id))
      for (const key of state.pending.trim(rule.id, rule.window, nowNs)) state.deleted.add(key);
  }
  for (const s of [...state.states.values()]) {
    const rule = state.rules.get(s.ruleId);
    const w = rule?.window;
    if (!rule) continue;
    if (w && w.kind !== 'absent') trimWindow(s, w, nowNs);
    if (w && w.kind !== 'absent' && s.firing && !windowHolds(s, w)) {
      out.push(resolveAlert(state.ruleSet, rule, s, nowNs, syntheticView(s)));
      state.dirty.add(s);
    }
    if (isStale(rule, s, nowNs, state.absenceAccounts.get(rule))) dropState(state, s);
  }
  return out;
}

function tickAbsence(
  state: EngineState,
  rule: CompiledRule,
  w: CompiledWindow,
  nowNs: bigint,
  out: Alert[],
): void {
  for (const account of state.ruleSet.accounts) {
    if (!state.absenceAccounts.get(rule)?.has(account.id)) continue;
    const key = alertKey(rule.id, { account: account.id });
    const s = state.states.get(key) ?? stateFor(state, rule, [account.id], account);
    if (s.lastSeenNs === undefined) {
      s.lastSeenNs = nowNs; // first sight: the absence is measured from now
      state.dirty.add(s);
      continue;
    }
    const overdue = nowNs - s.lastSeenNs >= w.durationNs;
    const repeatDue = s.firing && nowNs - (s.lastSentNs ?? 0n) >= rule.throttleNs;
    if ((overdue && !s.firing) || repeatDue) {
      state.dirty.add(s);
      out.push(fireAlert(state.ruleSet, rule, s, { nowNs }, syntheticView(s), undefined));
    }
  }
}
