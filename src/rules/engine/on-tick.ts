// What the passing of time does to the engine's state: absences fire, drained windows resolve, stale groups go.
// Absence is measured on the daemon's clock (time passing without a record). Count and sum windows and
// throttles hold consensus times, so they drain by the ledger's time when it is known (the newest consensus
// time shown, never past now): a wall clock that jumps ahead neither empties every window nor forgets every
// throttle, which would let each next match through (docs/tailing.md, "Clock steps").
import type { Alert } from '../alert/alert.js';
import type { CompiledRule, CompiledWindow } from '../load/rule-set.js';
import { dropState, type EngineState } from './engine-state.js';
import { fireAlert, syntheticView } from './fire-alert.js';
import { alertKey } from '../alert-state/group-key.js';
import { isStale } from './is-stale.js';
import { resolveAlert } from './resolve-alert.js';
import { stateFor } from './state-for.js';
import { throttlePassed } from './throttle.js';
import { trimWindow, windowHolds } from '../windows/windows.js';

export function onTick(state: EngineState, nowNs: bigint, ledgerNs?: bigint): Alert[] {
  const out: Alert[] = [];
  const ledgerNow = ledgerNs !== undefined && ledgerNs < nowNs ? ledgerNs : nowNs;
  for (const rule of state.ruleSet.rules) {
    if (rule.window?.kind === 'absent') tickAbsence(state, rule, rule.window, nowNs, out);
    if (rule.window && state.pendingLimits.get(rule.id))
      for (const key of state.pending.trim(rule.id, rule.window, ledgerNow)) state.deleted.add(key);
  }
  for (const s of [...state.states.values()]) {
    const rule = state.rules.get(s.ruleId);
    const w = rule?.window;
    if (!rule) continue;
    if (w && w.kind !== 'absent') trimWindow(s, w, ledgerNow);
    if (w && w.kind !== 'absent' && s.firing && !windowHolds(s, w)) {
      out.push(resolveAlert(state.ruleSet, rule, s, ledgerNow, syntheticView(s)));
      state.dirty.add(s);
    }
    const at = w?.kind === 'absent' ? nowNs : ledgerNow;
    if (isStale(rule, s, at, state.absenceAccounts.get(rule))) dropState(state, s);
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
    const repeatDue = s.firing && throttlePassed(s.lastSentNs, nowNs, rule.throttleNs);
    if ((overdue && !s.firing) || repeatDue) {
      state.dirty.add(s);
      out.push(fireAlert(state.ruleSet, rule, s, { nowNs }, syntheticView(s), undefined));
    }
  }
}
