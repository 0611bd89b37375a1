// What a match of a rule does to its group's state: count, roll the window, fire, repeat, resolve.
import type { Alert } from '../alert/alert.js';
import type { CompiledRule, CompiledWindow } from '../load/rule-set.js';
import type { EngineState } from './engine-state.js';
import type { Facts } from '../facts/facts.js';
import { fireAlert, type Annotations } from './fire-alert.js';
import { groupValue } from '../alert-state/group-key.js';
import { MAX_RECORDS, NONE, appendNewest, type GroupState } from '../alert-state/group-state.js';
import { pendingKey } from '../windows/pending-counts.js';
import { resolveAlert } from './resolve-alert.js';
import { stateFor } from './state-for.js';
import { throttleDue, throttlePassed } from './throttle.js';
import { alertRecord, recordView } from '../alert-content/view.js';
import { addToWindow, mayBeShown, windowAmount, windowHolds } from '../windows/windows.js';

/** Applies one match of `rule` by the record in `f`; the alerts it causes are pushed to `out`. */
export function onMatch(
  state: EngineState,
  rule: CompiledRule,
  f: Facts,
  ann: Annotations,
  out: Alert[],
): void {
  const t = f.stateTimeNs();
  if (addPending(state, rule, f.account.id, t)) return;
  const s = stateFor(
    state,
    rule,
    rule.groupBy.map((k) => groupValue(k, f)),
    f.account,
  );
  const w = rule.window;
  if (!w) onStatelessMatch(state, rule, s, f, ann, out);
  else if (w.kind === 'absent') onAbsentMatch(state, rule, s, f, out);
  else onWindowMatch(state, { rule, w, s }, f, ann, out);
}

/** A match of a group that stays pending (far below the threshold, no full state): true when taken. */
function addPending(state: EngineState, rule: CompiledRule, account: string, t: bigint): boolean {
  const limit = state.pendingLimits.get(rule.id) ?? 0;
  if (limit === 0 || !rule.window || state.byAccount.get(rule.id)?.has(account)) return false;
  if (!state.pending.add(rule.id, account, rule.window, limit, t)) return false;
  if (state.deleted.size) state.deleted.delete(pendingKey(rule.id, account));
  return true;
}

/** No window: the first match fires; later ones are counted until the throttle has passed, then fire anew. */
function onStatelessMatch(
  state: EngineState,
  rule: CompiledRule,
  s: GroupState,
  f: Facts,
  ann: Annotations,
  out: Alert[],
): void {
  const t = f.stateTimeNs();
  const link = state.ruleSet.explorerLink;
  const due = throttleDue(s, t, rule.throttleNs);
  if (due) {
    s.matchCount = 0;
    s.records = NONE;
  }
  s.matchCount++;
  if (s.records.length < MAX_RECORDS) s.records = appendNewest(s.records, alertRecord(f, link), MAX_RECORDS);
  if (due)
    out.push(
      fireAlert(state.ruleSet, rule, s, { nowNs: t, startsNs: f.timeNs() }, recordView(f, link), ann, f),
    );
}

/** A record in an absence window ends the silence: a firing absence resolves. */
function onAbsentMatch(state: EngineState, rule: CompiledRule, s: GroupState, f: Facts, out: Alert[]): void {
  const t = f.stateTimeNs();
  // A record older than the last one seen says nothing new about the absence.
  if (s.lastSeenNs !== undefined && t <= s.lastSeenNs) return;
  const quietSince = s.lastSeenNs;
  s.lastSeenNs = t;
  if (s.firing)
    out.push(
      resolveAlert(state.ruleSet, rule, s, t, recordView(f, state.ruleSet.explorerLink), f, quietSince),
    );
}

/** A count or sum window: add the match, resolve when it no longer holds, fire when it does, repeat per throttle. */
function onWindowMatch(
  state: EngineState,
  at: { rule: CompiledRule; w: CompiledWindow; s: GroupState },
  f: Facts,
  ann: Annotations,
  out: Alert[],
): void {
  const { rule, w, s } = at;
  const t = f.stateTimeNs();
  const link = state.ruleSet.explorerLink;
  const fire = () =>
    out.push(
      fireAlert(state.ruleSet, rule, s, { nowNs: t, startsNs: f.timeNs() }, recordView(f, link), ann, f),
    );
  addToWindow(s, w, t, windowAmount(w, f));
  if (s.firing && !windowHolds(s, w))
    out.push(resolveAlert(state.ruleSet, rule, s, t, recordView(f, link), f));
  if (!s.firing) {
    // Before it fires, the records roll: the newest ones, as many as are still in the window (same order).
    if (mayBeShown(w, s)) s.records = appendNewest(s.records, alertRecord(f, link), MAX_RECORDS);
    if (s.records.length > s.times.length) s.records = s.records.slice(s.records.length - s.times.length);
    s.matchCount = s.times.length;
    if (windowHolds(s, w)) fire();
    return;
  }
  s.matchCount++;
  if (s.records.length < MAX_RECORDS) s.records = appendNewest(s.records, alertRecord(f, link), MAX_RECORDS);
  if (throttlePassed(s.lastSentNs, t, rule.throttleNs)) fire();
}
