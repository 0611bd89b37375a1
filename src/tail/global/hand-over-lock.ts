// One page at a time through the global tail's dedup check and hand-over. The head read and the sweep run as
// separate polls (loop/round.ts) and may read the same rows at once; a page's check (above `safe`, not in
// tail_seen) and the commit that marks its rows seen must not interleave with the other reader's, or both would
// hand the same row over. The sweep's move of `safe` (with the prune of tail_seen) takes the lock too.
// Head-read pages go ahead of waiting sweep pages: the sweep never delays an alert by more than one page.

export interface HandOverLock {
  /** Runs `fn` alone; `urgent` waiters go before the others. Rejects if `signal` aborts while waiting. */
  hold<T>(urgent: boolean, signal: AbortSignal, fn: () => Promise<T> | T): Promise<T>;
}

export function createHandOverLock(): HandOverLock {
  const urgentQueue: (() => void)[] = [];
  const queue: (() => void)[] = [];
  let held = false;

  function release(): void {
    const next = urgentQueue.shift() ?? queue.shift();
    if (next) next();
    else held = false;
  }

  function acquire(urgent: boolean, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (!held) {
      held = true;
      return Promise.resolve();
    }
    const list = urgent ? urgentQueue : queue;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = list.indexOf(waiter);
        if (at >= 0) list.splice(at, 1);
        reject(signal.reason);
      };
      // The lock passes straight to the waiter, so `held` stays true in between.
      const waiter = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      list.push(waiter);
    });
  }

  return {
    async hold(urgent, signal, fn) {
      await acquire(urgent, signal);
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
