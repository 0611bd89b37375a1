// The tailer the poll loop runs, whose stream list a reload can swap without stopping the loop: the next round
// waits for the polls the old list still has in flight (so a stream is never polled twice at once), then polls
// with the new list. Cursors live in the state store, so unchanged streams carry on from where they were, added
// ones start from tail.start, removed ones are no longer polled. The loop, its schedule and the clients go on.
import type { Tailer } from '../tailer-types.js';

export interface LiveTailer extends Tailer {
  /** Polls with `next` from the next round on. */
  swap(next: Tailer): void;
}

export function createLiveTailer(first: Tailer): LiveTailer {
  let current = first;
  let next: Tailer | undefined;
  async function adopt(): Promise<void> {
    if (!next) return;
    const old = current;
    await old.settled();
    current = next;
    next = undefined;
  }
  return {
    async round(signal) {
      await adopt();
      return current.round(signal);
    },
    async settled() {
      await current.settled();
    },
    // The daemon runs rounds from its own loop (daemon-loop.ts); run() is the plain loop of whatever is current.
    run: (signal) => current.run(signal),
    strategy: () => current.strategy(),
    staleness: () => current.staleness(),
    streamStaleness: () => current.streamStaleness(),
    capacity: () => current.capacity(),
    get head() {
      return current.head;
    },
    get future() {
      return current.future;
    },
    swap(tailer) {
      next = tailer;
    },
  };
}
