// A count window "N in T" keeps at most N match times per group, however many matches its window spans, and
// decides exactly as if it kept them all: the same alerts, straight through or restarted from the store at any
// point. Many accounts interleave, so the pending groups share account slots and pack their times (rule-times.ts).
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine/engine.js';
import type { Alert } from '../alert/alert.js';
import type { StoredGroupState } from '../alert-state/group-state.js';
import { createRuleStateRepo } from '../alert-state/state-repo.js';
import { openStateStore } from '../../state/store.js';
import { failedEvent } from '../../../test/fixtures/rules/events.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

const N = 15;
const T_S = 600;
const RULES = `rules:
  - id: burst
    summary: "{{match_count}} failed"
    when: { result: fail }
    window: { duration: 10m, count: ${N} }
    throttle: 1h
`;
const ACCOUNTS: WatchedAccount[] = Array.from({ length: 6 }, (_, i) => ({
  id: `0.0.${1001 + i}`,
  name: `a${i}`,
  labels: {},
  priority: 0,
  rewardsPath: `0.0.${1001 + i}`,
}));

/** Deterministic matches: [second, account index], mostly in order, bursts dense enough to fire and to drain. */
function matches(): [number, number][] {
  const out: [number, number][] = [];
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
  for (let s = 0; s < 4 * T_S; s += 1 + (next() % 3))
    // Account 0 gets a match almost every step (far above N in T); the others fewer, some near the threshold.
    for (let a = 0; a < ACCOUNTS.length; a++) if (next() % (1 + a * 3) === 0) out.push([s, a]);
  return out;
}

interface Run {
  readonly alerts: string[];
  /** `account status second` of each transition, in order: what an unbounded window is checked against. */
  readonly transitions: string[];
  readonly widest: number;
}

const seconds = (iso: string | undefined) => Date.parse(iso ?? '') / 1000 - 1_700_000_000;

/** Feeds the matches (a tick every 30 s of ledger time), restarting from the store before every `restartEvery`th. */
function run(restartEvery: number): Run {
  const repo = createRuleStateRepo(openStateStore({ dir: ':memory:' }));
  const load = () => createEngine(ruleSetFrom(RULES), repo.load());
  let engine: Engine = load();
  const alerts: string[] = [];
  const transitions: string[] = [];
  let widest = 0;
  // One tick's alerts come in the order the groups were loaded, which a restart may change: sorted per batch.
  const keep = (list: readonly Alert[]) => {
    alerts.push(...list.map((a) => `${a.key} ${a.status} ${a.matchCount} ${a.endsAt ?? a.startsAt}`).sort());
    transitions.push(
      ...list
        .map(
          (a) => `${a.labels.account} ${a.status} ${seconds(a.status === 'firing' ? a.startsAt : a.endsAt)}`,
        )
        .sort(),
    );
  };
  const commit = () => {
    const changes = engine.takeChanges();
    widest = Math.max(widest, ...changes.upserts.map((g: StoredGroupState) => g.window.length));
    repo.apply(changes);
  };
  let nextTick = 30;
  matches().forEach(([s, a], i) => {
    if (s >= nextTick) {
      keep(engine.tick((1_700_000_000 + nextTick) * 1000));
      nextTick += 30;
    }
    keep(engine.evaluate(failedEvent(s, ACCOUNTS[a])).alerts);
    commit();
    if (restartEvery > 0 && i % restartEvery === restartEvery - 1) engine = load();
  });
  keep(engine.tick((1_700_000_000 + 5 * T_S) * 1000));
  return { alerts, transitions, widest };
}

/**
 * The same decisions from every match time kept (no bound): fire on the match that brings (t − T, t] to N,
 * resolve on the match or the tick (every 30 s) that finds fewer.
 */
function unbounded(): string[] {
  const out: string[] = [];
  const held = new Map<number, number[]>();
  const firing = new Set<number>();
  const inWindow = (a: number, now: number) => (held.get(a) ?? []).filter((t) => t > now - T_S).length;
  const tick = (now: number) =>
    out.push(
      ...[...firing]
        .filter((a) => inWindow(a, now) < N)
        .map((a) => (firing.delete(a), `${ACCOUNTS[a]?.id} resolved ${now}`))
        .sort(),
    );
  let nextTick = 30;
  for (const [s, a] of matches()) {
    if (s >= nextTick) {
      tick(nextTick);
      nextTick += 30;
    }
    held.set(a, [...(held.get(a) ?? []), s]);
    if (!firing.has(a) && inWindow(a, s) >= N) {
      firing.add(a);
      out.push(`${ACCOUNTS[a]?.id} firing ${s}`);
    }
  }
  tick(5 * T_S);
  return out;
}

/** The most matches of one account within any T (exclusive of the start): what an unbounded window would hold. */
function mostInWindow(): number {
  const byAccount = new Map<number, number[]>();
  for (const [s, a] of matches()) byAccount.set(a, [...(byAccount.get(a) ?? []), s]);
  let most = 0;
  for (const times of byAccount.values())
    times.forEach((t, i) => (most = Math.max(most, times.filter((u, j) => j <= i && u > t - T_S).length)));
  return most;
}

describe('count window bound', () => {
  it('keeps at most N times per group though its window spans far more matches', () => {
    const { widest, alerts } = run(0);

    expect(mostInWindow()).toBeGreaterThan(3 * N);
    expect(widest).toBe(N);
    expect(alerts.some((a) => a.includes(' firing '))).toBe(true);
    expect(alerts.some((a) => a.includes(' resolved '))).toBe(true);
  });

  it('fires and resolves exactly when a window keeping every match would', () => {
    const { transitions } = run(0);

    expect(transitions.length).toBeGreaterThan(ACCOUNTS.length);
    expect(transitions).toEqual(unbounded());
  });

  it.each([1, 7, 50])(
    'fires and resolves the same when restarted from the store every %i matches',
    (every) => {
      expect(run(every).alerts).toEqual(run(0).alerts);
    },
  );
});
