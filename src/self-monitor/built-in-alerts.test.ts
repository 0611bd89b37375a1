import { describe, expect, it } from 'vitest';
import type { Alert } from '../rules/alert/alert.js';
import { BUILT_IN_RULES, inhibit, transitions, type Condition } from './built-in-alerts.js';

const AT = new Date('2030-01-01T00:00:00Z');
const down: Condition = {
  key: 'down',
  ruleId: BUILT_IN_RULES.queryServiceDown,
  severity: 'critical',
  summary: 'down',
  description: '',
};
const stale = (id: string): Condition => ({
  key: `stale|${id}`,
  ruleId: BUILT_IN_RULES.accountStale,
  severity: 'warning',
  summary: `stale ${id}`,
  description: '',
});
const failing: Condition = {
  key: 'failing|ops',
  ruleId: BUILT_IN_RULES.deliveryFailing,
  severity: 'critical',
  summary: 'failing',
  description: '',
  exclude: ['ops'],
};

describe('inhibit', () => {
  it.each<[string, Condition[], string[]]>([
    ['keeps staleness when the service is up', [stale('a'), stale('b')], ['stale|a', 'stale|b']],
    ['holds staleness back while the service is down', [down, stale('a'), failing], ['down', 'failing|ops']],
    ['keeps delivery failures either way', [failing], ['failing|ops']],
  ])('%s', (_label, conditions, kept) => {
    const result = inhibit(conditions);

    expect(result.map((c) => c.key)).toEqual(kept);
  });
});

describe('transitions', () => {
  function fire(conditions: Condition[], before = new Map<string, Alert>(), held = new Set<string>()) {
    return transitions(before, conditions, held, ['ops', 'pager'], AT);
  }

  it('fires a new condition once, to the notifiers it does not exclude', () => {
    const first = fire([failing]);

    const second = fire([failing], first.firing);

    expect(first.alerts.map((a) => [a.ruleId, a.status, a.notify])).toEqual([
      [BUILT_IN_RULES.deliveryFailing, 'firing', ['pager']],
    ]);
    expect(second.alerts).toEqual([]);
  });

  it('resolves a condition that no longer holds, with the same key and a new id', () => {
    const first = fire([stale('a')]);

    const second = fire([], first.firing);

    expect(second.alerts.map((a) => [a.key, a.status])).toEqual([['stale|a', 'resolved']]);
    expect(second.alerts[0]?.id).not.toBe(first.alerts[0]?.id);
    expect(second.alerts[0]?.resolution).toMatch(/^the condition no longer holds at \d{4}-/);
    expect(second.firing.size).toBe(0);
  });

  it('keeps a held-back alert firing instead of resolving it', () => {
    const first = fire([stale('a')]);

    const second = fire([down], first.firing, new Set(['stale|a']));

    expect(second.alerts.map((a) => [a.key, a.status])).toEqual([['down', 'firing']]);
    expect([...second.firing.keys()].sort()).toEqual(['down', 'stale|a']);
  });
});
