import { describe, expect, it } from 'vitest';
import { createEngine, type Engine, type EngineEvent } from './engine.js';
import { createRuleStateRepo, type RuleStateRepo } from '../alert-state/state-repo.js';
import { openStateStore } from '../../state/store.js';
import {
  HBAR,
  OTHER,
  WATCHED,
  action,
  at,
  reward,
  transfer,
  tx,
} from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';
import { failedEvent } from '../../../test/fixtures/rules/events.js';

const failed = failedEvent;
const debit = (seconds: number, hbar: bigint): EngineEvent => ({
  source: 'transactions',
  record: transfer(WATCHED.id, '0.0.5555', hbar * HBAR, { consensus_timestamp: at(seconds) }),
  account: WATCHED,
});
const rewardAt = (seconds: number): EngineEvent => ({
  source: 'rewards',
  record: reward(HBAR, seconds),
  account: WATCHED,
});
const ms = (seconds: number) => (1_700_000_000 + seconds) * 1000;

/** The engine's changes written where a restarted process reads them: a state repository (in memory). */
function saved(engine: Engine): RuleStateRepo {
  const repo = createRuleStateRepo(openStateStore({ dir: ':memory:' }));
  repo.apply(engine.takeChanges());
  return repo;
}

const STATELESS = `rules:
  - id: failed
    severity: critical
    summary: "{{account.name}}: {{name}} failed with {{result}}"
    description: "{{amount_hbar}} HBAR at {{consensus_time_utc}} {{explorer_url}}"
    when: { result: fail }
    throttle: 10m
    labels: { team: ops }
    notify: [ops]
`;
const COUNT = `rules:
  - id: failed-burst
    summary: "{{match_count}} failed in {{window_duration}}"
    when: { result: fail }
    window: { duration: 10m, count: 3 }
    throttle: 1h
`;
const SUM = `rules:
  - id: velocity
    summary: "{{window_total_hbar}} HBAR out in {{window_duration}}"
    when: { debit: "1 tinybar" }
    window: { duration: 1h, debit_sum: "1000 hbar" }
`;
const ABSENT = `rules:
  - id: no-reward
    source: rewards
    summary: "no reward for {{account.name}} since {{last_seen_utc}}"
    window: { duration: 26h, absent: true }
    accounts: { ids: [0.0.1001] }
    throttle: 24h
`;

describe('engine: a rule without a window', () => {
  it('fires once with the rendered templates, the record and the labels', () => {
    const engine = createEngine(ruleSetFrom(STATELESS));

    const { alerts } = engine.evaluate(failed(0));

    expect(alerts).toEqual([
      expect.objectContaining({
        key: 'failed{account="0.0.1001"}',
        id: 'failed{account="0.0.1001"}|firing|2023-11-14T22:13:20.000000000Z',
        status: 'firing',
        severity: 'critical',
        summary: 'treasury-hot: CRYPTOTRANSFER failed with INSUFFICIENT_PAYER_BALANCE',
        description:
          '0 HBAR at 2023-11-14T22:13:20.000000000Z https://hashscan.io/mainnet/transaction/1700000000.000000000',
        labels: { rule: 'failed', severity: 'critical', team: 'ops', account: '0.0.1001' },
        notify: ['ops'],
        matchCount: 1,
      }),
    ]);
    expect(alerts[0]?.records[0]).toMatchObject({
      kind: 'transaction',
      result: 'INSUFFICIENT_PAYER_BALANCE',
    });
  });

  it.each([
    ['within the throttle: silent', [0, 599], [1, 0]],
    ['after the throttle: fires again', [0, 600], [1, 1]],
    ['a new episode restarts the throttle', [0, 600, 1199], [1, 1, 0]],
  ])('%s', (_label, times, expected) => {
    const engine = createEngine(ruleSetFrom(STATELESS));

    const counts = times.map((s) => engine.evaluate(failed(s)).alerts.length);

    expect(counts).toEqual(expected);
  });

  it('keys alerts per group: another account fires on its own', () => {
    const engine = createEngine(ruleSetFrom(STATELESS));

    const first = engine.evaluate(failed(0)).alerts;
    const second = engine.evaluate(failed(1, OTHER)).alerts;

    expect([first.length, second[0]?.key]).toEqual([1, 'failed{account="0.0.2002"}']);
  });

  it('stays silent on records that do not match', () => {
    const engine = createEngine(ruleSetFrom(STATELESS));

    const { alerts } = engine.evaluate({ source: 'transactions', record: tx(), account: WATCHED });

    expect(alerts).toEqual([]);
  });
});

describe('engine: count windows', () => {
  it.each([
    ['3 in 10 minutes fire', [0, 100, 200], [0, 0, 1]],
    ['3 spread over more than 10 minutes do not', [0, 300, 600], [0, 0, 0]],
    ['the 4th while firing is counted, not re-sent', [0, 100, 200, 300], [0, 0, 1, 0]],
  ])('%s', (_label, times, expected) => {
    const engine = createEngine(ruleSetFrom(COUNT));

    const counts = times.map((s) => engine.evaluate(failed(s)).alerts.length);

    expect(counts).toEqual(expected);
  });

  // Before a window fires, only matches that can still be among the 10 newest when it does keep a record; the
  // alert must list exactly the 10 newest matches in the window, expiry and a restart in between included.
  const BURST_15 = COUNT.replace('count: 3', 'count: 15');
  const shown = (alert: { records: readonly { consensusTimestamp: string }[] } | undefined) =>
    alert?.records.map((r) => r.consensusTimestamp);

  it('lists the 10 newest matches when a window of 15 fires', () => {
    const engine = createEngine(ruleSetFrom(BURST_15));
    const times = Array.from({ length: 15 }, (_, i) => i * 10);

    const alerts = times.flatMap((s) => engine.evaluate(failed(s)).alerts);

    expect(alerts).toHaveLength(1);
    expect(shown(alerts[0])).toEqual(times.slice(5).map(at));
  });

  it('lists the 10 newest in the window after older matches expired and the state was restored', () => {
    const before = createEngine(ruleSetFrom(BURST_15));
    // 14 matches (9 at 0-8 s, 5 at 100-104 s); the first 9 fall out of the 10-minute window while 10 new ones
    // arrive at 601-610 s, so the count stays at 13 until it reaches 15 at 610 s.
    const early = [...Array.from({ length: 9 }, (_, i) => i), 100, 101, 102, 103, 104];
    const late = Array.from({ length: 10 }, (_, i) => 601 + i);
    const fired = early.flatMap((s) => before.evaluate(failed(s)).alerts);
    const after = createEngine(ruleSetFrom(BURST_15), saved(before).load());
    const alerts = late.flatMap((s) => after.evaluate(failed(s)).alerts);

    expect(fired).toEqual([]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.matchCount).toBe(15);
    expect(shown(alerts[0])).toEqual(late.map(at));
  });

  it('fires with the right count and records after a restart while the group was still bare times', () => {
    const before = createEngine(ruleSetFrom(BURST_15));
    [0, 10, 20, 30].forEach((s) => before.evaluate(failed(s)));
    const after = createEngine(ruleSetFrom(BURST_15), saved(before).load());
    const times = Array.from({ length: 11 }, (_, i) => 40 + i * 10);

    const alerts = times.flatMap((s) => after.evaluate(failed(s)).alerts);

    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.matchCount).toBe(15);
    expect(shown(alerts[0])).toEqual(times.slice(1).map(at));
  });

  it('writes a bare group as it changes and deletes it once its window has drained', () => {
    const engine = createEngine(ruleSetFrom(BURST_15));
    engine.evaluate(failed(0));
    const written = engine.takeChanges();
    engine.tick(ms(601));
    const drained = engine.takeChanges();
    engine.evaluate(failed(700));
    engine.tick(ms(1301));
    engine.evaluate(failed(1400)); // the same key again in the batch that deleted it: written, not deleted

    expect(written.upserts.map((g) => [g.key, g.window.length])).toEqual([
      ['failed-burst{account="0.0.1001"}', 1],
    ]);
    expect(drained).toEqual({ upserts: [], deletes: ['failed-burst{account="0.0.1001"}'] });
    expect(engine.takeChanges()).toEqual({
      upserts: [expect.objectContaining({ key: 'failed-burst{account="0.0.1001"}', matchCount: 1 })],
      deletes: [],
    });
  });

  it('keeps no record digest in a group far below its threshold', () => {
    const engine = createEngine(ruleSetFrom(BURST_15));
    for (const s of [0, 10, 20]) engine.evaluate(failed(s));

    const [group] = engine.takeChanges().upserts;

    expect(group?.window).toHaveLength(3);
    expect(group?.records).toEqual([]);
  });

  it('resolves on a tick once the window has drained, and reports the count it fired with', () => {
    const engine = createEngine(ruleSetFrom(COUNT));
    const fired = [0, 100, 200].flatMap((s) => engine.evaluate(failed(s)).alerts);

    const early = engine.tick(ms(500));
    const late = engine.tick(ms(801));

    expect(fired.map((a) => a.summary)).toEqual(['3 failed in 10m']);
    expect(early).toEqual([]);
    expect(late).toEqual([
      expect.objectContaining({
        status: 'resolved',
        endsAt: '2023-11-14T22:26:41.000000000Z',
        startsAt: fired[0]?.startsAt,
      }),
    ]);
  });
});

describe('engine: sum windows', () => {
  it.each([
    [
      'debits summing past the limit within the hour fire',
      [
        [0, 600n],
        [1800, 400n],
      ],
      [0, 1],
    ],
    [
      'the same debits more than an hour apart do not',
      [
        [0, 600n],
        [3600, 400n],
      ],
      [0, 0],
    ],
    ['one debit over the limit fires at once', [[0, 1000n]], [1]],
  ] as [string, [number, bigint][], number[]][])('%s', (_label, debits, expected) => {
    const engine = createEngine(ruleSetFrom(SUM));

    const counts = debits.map(([s, hbar]) => engine.evaluate(debit(s, hbar)).alerts.length);

    expect(counts).toEqual(expected);
  });

  it('renders the window total in HBAR, fees included', () => {
    const engine = createEngine(ruleSetFrom(SUM));

    const alerts = [debit(0, 600n), debit(10, 400n)].flatMap((e) => engine.evaluate(e).alerts);

    expect(alerts.map((a) => a.summary)).toEqual(['1000.002 HBAR out in 1h']);
  });
});

describe('engine: absence windows', () => {
  it('fires when no reward arrived for 26h after the first tick, and resolves when one arrives', () => {
    const engine = createEngine(ruleSetFrom(ABSENT));

    const baseline = engine.tick(ms(0));
    const before = engine.tick(ms(26 * 3600 - 1));
    const fired = engine.tick(ms(26 * 3600));
    const again = engine.tick(ms(26 * 3600 + 60));
    const resolved = engine.evaluate(rewardAt(27 * 3600)).alerts;

    expect([baseline, before, again]).toEqual([[], [], []]);
    expect(fired).toEqual([
      expect.objectContaining({
        key: 'no-reward{account="0.0.1001"}',
        status: 'firing',
        summary: 'no reward for treasury-hot since 2023-11-14T22:13:20.000000000Z',
      }),
    ]);
    expect(resolved).toEqual([expect.objectContaining({ status: 'resolved', startsAt: fired[0]?.startsAt })]);
  });

  it('measures from the last reward, and repeats after the throttle', () => {
    const engine = createEngine(ruleSetFrom(ABSENT));
    engine.tick(ms(0));
    engine.evaluate(rewardAt(3600));

    const notYet = engine.tick(ms(26 * 3600));
    const fired = engine.tick(ms(27 * 3600));
    const repeat = engine.tick(ms(51 * 3600));

    expect(notYet).toEqual([]);
    expect(fired.map((a) => a.status)).toEqual(['firing']);
    expect(repeat.map((a) => a.id)).toEqual([`${fired[0]?.id}|repeat-1`]);
  });
});

describe('engine: enrichment on demand', () => {
  const DEEP = `rules:
  - id: deep
    summary: deep call
    when: { type: [CONTRACTCALL], call_depth: 5 }
  - id: any-call
    summary: call
    when: { type: [CONTRACTCALL] }
`;
  const call = (traces?: EngineEvent['traces']): EngineEvent => ({
    source: 'transactions',
    record: tx({ name: 'CONTRACTCALL' }),
    account: WATCHED,
    traces,
  });

  it.each([
    [
      'a record the rest of the rule rejects needs no trace',
      { source: 'transactions', record: tx(), account: WATCHED } as EngineEvent,
      false,
    ],
    ['a record the rest of the rule accepts needs the trace', call(), true],
    ['a record with its trace needs nothing more', call([action()]), false],
  ])('%s', (_label, event, expected) => {
    const engine = createEngine(ruleSetFrom(DEEP));

    const needs = engine.needs(event);

    expect(needs.trace).toBe(expected);
  });

  it('changes nothing until the trace is there, then evaluates every rule once', () => {
    const engine = createEngine(ruleSetFrom(DEEP));

    const first = engine.evaluate(call());
    const second = engine.evaluate(call([action({ call_depth: 6 })]));

    expect(first).toEqual({ alerts: [], matched: [], needsTrace: true, needsVerification: false });
    expect(second.alerts.map((a) => a.ruleId)).toEqual(['deep', 'any-call']);
    expect(second.matched).toEqual(['deep', 'any-call']);
  });

  it('asks for contract verification of a created contract and puts the result in the annotations', () => {
    const engine = createEngine(
      ruleSetFrom(`rules:
  - id: new-contract
    summary: new contract {{entity_id}}
    when: { type: [CONTRACTCREATEINSTANCE] }
    verify_contracts: true
`),
    );
    const event: EngineEvent = {
      source: 'transactions',
      record: tx({ name: 'CONTRACTCREATEINSTANCE', entity_id: '0.0.7007' }),
      account: WATCHED,
    };

    const first = engine.evaluate(event);
    const second = engine.evaluate({ ...event, annotations: { contract_verification: 'perfect' } });

    expect(first.needsVerification).toBe(true);
    expect(second.alerts.map((a) => [a.summary, a.annotations])).toEqual([
      ['new contract 0.0.7007', { contract_verification: 'perfect' }],
    ]);
  });
});

describe('engine: accounts', () => {
  it.each([
    ['ids', '{ ids: [0.0.2002] }', ['0.0.2002']],
    ['names', '{ names: [treasury-hot] }', ['0.0.1001']],
    ['labels', '{ labels: { team: treasury } }', ['0.0.1001']],
    ['all', 'all', ['0.0.1001', '0.0.2002']],
  ])('%s selects the accounts the rule applies to', (_label, accounts, expected) => {
    const engine = createEngine(
      ruleSetFrom(
        `rules:\n  - id: r\n    summary: s\n    accounts: ${accounts}\n    when: { result: fail }\n`,
      ),
    );

    const fired = [failed(0, WATCHED), failed(0, OTHER)].flatMap((e) =>
      engine.evaluate(e).alerts.map((a) => a.account?.id),
    );

    expect(fired).toEqual(expected);
  });
});

describe('engine: state', () => {
  it('continues a window after a restart from the snapshot', () => {
    const before = createEngine(ruleSetFrom(COUNT));
    before.evaluate(failed(0));
    before.evaluate(failed(100));

    const after = createEngine(ruleSetFrom(COUNT), saved(before).load());
    const { alerts } = after.evaluate(failed(200));

    expect(alerts.map((a) => a.matchCount)).toEqual([3]);
  });

  it('reports changed and dropped groups for the state repository', () => {
    const engine = createEngine(ruleSetFrom(STATELESS));
    engine.evaluate(failed(0));

    const changed = engine.takeChanges();
    engine.tick(ms(601));
    const dropped = engine.takeChanges();

    expect(changed.upserts.map((g) => g.key)).toEqual(['failed{account="0.0.1001"}']);
    expect(dropped).toEqual({ upserts: [], deletes: ['failed{account="0.0.1001"}'] });
  });

  it('forgets the state of rules that no longer exist', () => {
    const old = createEngine(ruleSetFrom(STATELESS));
    old.evaluate(failed(0));

    const repo = saved(old);
    const engine = createEngine(ruleSetFrom(COUNT), repo.load());
    const changes = engine.takeChanges();
    repo.apply(changes);

    expect([changes.deletes, [...repo.load().groups]]).toEqual([['failed{account="0.0.1001"}'], []]);
  });
});

describe('engine: absence state of accounts no longer watched', () => {
  it('is dropped on the next tick', () => {
    const before = createEngine(ruleSetFrom(ABSENT));
    before.tick(ms(0));

    const after = createEngine(ruleSetFrom(ABSENT, [OTHER]), saved(before).load());
    after.takeChanges();
    after.tick(ms(60));

    expect(after.takeChanges().deletes).toEqual(['no-reward{account="0.0.1001"}']);
  });
});

describe('engine: matched rules', () => {
  const TWO = `rules:
  - id: failed
    summary: s
    when: { result: fail }
    throttle: 10m
  - id: failed-burst
    summary: s
    when: { result: fail }
    window: { duration: 10m, count: 3 }
  - id: big-debit
    summary: s
    when: { debit: '1000 hbar' }
`;

  it.each([
    ['a failed record: both failure rules, alert or not', [failed(0)], ['failed', 'failed-burst']],
    ['a throttled repeat still matches', [failed(0), failed(1)], ['failed', 'failed-burst']],
    ['a large debit', [debit(0, 2_000n)], ['big-debit']],
    ['a small debit: nothing', [debit(0, 5n)], []],
  ])('%s', (_label, events, expected) => {
    const engine = createEngine(ruleSetFrom(TWO));

    const last = events.map((e) => engine.evaluate(e)).at(-1);

    expect(last?.matched).toEqual(expected);
  });
});
