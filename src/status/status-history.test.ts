import { describe, expect, it } from 'vitest';
import { createStatusHistory } from './status-history.js';

describe('status history ring', () => {
  it('keeps the newest samples up to its capacity, oldest first, from a given time', () => {
    const history = createStatusHistory(3);
    for (let at = 1; at <= 5; at++) history.record({ at, outbox: at * 10 });

    expect(history.since(0).map((s) => s.at)).toEqual([3, 4, 5]);
    expect(history.since(4).map((s) => s.outbox)).toEqual([40, 50]);
  });
});
