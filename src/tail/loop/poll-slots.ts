// The tailer's concurrency limit, kept across rounds: a poll still running when its round stopped waiting for
// it (round.ts) keeps its slot, so detached polls never push the number in flight past tail.concurrency.

export interface PollSlots {
  /** Runs `job` when a slot is free (FIFO); resolves when it has settled. Jobs catch their own errors. */
  run(job: () => Promise<void>): Promise<void>;
  readonly busy: number;
}

export function createPollSlots(concurrency: number): PollSlots {
  const waiting: (() => void)[] = [];
  let busy = 0;

  async function run(job: () => Promise<void>): Promise<void> {
    if (busy >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else busy += 1;
    try {
      await job();
    } finally {
      // The slot passes straight to the next waiter, so `busy` never drops below the real count.
      const next = waiting.shift();
      if (next) next();
      else busy -= 1;
    }
  }

  return {
    run,
    get busy() {
      return busy;
    },
  };
}
