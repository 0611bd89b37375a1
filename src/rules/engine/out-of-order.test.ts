// The engine against records that do not arrive in consensus order (a page served reversed or shuffled, two
// accounts' streams feeding one group): every match is evaluated, whatever the order (docs/tailing.md, "Ordering").
import { describe, expect, it } from 'vitest';
import { createEngine, type EngineEvent } from './engine.js';
import { HBAR, OTHER, WATCHED, at, transfer } from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';
import { failedEvent } from '../../../test/fixtures/rules/events.js';

const failed = failedEvent;

function debit(seconds: number, hbar: bigint): EngineEvent {
  return {
    source: 'transactions',
    record: transfer(WATCHED.id, '0.0.5555', hbar * HBAR, { consensus_timestamp: at(seconds) }),
    account: WATCHED,
  };
}

function rule(extra: string, groupBy = ''): string {
  return `rules:\n  - id: r\n    summary: "s"\n    when: { result: fail }\n${groupBy}${extra}`;
}

type Order = 'ascending' | 'descending' | 'shuffled';
const ORDERS: readonly Order[] = ['ascending', 'descending', 'shuffled'];

function ordered<T>(items: readonly T[], order: Order): T[] {
  if (order === 'ascending') return [...items];
  if (order === 'descending') return [...items].reverse();
  // A fixed interleaving that is neither sorted nor reversed.
  const odd = items.filter((_, i) => i % 2 === 1);
  const even = items.filter((_, i) => i % 2 === 0);
  return [...odd.reverse(), ...even];
}

function firing(yaml: string, events: readonly EngineEvent[]): number {
  const engine = createEngine(ruleSetFrom(yaml));
  return events.flatMap((e) => engine.evaluate(e).alerts).filter((a) => a.status === 'firing').length;
}

const FOUR = [0, 10, 20, 30].map((s) => failed(s));
const ACROSS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((s) => failed(s, s % 2 ? OTHER : WATCHED));

describe('engine: records out of consensus order', () => {
  it.each(ORDERS)('throttle 0s: all 4 matches alert (%s)', (order) => {
    expect(firing(rule('    throttle: 0s\n'), ordered(FOUR, order))).toBe(4);
  });

  it.each(ORDERS)('throttle 0s, group_by []: all 10 matches across two accounts alert (%s)', (order) => {
    expect(firing(rule('    throttle: 0s\n', '    group_by: []\n'), ordered(ACROSS, order))).toBe(10);
  });

  it.each(ORDERS)('throttle 10m: 4 matches within 30 s give one alert (%s)', (order) => {
    expect(firing(rule('    throttle: 10m\n'), ordered(FOUR, order))).toBe(1);
  });

  it.each(ORDERS)('throttle 15s: a match 15 s or more from the last alert alerts again (%s)', (order) => {
    const events = ordered(FOUR, order);

    const alerts = firing(rule('    throttle: 15s\n'), events);

    // In order: 0 and 20 fire (10 and 30 are throttled). Reversed: 30 and 10. Either way two.
    expect(alerts).toBe(2);
  });

  it.each(ORDERS)('a count window of 3 in 10m fires on 3 matches within it (%s)', (order) => {
    const yaml = rule('    window: { duration: 10m, count: 3 }\n    throttle: 1h\n');

    expect(firing(yaml, ordered([failed(0), failed(100), failed(200)], order))).toBe(1);
  });

  it.each(ORDERS)('a count window does not fire on matches spread wider than it (%s)', (order) => {
    const yaml = rule('    window: { duration: 10m, count: 3 }\n    throttle: 1h\n');

    expect(firing(yaml, ordered([failed(0), failed(700), failed(1400)], order))).toBe(0);
  });

  it.each(ORDERS)('a count window kept as bare times (count 15) fires on 15 matches (%s)', (order) => {
    const yaml = rule('    window: { duration: 10m, count: 15 }\n    throttle: 1h\n');
    const events = Array.from({ length: 15 }, (_, i) => failed(i * 10));

    expect(firing(yaml, ordered(events, order))).toBe(1);
  });

  it.each(ORDERS)('a late match older than the window is counted but keeps nothing alive (%s)', (order) => {
    const yaml = rule('    window: { duration: 10m, count: 3 }\n    throttle: 1h\n');
    // 0 is 20 minutes before the others: in no order may it make a third match within 10 minutes.
    const events = ordered([failed(1200), failed(1500), failed(0)], order);

    expect(firing(yaml, events)).toBe(0);
  });

  it.each(ORDERS)('a debit sum window adds late debits in place (%s)', (order) => {
    const yaml = `rules:\n  - id: v\n    summary: "s"\n    when: { debit: "1 tinybar" }\n    window: { duration: 1h, debit_sum: "1000 hbar" }\n`;
    const events = ordered([debit(0, 400n), debit(600, 400n), debit(1200, 400n)], order);

    expect(firing(yaml, events)).toBe(1);
  });

  it('the window state is oldest first after a reversed page', () => {
    const engine = createEngine(
      ruleSetFrom(rule('    window: { duration: 10m, count: 30 }\n    throttle: 1h\n')),
    );

    for (const e of ordered([failed(0), failed(10), failed(20), failed(30)], 'descending'))
      engine.evaluate(e);

    const group = engine.takeChanges().upserts[0];
    const ns = [0, 10, 20, 30].map((sec) => String(BigInt(1_700_000_000 + sec) * 1_000_000_000n));
    expect(group?.window.map(([t]) => t)).toEqual(ns);
  });
});
