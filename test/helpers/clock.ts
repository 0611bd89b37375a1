// A manual clock for deterministic tests: sleep() advances time instead of waiting.
export interface TestClock {
  now(): number;
  advance(ms: number): void;
  /** Records the requested durations and advances the clock by them (aborts resolve at once). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  readonly sleeps: number[];
}

export function testClock(start = Date.UTC(2023, 10, 14, 22, 14, 0)): TestClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    advance: (ms) => void (now += ms),
    sleeps,
    sleep(ms, signal) {
      if (signal?.aborted) return Promise.resolve();
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}
