import { describe, expect, it } from 'vitest';
import { createPacers } from './pacer.js';
import { manualTimers } from '../../test/helpers/manual-timers.js';

function setup(intervalMs = 1000) {
  const time = { now: 1_000_000 };
  const timers = manualTimers();
  const pacer = createPacers({ now: () => time.now, sleep: timers.sleep }).pacer('receiver', intervalMs);
  const signal = new AbortController().signal;
  const wait = () =>
    pacer.wait(signal).then(
      () => 'go',
      (e: unknown) => e,
    );
  return { time, timers, pacer, wait };
}

describe('pacer', () => {
  it('never holds a caller longer than one interval: a later slot is deferred, not slept through', async () => {
    const { timers, wait } = setup();

    const first = await wait();
    const second = wait();
    await timers.waitForSleep(1000);
    const third = await wait();
    timers.fire(1000);

    expect(first).toBe('go');
    expect(await second).toBe('go');
    expect(third).toMatchObject({ deferred: true, reason: 'paced', retryAfterMs: 2000 });
  });

  it('defers every caller during a Retry-After pause, naming what the receiver asked, then lets them go', async () => {
    const { time, pacer, wait } = setup();
    pacer.pause(60_000, 3_600_000);

    const during = await wait();
    time.now += 60_000;
    const after = await wait();

    expect(during).toMatchObject({
      deferred: true,
      retryable: true,
      reason: 'paused',
      retryAfterMs: 60_000,
      askedRetryAfterMs: 3_600_000,
    });
    expect(after).toBe('go');
  });

  it('a shorter pause does not cut a longer one short', async () => {
    const { time, pacer, wait } = setup();
    pacer.pause(60_000, 3_600_000);
    pacer.pause(5000);

    time.now += 5000;

    expect(await wait()).toMatchObject({ reason: 'paused', retryAfterMs: 55_000 });
  });
});
