// The trigger, "why" and resolution of one transition (pure), kept out of the engine's transitions so the state machine
// stays about state. Window totals are read after the window was updated for the record.
import type { AlertRecord } from '../alert/alert.js';
import type { CompiledRule, RuleSet } from '../load/rule-set.js';
import { explainTree } from './explain.js';
import type { Facts } from '../facts/facts.js';
import type { GroupState } from '../alert-state/group-state.js';
import { alertRecord, type ExplorerLink } from './view.js';
import { windowTotal } from '../windows/windows.js';
import { absenceResolution, absenceWhy, windowResolution, windowWhy } from './window-texts.js';

export interface Words {
  readonly trigger?: AlertRecord;
  readonly why?: string;
  readonly resolution?: string;
}

/** Firing: the record that fired it, and why. `f` is undefined for an absence fired by the clock. */
export function fireWords(
  rule: CompiledRule,
  s: GroupState,
  f: Facts | undefined,
  nowNs: bigint,
  link: ExplorerLink,
): Words {
  const w = rule.window;
  if (w?.kind === 'absent') return { why: absenceWhy(w, s.lastSeenNs, nowNs) };
  if (!f) return {};
  const trigger = alertRecord(f, link);
  const match = explainTree(rule.when, f);
  if (!w) return { trigger, why: match };
  return { trigger, why: windowWhy(w, windowTotal(s, w), match) };
}

/** What a resolve is about: the resolving record (none on a tick), its time, and how long an absence lasted. */
export interface ResolveCause {
  readonly f: Facts | undefined;
  readonly nowNs: bigint;
  /** Absences: the last match (or start of watching) before the record that ended it. */
  readonly quietSince?: bigint;
}

/** Resolved: what resolved it — the record that ended an absence, or a window below its threshold. */
export function resolveWords(
  rule: CompiledRule,
  s: GroupState,
  cause: ResolveCause,
  link: ExplorerLink,
): Words {
  const { f, nowNs } = cause;
  const w = rule.window;
  const trigger = f && alertRecord(f, link);
  if (!w) return trigger ? { trigger } : {};
  if (w.kind === 'absent') {
    const match = f ? explainTree(rule.when, f) : '';
    return {
      ...(trigger ? { trigger } : {}),
      // Why it had fired, measured to the record that ended it.
      why: absenceWhy(w, cause.quietSince, nowNs),
      resolution: absenceResolution(trigger, match),
    };
  }
  const resolution = windowResolution(w, windowTotal(s, w));
  return { ...(trigger ? { trigger } : {}), resolution };
}

/** The account's explorer link, when the explorer config gives one for the network. */
export function accountUrlOf(ruleSet: RuleSet, s: GroupState): string | undefined {
  return (s.account && ruleSet.accountLink?.({ id: s.account.id, account: s.account.id })) || undefined;
}
