import { describe, expect, it } from 'vitest';
import type { CompiledWindow } from '../load/rule-set.js';
import { PendingCounts, pendingKey, pendingLimit } from './pending-counts.js';

const S = 1_000_000_000n;
const w: CompiledWindow = { kind: 'count', durationNs: 60n * S, threshold: 20n };
const limit = pendingLimit(w);

describe('PendingCounts', () => {
  it('keeps times oldest first, one or many, and drops the ones that left the window', () => {
    const p = new PendingCounts();
    expect(p.add('r', 'a', w, limit, 10n * S)).toBe(true);
    expect(p.get('r', 'a')).toEqual([10n * S]);
    expect(p.add('r', 'a', w, limit, 20n * S)).toBe(true);
    expect(p.add('r', 'a', w, limit, 30n * S)).toBe(true);
    expect(p.get('r', 'a')).toEqual([10n * S, 20n * S, 30n * S]);
    // At 80 s the match at 20 s is exactly one duration old: it is out, as the full state's window counts.
    expect(p.add('r', 'a', w, limit, 80n * S)).toBe(true);
    expect(p.get('r', 'a')).toEqual([30n * S, 80n * S]);
    expect(p.trim('r', w, 90n * S)).toEqual([]);
    expect(p.get('r', 'a')).toEqual([80n * S]);
    expect(p.trim('r', w, 140n * S)).toEqual([pendingKey('r', 'a')]);
    expect(p.get('r', 'a')).toBeUndefined();
    // A group whose every time expired starts again from the new match.
    expect(p.add('r', 'a', w, limit, 200n * S)).toBe(true);
    expect(p.add('r', 'a', w, limit, 300n * S)).toBe(true);
    expect(p.get('r', 'a')).toEqual([300n * S]);
  });

  it('refuses the match beyond the limit and changes nothing (the caller promotes the group)', () => {
    const p = new PendingCounts();
    for (let i = 1; i <= limit; i++) expect(p.add('r', 'a', w, limit, BigInt(i) * S)).toBe(true);
    p.takeDirty();
    expect(p.add('r', 'a', w, limit, 50n * S)).toBe(false);
    expect(p.get('r', 'a')).toHaveLength(limit);
    expect(p.takeDirty()).toEqual([]);
    expect(p.take('r', 'a')).toHaveLength(limit);
    expect(p.get('r', 'a')).toBeUndefined();
  });

  it('stores what it holds, reports changed groups once, and restores both shapes', () => {
    const p = new PendingCounts();
    p.add('r', 'a', w, limit, 5n * S);
    p.add('r', 'b', w, limit, 6n * S);
    p.add('r', 'b', w, limit, 7n * S);
    const dirty = p.takeDirty();
    expect(dirty.map((g) => [g.key, g.window.map(([t]) => t)])).toEqual([
      [pendingKey('r', 'a'), [String(5n * S)]],
      [pendingKey('r', 'b'), [String(6n * S), String(7n * S)]],
    ]);
    expect(p.takeDirty()).toEqual([]);
    const q = new PendingCounts();
    for (const g of dirty)
      q.restore(
        g.ruleId,
        g.group.account ?? '',
        g.window.map(([t]) => BigInt(t)),
      );
    expect(q.takeDirty()).toEqual([]);
    expect([q.get('r', 'a'), q.get('r', 'b')]).toEqual([[5n * S], [6n * S, 7n * S]]);
  });

  it('does not write a group a tick only trimmed; its stored expired times do not count after a restore', () => {
    const p = new PendingCounts();
    p.add('r', 'a', w, limit, 10n * S);
    p.add('r', 'a', w, limit, 50n * S);
    const stored = p.takeDirty();

    expect(p.trim('r', w, 80n * S)).toEqual([]);
    expect(p.get('r', 'a')).toEqual([50n * S]);
    expect(p.takeDirty()).toEqual([]);

    // The store still holds 10 s; restored, it is dropped by the next match as it was by the trim.
    const q = new PendingCounts();
    q.restore('r', 'a', stored[0]?.window.map(([t]) => BigInt(t)) ?? []);
    for (const c of [p, q]) c.add('r', 'a', w, limit, 85n * S);
    expect(q.get('r', 'a')).toEqual([50n * S, 85n * S]);
    expect(q.get('r', 'a')).toEqual(p.get('r', 'a'));
    expect(q.takeDirty().map((g) => g.window.length)).toEqual([2]);
  });
});
