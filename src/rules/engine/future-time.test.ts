// A record dated 2100 whose event carries stateTimeNs (the tailer sets it beyond now + max_clock_skew) keeps rule
// state at that time: the throttle and an absence window's "last seen" go on from it, not from 2100. Without it
// (backtests) the record's own time counts.
import { describe, expect, it } from 'vitest';
import { HBAR, WATCHED, at, reward, tx } from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';
import { createEngine, type EngineEvent } from './engine.js';

const YEAR_2100 = 2_402_444_800; // seconds after 1_700_000_000
const NS = 1_000_000_000n;
const standIn = (seconds: number) => (1_700_000_000n + BigInt(seconds)) * NS;

const failed = (seconds: number, stateTimeNs?: bigint): EngineEvent => ({
  source: 'transactions',
  record: tx({ result: 'INSUFFICIENT_PAYER_BALANCE', consensus_timestamp: at(seconds) }),
  account: WATCHED,
  ...(stateTimeNs === undefined ? {} : { stateTimeNs }),
});
const rewardAt = (seconds: number, stateTimeNs?: bigint): EngineEvent => ({
  source: 'rewards',
  record: reward(HBAR, seconds),
  account: WATCHED,
  ...(stateTimeNs === undefined ? {} : { stateTimeNs }),
});
const ms = (seconds: number) => (1_700_000_000 + seconds) * 1000;

const THROTTLED = `rules:
  - id: failed
    summary: "{{account.name}} failed at {{consensus_time_utc}}"
    when: { result: fail }
    throttle: 10m
`;
const ABSENT = `rules:
  - id: no-reward
    source: rewards
    summary: "no reward"
    window: { duration: 1h, absent: true }
    accounts: { ids: [0.0.1001] }
    throttle: 24h
`;

const EVERY = `rules:
  - id: failed
    summary: "{{account.name}} failed at {{consensus_time_utc}}"
    when: { result: fail }
    throttle: 0s
`;

describe('rule state and records from the future', () => {
  it('its alert keeps an id of its own when its stand-in time is another record’s', () => {
    const engine = createEngine(ruleSetFrom(EVERY));

    const first = engine.evaluate(failed(10)).alerts;
    const future = engine.evaluate(failed(YEAR_2100, standIn(10))).alerts;

    expect(first).toHaveLength(1);
    expect(future).toHaveLength(1);
    expect(future[0]?.id).not.toBe(first[0]?.id);
    expect(future[0]?.startsAt).toBe('2100-01-01T00:00:00.000000000Z');
  });

  it('kept at the stand-in time: the next failure 10 minutes later fires', () => {
    const engine = createEngine(ruleSetFrom(THROTTLED));

    const first = engine.evaluate(failed(YEAR_2100, standIn(0))).alerts;
    const later = engine.evaluate(failed(600)).alerts;

    expect(first.length + later.length).toBe(2);
    expect(first[0]?.summary).toContain('2100-01-01');
  });

  it('an absence window measures from now, not from 2100', () => {
    const engine = createEngine(ruleSetFrom(ABSENT));
    engine.tick(ms(0));

    engine.evaluate(rewardAt(YEAR_2100, standIn(60)));
    const early = engine.tick(ms(60 + 3599));
    const fired = engine.tick(ms(60 + 3600));

    expect(early).toEqual([]);

    expect(fired.map((a) => `${a.ruleId}:${a.status}`)).toEqual(['no-reward:firing']);
  });
});
