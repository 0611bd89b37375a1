// ClockWatch against injected wall and monotonic clocks: it sees a step either way (logged, counted and reported
// once per step), follows a forward one, and keeps the daemon's `now` from going back after a backward one.
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { createMetrics } from '../../observability/metrics.js';
import { type ClockStep, createClockWatch } from './clock-watch.js';

function clocks() {
  const c = { wall: 1_700_000_000_000, mono: 5_000 };
  const pass = (ms: number) => {
    c.wall += ms;
    c.mono += ms;
  };
  return { c, pass };
}

function watchOn(c: { wall: number; mono: number }) {
  const logs = captureLogs();
  const metrics = createMetrics();
  const steps: ClockStep[] = [];
  const watch = createClockWatch({
    wall: () => c.wall,
    monotonic: () => c.mono,
    log: logs.logger,
    metrics,
    onStep: (s) => steps.push(s),
  });
  const counted = async (direction: string) =>
    (await metrics.clockSteps.get()).values.find((v) => v.labels.direction === direction)?.value;
  return { watch, logs, steps, counted };
}

describe('ClockWatch', () => {
  it('follows the wall clock while it keeps time, and sees no step in drift below the tolerance', async () => {
    const { c, pass } = clocks();
    const w = watchOn(c);
    for (let i = 0; i < 100; i++) {
      pass(1_000);
      c.wall += 10; // 1 % fast: a slewing clock, not a step
      expect(w.watch.now()).toBe(c.wall);
    }
    expect(w.steps).toEqual([]);
    expect(await w.counted('forward')).toBe(0);
  });

  it('after a backward step `now` stays in whole milliseconds, as Date.now: the PostgreSQL state stores it in bigint columns', () => {
    // performance.now() has fractions of a millisecond; a held `now` built from it must not carry them.
    const c = { wall: 1_700_000_000_000, mono: 5_000.123 };
    const w = watchOn(c);
    c.wall += 1_000;
    c.mono += 1_000.456;
    w.watch.now();

    c.wall -= 3_600_000;
    c.mono += 2_000.789;
    const after = w.watch.now();
    c.wall += 500;
    c.mono += 500.333;
    const later = w.watch.now();

    expect(Number.isInteger(after)).toBe(true);
    expect(Number.isInteger(later)).toBe(true);
    expect(Number.isInteger(w.steps[0]?.atMs)).toBe(true);
    expect(later).toBeGreaterThanOrEqual(after + 500);
  });

  it('a backward step: logged and counted once, and `now` runs on from where it was', async () => {
    const { c, pass } = clocks();
    const w = watchOn(c);
    pass(1_000);
    const before = w.watch.now();

    c.wall -= 3_600_000; // the wall clock steps back an hour
    pass(2_000);
    const after = w.watch.now();
    pass(2_000);
    const later = w.watch.now();

    expect(after).toBe(before + 2_000);
    expect(later).toBe(before + 4_000);
    expect(w.steps).toEqual([{ atMs: after, stepMs: -3_600_000, heldMs: 3_600_000 }]);
    expect(await w.counted('backward')).toBe(1);
    expect(w.logs.text().match(/wall clock jumped backward/g) ?? []).toHaveLength(1);

    c.wall += 3_600_000; // and forward again: the wall clock has caught up, `now` follows it
    pass(1_000);
    expect(w.watch.now()).toBe(c.wall);
    expect(w.steps.at(-1)).toMatchObject({ stepMs: 3_600_000, heldMs: 0 });
    expect(await w.counted('forward')).toBe(1);
  });

  it('a forward step is followed at once', () => {
    const { c, pass } = clocks();
    const w = watchOn(c);
    pass(1_000);
    c.wall += 3_600_000;
    expect(w.watch.now()).toBe(c.wall);
    expect(w.steps).toEqual([{ atMs: c.wall, stepMs: 3_600_000, heldMs: 0 }]);
  });

  it('a monotonic clock that goes back (faked with the wall clock) counts as no time passed', () => {
    const { c, pass } = clocks();
    const w = watchOn(c);
    pass(1_000);
    const before = w.watch.now();
    c.wall -= 60_000;
    c.mono -= 60_000;
    expect(w.watch.now()).toBe(before);
    pass(500);
    expect(w.watch.now()).toBe(before + 500);
  });
});
