// Runs the tailer's polls: each on its own, within `concurrency` slots kept across rounds, at most one per
// stream at a time, with the per-stream backoff, the failure log line and metric, and a hard stop. A round
// launches polls here and may stop waiting for them; what they add up to is collected until the next report.
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { linkSignal } from '../../ledger/linked-signal.js';
import type { PollResult } from '../poll/poll-result.js';
import type { Backoff } from './backoff.js';
import { createPollSlots } from './poll-slots.js';
import type { TailMetrics } from '../tail-metrics.js';

export interface PollTally {
  pages: number;
  delivered: number;
  dropped: number;
  failed: number;
}

export interface PollRunnerOptions {
  readonly concurrency: number;
  /** A poll still running after this long is stopped outright and counts as failed (tail.max_poll_duration × 2). */
  readonly hardStopMs: number;
  readonly backoff: Backoff;
  /** The stream kind for the failure metric: transactions, rewards or global. */
  readonly kind: (key: string) => string;
  readonly clock: () => number;
  readonly metrics?: TailMetrics;
  readonly log?: Logger;
}

export interface PollRunner {
  busy(key: string): boolean;
  /** Resolves when the poll of `key` in flight has settled (at once when none is). */
  done(key: string): Promise<void>;
  /** Starts a poll of `key` (the caller checks busy first); resolves when it has settled. */
  launch(key: string, poll: (signal: AbortSignal) => Promise<PollResult>, round: AbortSignal): Promise<void>;
  /** Stops every poll in flight, quietly (no failure, no backoff), and waits for them. */
  stopAll(reason: string): Promise<void>;
  /** Resolves once no poll is in flight. */
  settled(): Promise<void>;
  /** What the polls settled since the last call added up to. */
  takeTally(): PollTally;
}

interface Running {
  readonly done: Promise<void>;
  readonly stop: AbortController;
}

export function createPollRunner(options: PollRunnerOptions): PollRunner {
  const slots = createPollSlots(options.concurrency);
  const inFlight = new Map<string, Running>();
  let tally: PollTally = { pages: 0, delivered: 0, dropped: 0, failed: 0 };

  function launch(key: string, poll: (signal: AbortSignal) => Promise<PollResult>, round: AbortSignal) {
    // stop is the poll's own signal, also aborted by the round's; unlinked once the poll settles.
    const stop = new AbortController();
    const link = linkSignal([round], stop);
    const signal = stop.signal;
    setMaxListeners(20, signal);
    // The clock starts when the poll gets its slot, not while it queues for one.
    const run = () =>
      withHardStop(key, options.hardStopMs, stop, (hardStop) => runPoll(key, poll, signal, hardStop));
    const done = slots.run(run).finally(() => {
      link.dispose();
      inFlight.delete(key);
    });
    inFlight.set(key, { done, stop });
    return done;
  }

  async function runPoll(
    key: string,
    poll: (signal: AbortSignal) => Promise<PollResult>,
    signal: AbortSignal,
    hardStop: () => Error | undefined,
  ): Promise<void> {
    if (signal.aborted) return;
    try {
      const r = await poll(signal);
      tally.pages += r.pages;
      tally.delivered += r.delivered;
      tally.dropped += r.dropped;
      options.backoff.succeeded(key);
    } catch (err) {
      // Stopped by shutdown or a strategy switch: not the stream's fault.
      if (signal.aborted && hardStop() === undefined) return;
      tally.failed += 1;
      options.metrics?.pollFailures.inc({ stream: options.kind(key) });
      const waitMs = options.backoff.failed(key, options.clock());
      options.log?.warn({ err: hardStop() ?? err, stream: key, waitMs }, 'poll failed');
    }
  }

  async function settled(): Promise<void> {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()].map((p) => p.done));
  }

  return {
    busy: (key) => inFlight.has(key),
    done: (key) => inFlight.get(key)?.done ?? Promise.resolve(),
    launch,
    async stopAll(reason) {
      for (const running of inFlight.values()) running.stop.abort(new Error(reason));
      await settled();
    },
    settled,
    takeTally() {
      const taken = tally;
      tally = { pages: 0, delivered: 0, dropped: 0, failed: 0 };
      return taken;
    },
  };
}

/** Runs `fn` with a timer that aborts `stop` after `ms`; `fn` can tell whether it was that timer that stopped it. */
async function withHardStop(
  key: string,
  ms: number,
  stop: AbortController,
  fn: (hardStop: () => Error | undefined) => Promise<void>,
): Promise<void> {
  let hardStop: Error | undefined;
  const timer = setTimeout(() => {
    hardStop = new Error(
      `poll of ${key} still running after ${ms} ms (twice tail.max_poll_duration); stopped, its handed-over pages kept`,
    );
    stop.abort(hardStop);
  }, ms);
  timer.unref();
  try {
    await fn(() => hardStop);
  } finally {
    clearTimeout(timer);
  }
}
