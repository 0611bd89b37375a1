// Alert state transitions per key: fire once, repeat after the throttle, resolve where the rule is stateful.
// Times are nanoseconds: consensus time for records, the injected clock for ticks.
import type { Alert, AlertAccount } from './alert.js';
import { buildAlert } from './build-alert.js';
import type { CompiledRule, CompiledWindow, RuleSet } from './compile.js';
import type { EngineSnapshot, StateChanges } from './engine.js';
import type { Facts } from './facts.js';
import { alertKey, groupValue, groupsByAccount, keyOf } from './group-key.js';
import {
  MAX_RECORDS,
  NONE,
  appendNewest,
  newGroupState,
  restoreGroupState,
  groupStateStore,
  type GroupState,
  type StoredGroupState,
} from './group-state.js';
import { PendingCounts, pendingKey, pendingLimitOf, restoresPending } from './pending-counts.js';
import { throttleDue } from './throttle-due.js';
import { isStale } from './is-stale.js';
import { alertRecord, recordView } from './view.js';
import { addToWindow, mayBeShown, trimWindow, windowAmount, windowHolds } from './windows.js';
import { accountUrlOf, fireWords, resolveWords } from './transition-words.js';
import type { WatchedAccount } from '../tail/watched-account.js';

type Annotations = Readonly<Record<string, string>> | undefined;

// One factory of small closures over one state map (each inner function is well within the size budget).
export function createTransitions(ruleSet: RuleSet, snapshot: EngineSnapshot | undefined) {
  const rules = new Map(ruleSet.rules.map((r) => [r.id, r]));
  const states = new Map<string, GroupState>();
  const dirty = new Set<string>();
  const store = groupStateStore();
  const deleted = new Set<string>();
  // Count windows per account far below their threshold: bare match times (pending-counts.ts).
  const pending = new PendingCounts();
  const limits = new Map(ruleSet.rules.map((r) => [r.id, pendingLimitOf(r)]));
  for (const g of snapshot?.groups ?? []) {
    const rule = rules.get(g.ruleId);
    if (!rule)
      deleted.add(g.key); // the rule is gone: forget its state
    else if (restoresPending(g, limits.get(rule.id) ?? 0))
      pending.restore(
        rule.id,
        g.group.account ?? '',
        g.window.map(([t]) => BigInt(t)),
      );
    else states.set(g.key, restoreGroupState(g));
  }

  // The common `group_by: [account]`: its states by rule and account id, so a match builds no key (this runs per
  // match), and one shared group object per account. Entries live exactly as long as the state they point to.
  const byAccount = new Map<string, Map<string, GroupState>>();
  const accountGroups = new Map<string, Readonly<Record<string, string>>>();
  // One AlertAccount per watched account, shared by all of its states.
  const alertAccounts = new WeakMap<WatchedAccount, AlertAccount>();
  const perAccount = (rule: CompiledRule) => groupsByAccount(rule.groupBy);
  function index(rule: CompiledRule | undefined, s: GroupState): void {
    if (rule && perAccount(rule)) {
      let m = byAccount.get(rule.id);
      if (!m) byAccount.set(rule.id, (m = new Map()));
      m.set(s.group.account ?? '', s);
    }
  }
  function unindex(s: GroupState): void {
    byAccount.get(s.ruleId)?.delete(s.group.account ?? '');
  }
  for (const s of states.values()) index(rules.get(s.ruleId), s);

  function lookup(rule: CompiledRule, values: readonly string[]): GroupState | undefined {
    if (perAccount(rule)) return byAccount.get(rule.id)?.get(values[0] ?? '');
    return states.get(keyOf(rule.id, rule.groupBy, values));
  }

  function groupOf(rule: CompiledRule, values: readonly string[]): Readonly<Record<string, string>> {
    if (!perAccount(rule)) return Object.fromEntries(rule.groupBy.map((k, i) => [k, values[i] ?? '']));
    const id = values[0] ?? '';
    let g = accountGroups.get(id);
    if (!g) accountGroups.set(id, (g = { account: id }));
    return g;
  }

  function stateFor(rule: CompiledRule, values: readonly string[], account: WatchedAccount): GroupState {
    let s = lookup(rule, values);
    if (!s) {
      const key = keyOf(rule.id, rule.groupBy, values);
      s = states.get(key) ?? newGroupState(key, rule.id, groupOf(rule, values));
      // A pending group outgrew its bound: it becomes a full state with the times it had.
      const times = perAccount(rule) ? pending.take(rule.id, values[0] ?? '') : undefined;
      if (times) s.times = [...times];
      states.set(key, s);
      index(rule, s);
    }
    if (s.account?.name !== account.name || s.account.labels !== account.labels) {
      let shared = alertAccounts.get(account);
      if (!shared) alertAccounts.set(account, (shared = toAlertAccount(account)));
      s.account = shared;
    }
    dirty.add(s.key);
    if (deleted.size) deleted.delete(s.key);
    return s;
  }

  /**
   * `startsNs` (the alert's start, part of its id) is the record's own time; `nowNs` the state time. They differ
   * only for a record from the future (Facts.stateTimeNs), whose alert must not take the id of another's.
   */
  function fire(
    rule: CompiledRule,
    s: GroupState,
    nowNs: bigint,
    view: Record<string, unknown>,
    ann: Annotations,
    f?: Facts,
    startsNs = nowNs,
  ): Alert {
    if (!s.firing || !rule.window) {
      s.startsNs = startsNs;
      s.repeats = 0;
    } else s.repeats++;
    s.firing = true;
    // A late (older) record may fire too; the throttle keeps counting from the newest notification.
    if (s.lastSentNs === undefined || nowNs > s.lastSentNs) s.lastSentNs = nowNs;
    const words = fireWords(rule, s, f, nowNs, ruleSet.explorerLink);
    const accountUrl = accountUrlOf(ruleSet, s);
    return buildAlert({ rule, state: s, status: 'firing', view, annotations: ann, ...words, accountUrl });
  }

  function resolve(
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
    s.records = NONE;
    s.matchCount = 0;
    return alert;
  }

  function onMatch(rule: CompiledRule, f: Facts, ann: Annotations, out: Alert[]): void {
    const t = f.stateTimeNs();
    if (addPending(rule, f.account.id, t)) return;
    const s = stateFor(
      rule,
      rule.groupBy.map((k) => groupValue(k, f)),
      f.account,
    );
    const w = rule.window;
    if (!w) return onStatelessMatch(rule, s, f, ann, out);
    if (w.kind === 'absent') {
      // A record older than the last one seen says nothing new about the absence.
      if (s.lastSeenNs !== undefined && t <= s.lastSeenNs) return;
      const quietSince = s.lastSeenNs;
      s.lastSeenNs = t;
      if (s.firing) out.push(resolve(rule, s, t, recordView(f, ruleSet.explorerLink), f, quietSince));
      return;
    }
    addToWindow(s, w, t, windowAmount(w, f));
    if (s.firing && !windowHolds(s, w)) out.push(resolve(rule, s, t, recordView(f, ruleSet.explorerLink), f));
    if (!s.firing) {
      // Before it fires, the records roll: the newest ones, as many as are still in the window (same order).
      if (mayBeShown(w, s))
        s.records = appendNewest(s.records, alertRecord(f, ruleSet.explorerLink), MAX_RECORDS);
      if (s.records.length > s.times.length) s.records = s.records.slice(s.records.length - s.times.length);
      s.matchCount = s.times.length;
      if (windowHolds(s, w))
        out.push(fire(rule, s, t, recordView(f, ruleSet.explorerLink), ann, f, f.timeNs()));
      return;
    }
    s.matchCount++;
    if (s.records.length < MAX_RECORDS)
      s.records = appendNewest(s.records, alertRecord(f, ruleSet.explorerLink), MAX_RECORDS);
    if (t - (s.lastSentNs ?? 0n) >= rule.throttleNs)
      out.push(fire(rule, s, t, recordView(f, ruleSet.explorerLink), ann, f, f.timeNs()));
  }

  /** A match of a group that stays pending (far below the threshold, no full state): true when taken. */
  function addPending(rule: CompiledRule, account: string, t: bigint): boolean {
    const limit = limits.get(rule.id) ?? 0;
    if (limit === 0 || !rule.window || byAccount.get(rule.id)?.has(account)) return false;
    if (!pending.add(rule.id, account, rule.window, limit, t)) return false;
    if (deleted.size) deleted.delete(pendingKey(rule.id, account));
    return true;
  }

  /** No window: the first match fires; later ones are counted until the throttle has passed, then fire anew. */
  function onStatelessMatch(
    rule: CompiledRule,
    s: GroupState,
    f: Facts,
    ann: Annotations,
    out: Alert[],
  ): void {
    const t = f.stateTimeNs();
    const due = throttleDue(s, t, rule.throttleNs);
    if (due) {
      s.matchCount = 0;
      s.records = NONE;
    }
    s.matchCount++;
    if (s.records.length < MAX_RECORDS)
      s.records = appendNewest(s.records, alertRecord(f, ruleSet.explorerLink), MAX_RECORDS);
    if (due) out.push(fire(rule, s, t, recordView(f, ruleSet.explorerLink), ann, f, f.timeNs()));
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
    for (const rule of ruleSet.rules) {
      if (rule.window?.kind === 'absent') tickAbsence(rule, rule.window, nowNs, out);
      if (rule.window && limits.get(rule.id))
        for (const key of pending.trim(rule.id, rule.window, nowNs)) deleted.add(key);
    }
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
        unindex(s);
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
    groups: (): StoredGroupState[] => [...[...states.values()].map(store), ...pending.stored()],
    takeChanges(): StateChanges {
      const changes = {
        upserts: [
          ...[...dirty].flatMap((k) => {
            const s = states.get(k);
            return s ? [store(s)] : [];
          }),
          ...pending.takeDirty(),
        ],
        deletes: [...deleted],
      };
      dirty.clear();
      deleted.clear();
      return changes;
    },
  };
}

function syntheticView(s: GroupState): Record<string, unknown> {
  return { account: s.account ?? { id: s.group.account ?? '', name: s.group.account ?? '', labels: {} } };
}

function toAlertAccount(a: WatchedAccount): AlertAccount {
  return { id: a.id, name: a.name, labels: a.labels };
}
