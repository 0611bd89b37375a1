// The throttle comparison, at its edges: equal times, exactly the throttle, one nanosecond short, a clock stepped
// back, records out of order.
import { describe, expect, it } from 'vitest';
import { newGroupState, type GroupState } from '../alert-state/group-state.js';
import { throttleDue, throttlePassed } from './throttle.js';

const MIN = 60_000_000_000n;
const T0 = 1_700_000_000_000_000_000n;

function sentAt(lastSentNs: bigint | undefined, lateSentNs?: bigint): GroupState {
  const s = newGroupState('r{account="0.0.1"}', 'r', { account: '0.0.1' });
  s.lastSentNs = lastSentNs;
  s.lateSentNs = lateSentNs;
  return s;
}

describe('throttlePassed', () => {
  it('has passed when nothing was sent yet', () => {
    expect(throttlePassed(undefined, T0, 10n * MIN)).toBe(true);
  });

  it('has passed exactly one throttle after the last send, not a nanosecond before', () => {
    expect(throttlePassed(T0, T0 + MIN, MIN)).toBe(true);
    expect(throttlePassed(T0, T0 + MIN - 1n, MIN)).toBe(false);
  });

  it('at the same time as the last send: only a zero throttle has passed', () => {
    expect(throttlePassed(T0, T0, MIN)).toBe(false);
    expect(throttlePassed(T0, T0, 0n)).toBe(true);
  });

  it('has not passed when the clock stepped back before the last send, however far', () => {
    expect(throttlePassed(T0, T0 - 1n, MIN)).toBe(false);
    expect(throttlePassed(T0, T0 - 1000n * MIN, MIN)).toBe(false);
    expect(throttlePassed(T0, T0 - 1n, 0n)).toBe(false);
  });
});

describe('throttleDue', () => {
  it('is due when nothing was sent yet, and notes no late send', () => {
    const s = sentAt(undefined);

    expect(throttleDue(s, T0, MIN)).toBe(true);
    expect(s.lateSentNs).toBeUndefined();
  });

  it('a record at the time of the last send is not due (a zero throttle is)', () => {
    expect(throttleDue(sentAt(T0), T0, MIN)).toBe(false);
    expect(throttleDue(sentAt(T0), T0, 0n)).toBe(true);
  });

  it('a newer record is due from exactly one throttle on', () => {
    expect(throttleDue(sentAt(T0), T0 + MIN - 1n, MIN)).toBe(false);
    expect(throttleDue(sentAt(T0), T0 + MIN, MIN)).toBe(true);
  });

  it('an older record is throttled by its distance, not dropped for being before, and is noted as a late send', () => {
    const near = sentAt(T0);
    expect(throttleDue(near, T0 - MIN + 1n, MIN)).toBe(false);
    expect(near.lateSentNs).toBeUndefined();

    const far = sentAt(T0);
    expect(throttleDue(far, T0 - MIN, MIN)).toBe(true);
    expect(far.lateSentNs).toBe(T0 - MIN);
  });

  it('a later late record is throttled against the late send too', () => {
    const s = sentAt(T0, T0 - 2n * MIN);

    expect(throttleDue(s, T0 - 2n * MIN - MIN + 1n, MIN)).toBe(false);
    expect(throttleDue(s, T0 - 2n * MIN + MIN - 1n, MIN)).toBe(false);
    expect(throttleDue(s, T0 - 3n * MIN, MIN)).toBe(true);
    expect(s.lateSentNs).toBe(T0 - 3n * MIN);
  });

  it('a newer record due after the last send keeps the late send as it was', () => {
    const s = sentAt(T0, T0 - 5n * MIN);

    expect(throttleDue(s, T0 + MIN, MIN)).toBe(true);
    expect(s.lateSentNs).toBe(T0 - 5n * MIN);
  });
});
