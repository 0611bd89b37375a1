// Alert state transitions per key: fire once, repeat after the throttle, resolve where the rule is stateful.
// Times are nanoseconds: consensus time for records, the injected clock for ticks.
import type { Alert, AlertAccount } from './alert.js';
import { buildAlert } from './build-alert.js';
import type { CompiledRule, CompiledWindow, RuleSet } from './compile.js';
import type { EngineSnapshot, StateChanges } from './engine.js';
import type { Facts } from './facts.js';
import { alertKey, groupValue, keyOf } from './group-key.js';
import {
  MAX_RECORDS,
  newGroupState,
  restoreGroupState,
  storeGroupState,
  type GroupState,
  type StoredGroupState,
} from './group-state.js';
import { alertRecord, recordView } from './view.js';
import { addToWindow, trimWindow, windowHolds } from './windows.js';
import type { WatchedAccount } from '../tail/watched-account.js';

type Annotations = Readonly<Record<string, string>> | undefined;

// One factory of small closures over one state map (each inner function is well within the size budget).
export function createTransitions(ruleSet: RuleSet, snapshot: EngineSnapshot | undefined) {
  const rules = new Map(ruleSet.rules.map((r) => [r.id, r]));
  const states = new Map<string, GroupState>();
  const dirty = new Set<string>();
  const deleted = new Set<string>();
  for (const g of snapshot?.groups ?? []) {
    if (rules.has(g.ruleId)) states.set(g.key, restoreGroupState(g));
    else deleted.add(g.key); // the rule is gone: forget its state
  }

  // Keys of the common `group_by: [account]`, built once per rule and account (this runs per match).
  const accountKeys = new Map(ruleSet.rules.map((r) => [r, new Map<string, string>()]));

  function keyFor(rule: CompiledRule, values: readonly string[]): string {
    const cache =
      rule.groupBy.length === 1 && rule.groupBy[0] === 'account' ? accountKeys.get(rule) : undefined;
    const cached = cache?.get(values[0] ?? '');
    if (cached) return cached;
    const key = keyOf(rule.id, rule.groupBy, values);
    cache?.set(values[0] ?? '', key);
    return key;
  }

  function stateFor(rule: CompiledRule, values: readonly string[], account: WatchedAccount): GroupState {
    const key = keyFor(rule, values);
    let s = states.get(key);
    if (!s) {
      const group = Object.fromEntries(rule.groupBy.map((k, i) => [k, values[i] ?? '']));
      states.set(key, (s = newGroupState(key, rule.id, group)));
    }
    if (s.account?.name !== account.name || s.account.labels !== account.labels)
      s.account = toAlertAccount(account);
    dirty.add(key);
    if (deleted.size) deleted.delete(key);
    return s;
  }

  function fire(
    rule: CompiledRule,
    s: GroupState,
    nowNs: bigint,
    view: Record<string, unknown>,
    ann: Annotations,
  ): Alert {
    if (!s.firing || !rule.window) {
      s.startsNs = nowNs;
      s.repeats = 0;
    } else s.repeats++;
    s.firing = true;
    s.lastSentNs = nowNs;
    return buildAlert({ rule, state: s, status: 'firing', view, annotations: ann });
  }

  function resolve(rule: CompiledRule, s: GroupState, nowNs: bigint, view: Record<string, unknown>): Alert {
    s.firing = false;
    const alert = buildAlert({ rule, state: s, status: 'resolved', view, endsNs: nowNs });
    s.records = [];
    s.matchCount = 0;
    return alert;
  }

  function onMatch(rule: CompiledRule, f: Facts, ann: Annotations, out: Alert[]): void {
    const t = f.timeNs();
    const s = stateFor(
      rule,
      rule.groupBy.map((k) => groupValue(k, f)),
      f.account,
    );
    const w = rule.window;
    if (!w) return onStatelessMatch(rule, s, f, ann, out);
    if (w.kind === 'absent') {
      s.lastSeenNs = t;
      if (s.firing) out.push(resolve(rule, s, t, recordView(f, ruleSet.explorerLink)));
      return;
    }
    addToWindow(s, w, t, windowAmount(w, f));
    if (s.firing && !windowHolds(s, w)) out.push(resolve(rule, s, t, recordView(f, ruleSet.explorerLink)));
    if (!s.firing) {
      // Before it fires, the records roll: the newest ones, as many as are still in the window (same order).
      s.records.push(alertRecord(f, ruleSet.explorerLink));
      s.records = s.records.slice(-Math.min(MAX_RECORDS, s.times.length));
      s.matchCount = s.times.length;
      if (windowHolds(s, w)) out.push(fire(rule, s, t, recordView(f, ruleSet.explorerLink), ann));
      return;
    }
    s.matchCount++;
    if (s.records.length < MAX_RECORDS) s.records.push(alertRecord(f, ruleSet.explorerLink));
    if (t - (s.lastSentNs ?? 0n) >= rule.throttleNs)
      out.push(fire(rule, s, t, recordView(f, ruleSet.explorerLink), ann));
  }

  /** No window: the first match fires; later ones are counted until the throttle has passed, then fire anew. */
  function onStatelessMatch(
    rule: CompiledRule,
    s: GroupState,
    f: Facts,
    ann: Annotations,
    out: Alert[],
  ): void {
    const t = f.timeNs();
    const due = s.lastSentNs === undefined || t - s.lastSentNs >= rule.throttleNs;
    if (due) {
      s.matchCount = 0;
      s.records = [];
    }
    s.matchCount++;
    if (s.records.length < MAX_RECORDS) s.records.push(alertRecord(f, ruleSet.explorerLink));
    if (due) out.push(fire(rule, s, t, recordView(f, ruleSet.explorerLink), ann));
  }

  // Accounts each absence rule watches now; the state of an account no longer watched is dropped on a tick.
  const absenceAccounts = new Map(
    ruleSet.rules
      .filter((r) => r.window?.kind === 'absent')
      .map((r) => [
        r,
        new Set(ruleSet.accounts.filter((a) => !r.accountIds || r.accountIds.has(a.id)).map((a) => a.id)),
      ]),
  );

  function onTick(nowNs: bigint): Alert[] {
    const out: Alert[] = [];
    for (const rule of ruleSet.rules)
      if (rule.window?.kind === 'absent') tickAbsence(rule, rule.window, nowNs, out);
    for (const s of [...states.values()]) {
      const rule = rules.get(s.ruleId);
      const w = rule?.window;
      if (!rule) continue;
      if (w && w.kind !== 'absent') trimWindow(s, w, nowNs);
      if (w && w.kind !== 'absent' && s.firing && !windowHolds(s, w)) {
        out.push(resolve(rule, s, nowNs, syntheticView(s)));
        dirty.add(s.key);
      }
      if (isStale(rule, s, nowNs, absenceAccounts.get(rule))) {
        states.delete(s.key);
        dirty.delete(s.key);
        deleted.add(s.key);
      }
    }
    return out;
  }

  function tickAbsence(rule: CompiledRule, w: CompiledWindow, nowNs: bigint, out: Alert[]): void {
    for (const account of ruleSet.accounts) {
      if (!absenceAccounts.get(rule)?.has(account.id)) continue;
      const key = alertKey(rule.id, { account: account.id });
      const s = states.get(key) ?? stateFor(rule, [account.id], account);
      if (s.lastSeenNs === undefined) {
        s.lastSeenNs = nowNs; // first sight: the absence is measured from now
        dirty.add(key);
        continue;
      }
      const overdue = nowNs - s.lastSeenNs >= w.durationNs;
      const repeatDue = s.firing && nowNs - (s.lastSentNs ?? 0n) >= rule.throttleNs;
      if ((overdue && !s.firing) || repeatDue) {
        dirty.add(key);
        out.push(fire(rule, s, nowNs, syntheticView(s), undefined));
      }
    }
  }

  return {
    onMatch,
    onTick,
    groups: (): StoredGroupState[] => [...states.values()].map(storeGroupState),
    takeChanges(): StateChanges {
      const changes = {
        upserts: [...dirty].flatMap((k) => {
          const s = states.get(k);
          return s ? [storeGroupState(s)] : [];
        }),
        deletes: [...deleted],
      };
      dirty.clear();
      deleted.clear();
      return changes;
    },
  };
}

/**
 * A group that no longer affects any decision: a quiet stateless key past its throttle, an empty window, the
 * absence state of an account that is no longer watched.
 */
function isStale(
  rule: CompiledRule,
  s: GroupState,
  nowNs: bigint,
  watched: ReadonlySet<string> | undefined,
): boolean {
  if (rule.window?.kind === 'absent') return !watched?.has(s.group.account ?? '');
  if (rule.window) return !s.firing && s.times.length === 0;
  return s.lastSentNs === undefined || nowNs - s.lastSentNs >= rule.throttleNs;
}

function windowAmount(w: CompiledWindow, f: Facts): bigint {
  const net = f.net();
  if (w.kind === 'debit_sum') return net < 0n ? -net : 0n;
  if (w.kind === 'credit_sum') return net > 0n ? net : 0n;
  return 1n;
}

function syntheticView(s: GroupState): Record<string, unknown> {
  return { account: s.account ?? { id: s.group.account ?? '', name: s.group.account ?? '', labels: {} } };
}

function toAlertAccount(a: WatchedAccount): AlertAccount {
  return { id: a.id, name: a.name, labels: a.labels };
}
