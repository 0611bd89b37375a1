// The delivery worker: runs delivery passes (delivery-pass.ts) until stopped, sleeping until the next retry or
// group is due, or until poke() says new rows were committed. After a crash the pending rows are simply due
// again: nothing undelivered is lost, nothing recorded as sent is repeated.
//
// Passes never overlap: the loop's, runOnce()'s and flush()'s each wait for the one before, so no row is read as
// due by two passes and sent twice. drain() is the graceful stop: no new work is claimed, sends on the wire finish,
// final flush passes send what is pending, all within a grace period; only a send still on the wire when the grace
// is spent is aborted (its row stays pending for the next start). stop() is the hard stop: it aborts at once.
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Channel } from './channels.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './deliver.js';
import { deliveryPass, groupWait, type PassContext, type PassSignals } from './delivery-pass.js';
import { nextGroupReadyAt } from './group.js';
import type { Outbox } from './outbox.js';
import type { Silence } from './schema.js';

export interface DeliveryWorkerOptions {
  readonly outbox: Outbox;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly silences?: readonly Silence[];
  readonly retry?: Partial<Omit<RetryPolicy, 'deadlineMs'>>;
  readonly now: () => number;
  /** Resolves after ms, or early (resolve or reject) when the signal aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random: () => number;
  readonly logger: Logger;
  readonly metrics: Pick<Metrics, 'notifications' | 'deliveryLatency' | 'deadLetters' | 'outboxDepth'>;
  /** Longest idle sleep between outbox scans (new rows also wake the worker through poke()). */
  readonly idleMs?: number;
}

export interface DrainOptions {
  /** Send what is pending after the sends in flight (default true); false leaves it for the next worker. */
  readonly flush?: boolean;
}

export interface DeliveryWorker {
  /** One pass, after any running pass: sends every ready group once. Resolves with the number of groups attempted. */
  runOnce(options?: { readonly ignoreGroupWait?: boolean }): Promise<number>;
  /** Runs passes until drain() or stop(); the returned promise settles when the loop has ended. */
  start(): Promise<void>;
  /** New rows were committed: wake up now instead of at the next scan. */
  poke(): void;
  /**
   * Sends what is pending now, waiting groups included, for at most graceMs: waits for a running pass to end,
   * then runs its own passes (never beside another) until no group is ready. A send of flush's own still on the
   * wire at the deadline is aborted and stays pending.
   */
  flush(graceMs: number): Promise<void>;
  /**
   * Graceful stop within graceMs (Infinity: no deadline; sends are still bounded by their notifier's timeout):
   * claims no new work, lets the sends in flight finish, runs flush passes until no due row is left, then stops.
   * A send still on the wire when graceMs is spent is aborted; its row stays pending and goes out after the next
   * start (the receiver may then see it twice: idempotency keys and Message-IDs make that recognisable).
   */
  drain(graceMs: number, options?: DrainOptions): Promise<void>;
  /** Hard stop: aborts the sends in flight (they stay pending and are sent again) and ends the loop. */
  stop(): Promise<void>;
}

// Longer than 60 lines on purpose: the methods share the worker's three signals and its pass queue.
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const ctx: PassContext = {
    ...options,
    silences: options.silences ?? [],
    policy: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    log: options.logger.child({ component: 'delivery' }),
  };
  const closing = new AbortController(); // drain() or stop(): claim no new work
  const aborter = new AbortController(); // stop(), or drain() past its grace: abort the sends in flight
  const loopSignals = { claim: AbortSignal.any([closing.signal, aborter.signal]), abort: aborter.signal };
  const passes = passQueue(ctx);
  let wake = new AbortController();
  let loop: Promise<void> | undefined;

  async function run(): Promise<void> {
    while (!closing.signal.aborted) {
      // A fresh wake-up before the pass, so a poke() during the pass cuts the following sleep short.
      wake = new AbortController();
      const woken = AbortSignal.any([closing.signal, wake.signal]);
      await passes.run(false, loopSignals).catch((err: unknown) => {
        ctx.log.error({ err }, 'delivery pass failed');
      });
      if (closing.signal.aborted) break;
      await options.sleep(nextWakeIn(ctx, options.idleMs ?? 5000), woken).catch(() => undefined);
    }
  }

  /** Flush passes until no group is ready or the claim is withdrawn. */
  async function flushPasses(signals: PassSignals): Promise<void> {
    while ((await passes.run(true, signals)) > 0 && !signals.claim.aborted);
  }

  async function stop(): Promise<void> {
    closing.abort();
    aborter.abort();
    await loop;
    await passes.idle();
  }

  return {
    runOnce: (pass) => passes.run(pass?.ignoreGroupWait ?? false, loopSignals),
    start: () => (loop ??= run()),
    poke: () => wake.abort(),
    flush: (graceMs) =>
      withDeadline(graceMs, options.sleep, async (deadline) => {
        const abort = AbortSignal.any([deadline, aborter.signal]);
        const claim = AbortSignal.any([abort, closing.signal]);
        // Bounded even while queued behind the loop's pass: that pass goes on; this one then does nothing.
        await Promise.race([flushPasses({ claim, abort }), aborted(claim)]);
      }),
    async drain(graceMs, drainOptions = {}) {
      closing.abort();
      try {
        await withDeadline(graceMs, options.sleep, async (deadline) => {
          deadline.addEventListener('abort', () => aborter.abort(), { once: true });
          await passes.idle();
          if (drainOptions.flush ?? true) await flushPasses({ claim: aborter.signal, abort: aborter.signal });
        });
      } finally {
        await stop();
      }
    },
    stop,
  };
}

/** Runs passes one at a time, each once the one before has settled. */
function passQueue(ctx: PassContext) {
  let last: Promise<unknown> = Promise.resolve();
  return {
    run(ignoreGroupWait: boolean, signals: PassSignals): Promise<number> {
      const pass = last.then(() => deliveryPass(ctx, ignoreGroupWait, signals));
      last = pass.catch(() => undefined);
      return pass;
    },
    /** Settles when every pass queued so far has. */
    idle: () => last.then(() => undefined),
  };
}

/** Runs fn with a signal that aborts after graceMs (never for Infinity); the timer ends with fn. */
async function withDeadline(
  graceMs: number,
  sleep: DeliveryWorkerOptions['sleep'],
  fn: (deadline: AbortSignal) => Promise<void>,
): Promise<void> {
  const deadline = new AbortController();
  const done = new AbortController();
  const timer = Number.isFinite(graceMs)
    ? sleep(Math.max(0, graceMs), done.signal).then(
        () => {
          if (!done.signal.aborted) deadline.abort();
        },
        () => undefined,
      )
    : undefined;
  try {
    await fn(deadline.signal);
  } finally {
    done.abort();
    await timer;
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Milliseconds until the next retry or waiting group is due, at most idleMs. */
function nextWakeIn(ctx: PassContext, idleMs: number): number {
  const now = ctx.now();
  const pending = ctx.outbox.due(now);
  const groupAt = nextGroupReadyAt(pending, groupWait(ctx, false));
  const dueAt = pending.length > 0 && groupAt === undefined ? now : ctx.outbox.nextDueAt();
  const candidates = [groupAt, dueAt].filter((t): t is number => t !== undefined && t > now);
  return Math.min(idleMs, ...candidates.map((t) => t - now));
}
