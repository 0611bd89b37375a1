// The tailer: polls the watch list in rounds, per account or through the global tail, within bounded
// concurrency, and stops cleanly on an AbortSignal. Every request goes through the TailSource, i.e. the
// client's shared budget. Streams are independent: a round waits for its polls at most one poll_interval,
// and a poll still running then carries on (or fails) on its own while later rounds poll every other stream;
// a stream with a poll in flight is skipped, so there are never two polls of the same stream at once.
import { runRounds } from './loop/run-rounds.js';
import { staleness, streamStaleness } from './loop/stream-staleness.js';
import { tailRound } from './loop/round.js';
import { createTailerState } from './loop/tailer-state.js';
import type { Tailer, TailerOptions } from './tailer-types.js';

// The tailer's state is one structure (loop/tailer-state.ts); each step is a function that takes it. The
// per-stream work itself lives in per-account/poll-account-stream.ts and global/global-tail.ts.
export function createTailer(options: TailerOptions): Tailer {
  const t = createTailerState(options);
  const { config } = t;
  return {
    round: (signal) => tailRound(t, signal),
    settled: t.polls.settled,
    run: (signal) =>
      runRounds(
        {
          round: (s) => tailRound(t, s),
          settled: t.polls.settled,
          pollIntervalMs: config.poll_interval,
          jitter: config.jitter,
          clock: t.monotonic,
          random: t.random,
          sleep: t.sleep,
          ...(t.log ? { log: t.log } : {}),
        },
        signal,
      ),
    strategy: () => t.current,
    staleness: () => staleness(t),
    streamStaleness: () => streamStaleness(t),
    head: t.ctx.head,
    future: t.ctx.future,
    capacity: t.capacity.current,
  };
}
