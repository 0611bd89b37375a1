// `sentinel-head-ahead` and `sentinel-clock-step`: each fires on its sighting with what to do, stays firing while
// more come, resolves after future_record_resolve_after without one, and one firing at a restart stays that long.
import { describe, expect, it } from 'vitest';
import { BUILT_IN_RULES } from './built-in-alerts.js';
import { clockConditions, type ClockConditionInputs } from './clock-conditions.js';

const NOW = 1_700_000_000_000;
const base: ClockConditionInputs = {
  ahead: undefined,
  step: undefined,
  firing: new Set(),
  now: NOW,
  startedAt: NOW - 60_000,
  resolveAfterMs: 600_000,
};

describe('clock conditions', () => {
  it('a row ahead of the clock: how far, and that no cursor followed it', () => {
    const [c] = clockConditions({
      ...base,
      ahead: { atMs: NOW, aheadMs: 40_400, timestamp: '1700000040.4' },
    });
    expect(c?.ruleId).toBe(BUILT_IN_RULES.headAhead);
    expect(c?.summary).toBe("The query service returned a row 40 s ahead of this host's clock");
    expect(c?.description).toContain('1700000040.4');
    expect(c?.description).toContain('moves no head and no cursor');
  });

  it('a backward step says the daemon keeps its own time, and how to undo that', () => {
    const step = { atMs: NOW, stepMs: -3_600_000, heldMs: 3_600_000 };
    const [c] = clockConditions({ ...base, step });
    expect(c?.summary).toBe("This host's wall clock jumped backward by 3600 s");
    expect(c?.description).toContain('3600 s ahead of the wall clock');
    expect(c?.description).toContain('restart it if the wall clock was wrong');
  });

  it('resolves after the quiet period; one firing at a restart holds that long after the start', () => {
    const step = { atMs: NOW, stepMs: 3_600_000, heldMs: 0 };
    expect(clockConditions({ ...base, step, now: NOW + 600_000 })).toHaveLength(1);
    expect(clockConditions({ ...base, step, now: NOW + 600_001 })).toEqual([]);
    const firing = new Set<string>([BUILT_IN_RULES.clockStep, BUILT_IN_RULES.headAhead]);
    expect(
      clockConditions({ ...base, firing })
        .map((c) => c.ruleId)
        .sort(),
    ).toEqual([BUILT_IN_RULES.clockStep, BUILT_IN_RULES.headAhead]);
    expect(clockConditions({ ...base, firing, now: base.startedAt + 600_001 })).toEqual([]);
    expect(clockConditions(base)).toEqual([]);
  });
});
