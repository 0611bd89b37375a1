// The resolving transition of a group state, and the alert it sends: the summary of the firing it ends (kept in
// the state, GroupState.fired) and why it ended (alert-content/window-texts.ts).
import type { Alert } from '../alert/alert.js';
import { buildAlert } from '../alert-content/build-alert.js';
import type { CompiledRule, RuleSet } from '../load/rule-set.js';
import type { Facts } from '../facts/facts.js';
import { NONE, type GroupState } from '../alert-state/group-state.js';
import { accountUrlOf, resolveWords } from '../alert-content/alert-words.js';

export function resolveAlert(
  ruleSet: RuleSet,
  rule: CompiledRule,
  s: GroupState,
  nowNs: bigint,
  view: Record<string, unknown>,
  f?: Facts,
  quietSince?: bigint,
): Alert {
  s.firing = false;
  const words = resolveWords(rule, s, { f, nowNs, quietSince }, ruleSet.explorerLink);
  const accountUrl = accountUrlOf(ruleSet, s);
  const alert = buildAlert({
    rule,
    state: s,
    status: 'resolved',
    view,
    endsNs: nowNs,
    ...words,
    accountUrl,
  });
  const fired = s.fired;
  s.fired = undefined;
  s.records = NONE;
  s.matchCount = 0;
  if (!fired) return alert;
  // What fired, as it was sent; the summary rendered now would show the values after the end ("1 match in 30s").
  const why = alert.why ?? fired.why;
  return { ...alert, summary: fired.summary, ...(why ? { why } : {}) };
}
