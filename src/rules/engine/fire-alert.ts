// The firing transition of a group state, and the alert it sends.
import type { Alert } from '../alert/alert.js';
import { buildAlert } from '../alert-content/build-alert.js';
import type { CompiledRule, RuleSet } from '../load/rule-set.js';
import type { Facts } from '../facts/facts.js';
import type { GroupState } from '../alert-state/group-state.js';
import { capText } from '../alert/cap-text.js';
import { accountUrlOf, fireWords } from '../alert-content/alert-words.js';

export type Annotations = Readonly<Record<string, string>> | undefined;

/** Characters of the firing summary and "why" a state keeps for its resolve (what notifiers show of a summary). */
export const FIRED_TEXT_MAX = 500;

/**
 * `startsNs` (the alert's start, part of its id) is the record's own time; `nowNs` the state time. They differ
 * only for a record from the future (Facts.stateTimeNs), whose alert must not take the id of another's.
 */
export function fireAlert(
  ruleSet: RuleSet,
  rule: CompiledRule,
  s: GroupState,
  at: { nowNs: bigint; startsNs?: bigint },
  view: Record<string, unknown>,
  ann: Annotations,
  f?: Facts,
): Alert {
  const { nowNs, startsNs = nowNs } = at;
  if (!s.firing || !rule.window) {
    s.startsNs = startsNs;
    s.repeats = 0;
  } else s.repeats++;
  s.firing = true;
  // A late (older) record may fire too; the throttle keeps counting from the newest notification.
  if (s.lastSentNs === undefined || nowNs > s.lastSentNs) s.lastSentNs = nowNs;
  const words = fireWords(rule, s, f, nowNs, ruleSet.explorerLink);
  const accountUrl = accountUrlOf(ruleSet, s);
  const alert = buildAlert({
    rule,
    state: s,
    status: 'firing',
    view,
    annotations: ann,
    ...words,
    accountUrl,
  });
  // Kept (capped) for the resolve: it says what fired, as the on-call engineer last read it. Only windows
  // resolve: a per-record rule's states (most of them) keep nothing.
  if (rule.window) {
    const summary = capText(alert.summary, FIRED_TEXT_MAX);
    s.fired = alert.why ? { summary, why: capText(alert.why, FIRED_TEXT_MAX) } : { summary };
  }
  return alert;
}

/** The view of an alert no record caused (a tick): just the account. */
export function syntheticView(s: GroupState): Record<string, unknown> {
  return { account: s.account ?? { id: s.group.account ?? '', name: s.group.account ?? '', labels: {} } };
}
