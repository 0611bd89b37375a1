// A wall clock that jumps ahead (an hour, say) must not change what the rules decide: throttles and count
// windows hold consensus times and drain by the ledger's time (the tail's head), never by a clock that ran off.
// Before, a tick an hour ahead forgot every throttle (each next match was sent: 14 sends in 26 s under a 10-minute
// throttle) and emptied every count window between two matches.
import { describe, expect, it } from 'vitest';
import { at } from '../../../test/fixtures/rules/records.js';
import { failedEvent as failed } from '../../../test/fixtures/rules/events.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { createEngine } from './engine.js';

const THROTTLED = `rules:
  - id: failed
    summary: s
    when: { result: fail }
    throttle: 10m
`;
const COUNT = `rules:
  - id: failed-burst
    summary: "{{match_count}} failed"
    when: { result: fail }
    window: { duration: 10m, count: 3 }
    throttle: 1h
`;
const ms = (seconds: number) => (1_700_000_000 + seconds) * 1000;
const ledger = (seconds: number) => parseTimestamp(at(seconds));
const HOUR = 3_600;

describe('a wall clock an hour ahead', () => {
  it('a 10-minute throttle still holds back the next matches', () => {
    const engine = createEngine(ruleSetFrom(THROTTLED));
    const sent: number[] = [];
    for (let s = 0; s < 30; s += 2) {
      sent.push(...engine.evaluate(failed(s)).alerts.map(() => s));
      engine.tick(ms(s + HOUR), ledger(s));
    }
    expect(sent).toEqual([0]);
  });

  it('a count window still counts matches a tick apart', () => {
    const engine = createEngine(ruleSetFrom(COUNT));
    const fired: number[] = [];
    for (let s = 0; s < 30; s += 10) {
      fired.push(...engine.evaluate(failed(s)).alerts.map((a) => a.matchCount));
      engine.tick(ms(s + HOUR), ledger(s));
    }
    expect(fired).toEqual([3]);
  });

  it('once the ledger has passed the throttle, the state goes as before', () => {
    const engine = createEngine(ruleSetFrom(THROTTLED));
    engine.evaluate(failed(0));
    engine.takeChanges();
    engine.tick(ms(HOUR), ledger(601));
    expect(engine.takeChanges().deletes).toEqual(['failed{account="0.0.1001"}']);
  });
});
