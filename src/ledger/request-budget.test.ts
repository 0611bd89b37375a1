import { describe, expect, it } from 'vitest';
import { createRequestBudget } from './request-budget.js';

/** A clock the test moves, and a sleep that advances it and records every requested delay. */
function manualTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    clock: () => now,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      await Promise.resolve();
      now += ms;
    },
  };
}

describe('createRequestBudget', () => {
  it('lets a burst through, then spaces requests at the configured rate', async () => {
    const time = manualTime();
    const budget = createRequestBudget({ requestsPerSecond: 10, burst: 2, ...time });

    const waits = await Promise.all([1, 2, 3, 4].map(() => budget.acquire()));

    expect(waits).toEqual([0, 0, 100, 200]);
    expect(time.sleeps).toEqual([100, 100]);
  });

  it('serves higher priorities first when the budget is short', async () => {
    const time = manualTime();
    const budget = createRequestBudget({ requestsPerSecond: 1, burst: 1, ...time });
    await budget.acquire();
    const order: string[] = [];

    await Promise.all([
      budget.acquire({ priority: 0 }).then(() => order.push('low-1')),
      budget.acquire({ priority: 0 }).then(() => order.push('low-2')),
      budget.acquire({ priority: 10 }).then(() => order.push('high')),
      budget.acquire({ priority: 5 }).then(() => order.push('mid')),
    ]);

    expect(order).toEqual(['high', 'mid', 'low-1', 'low-2']);
  });

  it('is shared: two callers together get no more than the rate', async () => {
    const time = manualTime();
    const budget = createRequestBudget({ requestsPerSecond: 50, burst: 1, ...time });
    const granted: number[] = [];
    const caller = async () => {
      for (let i = 0; i < 5; i++) {
        await budget.acquire();
        granted.push(time.clock());
      }
    };

    await Promise.all([caller(), caller()]);

    expect(granted).toHaveLength(10);
    expect(granted[9]).toBe(9 * 20);
  });

  it('rejects an aborted waiter and still serves the rest', async () => {
    const time = manualTime();
    const budget = createRequestBudget({ requestsPerSecond: 1, burst: 1, ...time });
    await budget.acquire();
    const controller = new AbortController();

    const aborted = budget.acquire({ signal: controller.signal });
    const other = budget.acquire();
    controller.abort(new Error('stop'));

    await expect(aborted).rejects.toThrow('stop');
    await expect(other).resolves.toBe(1000);
    expect(budget.pending).toBe(0);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const budget = createRequestBudget();

    const result = budget.acquire({ signal: AbortSignal.abort(new Error('gone')) });

    await expect(result).rejects.toThrow('gone');
  });

  it('refuses a zero rate', () => {
    expect(() => createRequestBudget({ requestsPerSecond: 0 })).toThrow('above 0');
  });
});
