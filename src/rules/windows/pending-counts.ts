// Count windows grouped by account that are still far below their threshold, kept as bare match times.
//
// A count window of N fires on the match that brings it to N, and shows the MAX_RECORDS newest matches then, so
// while a group holds no more than N − MAX_RECORDS matches it needs nothing but their times: no record, no alert
// state. With 10,000 accounts and a hundred windowed rules nearly every group is such a group, and as a bare
// array in a per-rule map it costs about a fifth of a full GroupState (docs/performance.md, "Memory"). Most such
// groups hold only a few matches, so a rule keeps its groups' times as 64-bit words in one pool outside the JS
// heap, by account slot, rewritten in place (rule-times.ts). The transitions promote a group to a full GroupState
// when it outgrows that bound, and store both alike.
import type { CompiledRule, CompiledWindow } from '../load/rule-set.js';
import { groupsByAccount, keyOf } from '../alert-state/group-key.js';
import { MAX_RECORDS, type StoredGroupState } from '../alert-state/group-state.js';
import { RuleTimes } from './rule-times.js';
import { windowEntryCache, type WindowEntry } from '../alert-state/window-entry-cache.js';
import { withItemAt } from './windows.js';

const BY_ACCOUNT = ['account'];

/** Most matches a group of this window may hold and stay bare (0 when every match may be shown). */
export function pendingLimit(w: CompiledWindow): number {
  if (w.kind !== 'count') return 0;
  return Math.max(0, Number(w.threshold) - MAX_RECORDS);
}

/** How many matches a group of this rule may hold as bare times (0: never). */
export function pendingLimitOf(rule: CompiledRule): number {
  return groupsByAccount(rule.groupBy) && rule.window ? pendingLimit(rule.window) : 0;
}

/** A stored group that is restored as bare times: it would have stayed pending had the process not stopped. */
export function restoresPending(g: StoredGroupState, limit: number): boolean {
  return (
    limit > 0 &&
    !g.firing &&
    g.records.length === 0 &&
    g.window.length > 0 &&
    g.window.length <= limit &&
    g.lastSentNs === undefined
  );
}

export function pendingKey(ruleId: string, account: string): string {
  return keyOf(ruleId, BY_ACCOUNT, [account]);
}

export class PendingCounts {
  /** Account id → slot, shared by every rule: a rule's groups are a dense list by slot (rule-times.ts). */
  private readonly slots = new Map<string, number>();
  private readonly accounts: string[] = [];
  /** rule id → match times by account slot. */
  private readonly byRule = new Map<string, RuleTimes>();
  /** rule id → accounts whose times changed since the last takeDirty(). */
  private readonly dirty = new Map<string, Set<string>>();

  /** Stored window entries, shared between writes (alert-state/window-entry-cache.ts). */
  private readonly entry: WindowEntry = windowEntryCache();

  get(ruleId: string, account: string): readonly bigint[] | undefined {
    const slot = this.slots.get(account);
    return slot === undefined ? undefined : this.byRule.get(ruleId)?.get(slot);
  }

  /** Restores stored times, oldest first (no change to write back). */
  restore(ruleId: string, account: string, times: readonly bigint[]): void {
    if (times.length) this.rule(ruleId).set(this.slotOf(account), times);
  }

  /**
   * Adds a match at `nowNs` after dropping the times that left the window. False, with nothing changed, when the
   * group would then hold more than `limit` matches: the caller promotes it to a full state.
   */
  add(ruleId: string, account: string, w: CompiledWindow, limit: number, nowNs: bigint): boolean {
    const slot = this.slotOf(account);
    const rule = this.rule(ruleId);
    const held = rule.get(slot);
    // Trimmed from the newest match held: a late (older) match must not keep expired ones alive.
    const newest = held === undefined ? nowNs : maxOf(held[held.length - 1] ?? nowNs, nowNs);
    const times = held === undefined ? undefined : inWindow(held, w, newest);
    if ((times?.length ?? 0) + 1 > limit) return false;
    // Already outside the window (a late match): counted, nothing to keep.
    if (nowNs <= newest - w.durationNs && times === held) return true;
    rule.set(slot, times === undefined ? [nowNs] : withTime(times, nowNs));
    this.markDirty(ruleId, account);
    return true;
  }

  /** Takes the group out (it is being promoted); it stays out of the next takeDirty(). */
  take(ruleId: string, account: string): readonly bigint[] | undefined {
    const times = this.get(ruleId, account);
    const slot = this.slots.get(account);
    if (slot !== undefined) this.byRule.get(ruleId)?.set(slot, undefined);
    this.dirty.get(ruleId)?.delete(account);
    return times;
  }

  /**
   * Drops times that left the window; returns the keys of groups left empty (forgotten). A group that keeps some
   * times is not marked for writing, as a full state's window is not: its stored row may hold times that have
   * left the window, which a restored group drops again before it counts (add() trims from the newest match).
   * Writing every trimmed group put nearly every group into a few ticks' transactions once the first windows
   * expired: the heap in use jumped by about 40 MiB at that moment of the peak bench (docs/performance.md,
   * section 6).
   */
  trim(ruleId: string, w: CompiledWindow, nowNs: bigint): string[] {
    const rule = this.byRule.get(ruleId);
    const emptied: string[] = [];
    if (!rule) return emptied;
    for (const slot of rule.startingBy(nowNs - w.durationNs)) {
      const account = this.accounts[slot] ?? '';
      const kept = inWindow(rule.get(slot) ?? [], w, nowNs);
      rule.set(slot, kept);
      if (kept === undefined) {
        this.dirty.get(ruleId)?.delete(account);
        emptied.push(pendingKey(ruleId, account));
      }
    }
    return emptied;
  }

  /** The groups changed since the last call, as stored. */
  takeDirty(): StoredGroupState[] {
    const out: StoredGroupState[] = [];
    for (const [ruleId, accounts] of this.dirty)
      for (const account of accounts) {
        const times = this.get(ruleId, account);
        if (times) out.push(toStored(ruleId, account, times, this.entry));
      }
    this.dirty.clear();
    return out;
  }

  /**
   * The account's slot, made on first sight. Accounts are the watched ones of this engine's rule set (a reload
   * builds a new engine), so the slots are bounded by the watch list.
   */
  private slotOf(account: string): number {
    let slot = this.slots.get(account);
    if (slot === undefined) {
      slot = this.accounts.push(account) - 1;
      this.slots.set(account, slot);
    }
    return slot;
  }

  private rule(ruleId: string): RuleTimes {
    let times = this.byRule.get(ruleId);
    if (!times) this.byRule.set(ruleId, (times = new RuleTimes()));
    return times;
  }

  private markDirty(ruleId: string, account: string): void {
    let accounts = this.dirty.get(ruleId);
    if (!accounts) this.dirty.set(ruleId, (accounts = new Set()));
    accounts.add(account);
  }
}

/** `times` without the entries at or before nowNs − duration: the same list when none left, undefined when all. */
function inWindow(times: readonly bigint[], w: CompiledWindow, nowNs: bigint): readonly bigint[] | undefined {
  const oldest = nowNs - w.durationNs;
  let n = 0;
  while (n < times.length && (times[n] ?? 0n) <= oldest) n++;
  if (n === 0) return times;
  return n >= times.length ? undefined : times.slice(n);
}

/** `times` with `t` in its place (oldest first): appended for an in-order match. */
function withTime(times: readonly bigint[], t: bigint): readonly bigint[] {
  let i = times.length;
  while (i > 0 && (times[i - 1] ?? 0n) > t) i--;
  return withItemAt(times, i, t);
}

function maxOf(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function toStored(
  ruleId: string,
  account: string,
  times: readonly bigint[],
  entry: WindowEntry,
): StoredGroupState {
  return {
    key: pendingKey(ruleId, account),
    ruleId,
    group: { account },
    firing: false,
    repeats: 0,
    matchCount: times.length,
    records: [],
    window: times.map((t) => entry(t, undefined)),
  };
}
