// Count windows grouped by account that are still far below their threshold, kept as bare match times.
//
// A count window of N fires on the match that brings it to N, and shows the MAX_RECORDS newest matches then, so
// while a group holds no more than N − MAX_RECORDS matches it needs nothing but their times: no record, no alert
// state. With 10,000 accounts and a hundred windowed rules nearly every group is such a group, and as a bare
// array in a per-rule map it costs about a fifth of a full GroupState (docs/performance.md, "Memory"). The
// transitions promote a group to a full GroupState when it outgrows that bound, and store both kinds alike.
import type { CompiledWindow } from './compile.js';
import { keyOf } from './group-key.js';
import { MAX_RECORDS, type StoredGroupState } from './group-state.js';

const BY_ACCOUNT = ['account'];

/** Most matches a group of this window may hold and stay bare (0 when every match may be shown). */
export function pendingLimit(w: CompiledWindow): number {
  if (w.kind !== 'count') return 0;
  return Math.max(0, Number(w.threshold) - MAX_RECORDS);
}

export function pendingKey(ruleId: string, account: string): string {
  return keyOf(ruleId, BY_ACCOUNT, [account]);
}

export class PendingCounts {
  /** rule id → account id → match times, oldest first. */
  private readonly byRule = new Map<string, Map<string, readonly bigint[]>>();
  /** rule id → accounts whose times changed since the last takeDirty(). */
  private readonly dirty = new Map<string, Set<string>>();

  get(ruleId: string, account: string): readonly bigint[] | undefined {
    return this.byRule.get(ruleId)?.get(account);
  }

  /** Restores stored times (no change to write back). */
  restore(ruleId: string, account: string, times: readonly bigint[]): void {
    this.rule(ruleId).set(account, times);
  }

  /**
   * Adds a match at `nowNs` after dropping the times that left the window. False, with nothing changed, when the
   * group would then hold more than `limit` matches: the caller promotes it to a full state.
   */
  add(ruleId: string, account: string, w: CompiledWindow, limit: number, nowNs: bigint): boolean {
    const times = inWindow(this.get(ruleId, account) ?? [], w, nowNs);
    if (times.length + 1 > limit) return false;
    this.rule(ruleId).set(account, times.concat([nowNs]));
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
      if (kept.length) {
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

  /** Every group, as the state repository stores it. */
  stored(): StoredGroupState[] {
    const out: StoredGroupState[] = [];
    for (const [ruleId, groups] of this.byRule)
      for (const [account, times] of groups) out.push(toStored(ruleId, account, times));
    return out;
  }

  /** The groups changed since the last call, as stored. */
  takeDirty(): StoredGroupState[] {
    const out: StoredGroupState[] = [];
    for (const [ruleId, accounts] of this.dirty)
      for (const account of accounts) {
        const times = this.get(ruleId, account);
        if (times) out.push(toStored(ruleId, account, times));
      }
    this.dirty.clear();
    return out;
  }

  private rule(ruleId: string): Map<string, readonly bigint[]> {
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

/** `times` without the entries at or before nowNs − duration (the same array when none left). */
function inWindow(times: readonly bigint[], w: CompiledWindow, nowNs: bigint): readonly bigint[] {
  const oldest = nowNs - w.durationNs;
  let n = 0;
  while (n < times.length && (times[n] ?? 0n) <= oldest) n++;
  return n === 0 ? times : times.slice(n);
}

function toStored(ruleId: string, account: string, times: readonly bigint[]): StoredGroupState {
  return {
    key: pendingKey(ruleId, account),
    ruleId,
    group: { account },
    firing: false,
    repeats: 0,
    matchCount: times.length,
    records: [],
    window: times.map((t) => [t.toString(), '0'] as const),
  };
}
