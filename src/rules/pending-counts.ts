// Count windows grouped by account that are still far below their threshold, kept as bare match times.
//
// A count window of N fires on the match that brings it to N, and shows the MAX_RECORDS newest matches then, so
// while a group holds no more than N − MAX_RECORDS matches it needs nothing but their times: no record, no alert
// state. With 10,000 accounts and a hundred windowed rules nearly every group is such a group, and as a bare
// array in a per-rule map it costs about a fifth of a full GroupState (docs/performance.md, "Memory"). Most such
// groups hold a single match, so one time is kept as the bigint itself, not an array of one: that halves them
// again. The transitions promote a group to a full GroupState when it outgrows that bound, and store both alike.
import type { CompiledRule, CompiledWindow } from './compile.js';
import { groupsByAccount, keyOf } from './group-key.js';
import { MAX_RECORDS, type StoredGroupState } from './group-state.js';
import { windowEntryCache, type WindowEntry } from './window-entry-cache.js';
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

/** A group's match times: one, or several oldest first. */
type Times = bigint | readonly bigint[];

export class PendingCounts {
  /** rule id → account id → match times. */
  private readonly byRule = new Map<string, Map<string, Times>>();
  /** rule id → accounts whose times changed since the last takeDirty(). */
  private readonly dirty = new Map<string, Set<string>>();

  /** Stored window entries, shared between writes (window-entry-cache.ts). */
  private readonly entry: WindowEntry = windowEntryCache();

  get(ruleId: string, account: string): readonly bigint[] | undefined {
    return listOf(this.byRule.get(ruleId)?.get(account));
  }

  /** Restores stored times, oldest first (no change to write back). */
  restore(ruleId: string, account: string, times: readonly bigint[]): void {
    if (times.length) this.rule(ruleId).set(account, times.length === 1 ? (times[0] as bigint) : times);
  }

  /**
   * Adds a match at `nowNs` after dropping the times that left the window. False, with nothing changed, when the
   * group would then hold more than `limit` matches: the caller promotes it to a full state.
   */
  add(ruleId: string, account: string, w: CompiledWindow, limit: number, nowNs: bigint): boolean {
    const held = this.byRule.get(ruleId)?.get(account);
    // Trimmed from the newest match held: a late (older) match must not keep expired ones alive.
    const newest = held === undefined ? nowNs : maxOf(newestOf(held), nowNs);
    const times = held === undefined ? undefined : inWindow(held, w, newest);
    if (countOf(times) + 1 > limit) return false;
    // Already outside the window (a late match): counted, nothing to keep.
    if (nowNs <= newest - w.durationNs && times === held) return true;
    const added = times === undefined ? nowNs : withTime(times, nowNs);
    this.rule(ruleId).set(account, added);
    this.markDirty(ruleId, account);
    return true;
  }

  /** Takes the group out (it is being promoted); it stays out of the next takeDirty(). */
  take(ruleId: string, account: string): readonly bigint[] | undefined {
    const times = this.get(ruleId, account);
    this.byRule.get(ruleId)?.delete(account);
    this.dirty.get(ruleId)?.delete(account);
    return times;
  }

  /** Drops times that left the window; returns the keys of groups left empty (forgotten). */
  trim(ruleId: string, w: CompiledWindow, nowNs: bigint): string[] {
    const groups = this.byRule.get(ruleId);
    const emptied: string[] = [];
    for (const [account, times] of groups ?? []) {
      const kept = inWindow(times, w, nowNs);
      if (kept === times) continue;
      if (kept !== undefined) {
        groups?.set(account, kept);
        this.markDirty(ruleId, account);
      } else {
        groups?.delete(account);
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

  private rule(ruleId: string): Map<string, Times> {
    let groups = this.byRule.get(ruleId);
    if (!groups) this.byRule.set(ruleId, (groups = new Map()));
    return groups;
  }

  private markDirty(ruleId: string, account: string): void {
    let accounts = this.dirty.get(ruleId);
    if (!accounts) this.dirty.set(ruleId, (accounts = new Set()));
    accounts.add(account);
  }
}

/** `times` without the entries at or before nowNs − duration: the same value when none left, undefined when all. */
function inWindow(times: Times, w: CompiledWindow, nowNs: bigint): Times | undefined {
  const oldest = nowNs - w.durationNs;
  if (typeof times === 'bigint') return times <= oldest ? undefined : times;
  let n = 0;
  while (n < times.length && (times[n] ?? 0n) <= oldest) n++;
  if (n === 0) return times;
  if (n >= times.length) return undefined;
  return n === times.length - 1 ? (times[n] as bigint) : times.slice(n);
}

/** `times` with `t` in its place (oldest first): appended for an in-order match. */
function withTime(times: Times, t: bigint): readonly bigint[] {
  const list = typeof times === 'bigint' ? [times] : times;
  let i = list.length;
  while (i > 0 && (list[i - 1] ?? 0n) > t) i--;
  return withItemAt(list, i, t);
}

function newestOf(times: Times): bigint {
  return typeof times === 'bigint' ? times : (times[times.length - 1] ?? 0n);
}

function maxOf(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function countOf(times: Times | undefined): number {
  return times === undefined ? 0 : typeof times === 'bigint' ? 1 : times.length;
}

function listOf(times: Times | undefined): readonly bigint[] | undefined {
  return typeof times === 'bigint' ? [times] : times;
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
