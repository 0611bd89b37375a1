// The delivery worker: runs delivery passes (delivery-pass.ts) until stopped, sleeping until the next retry or
// group is due, or until poke() says new rows were committed. After a crash the pending rows are simply due
// again: nothing undelivered is lost, nothing recorded as sent is repeated.
//
// Channels are worked in lanes (delivery-pass.ts): a pass is synchronous up to the sends, starts a lane for each
// channel with ready groups and none running, and never waits for a lane. A channel with a lane running is left
// out of every other pass, so no row is read as due by two passes and sent twice, and a paused or slow channel
// never delays another. drain() is the graceful stop: no new work is claimed, sends on the wire finish, final flush
// passes send what is pending, all within a grace period; only a send still on the wire when the grace is spent
// is aborted (its row stays pending for the next start). stop() is the hard stop: it aborts at once.
import { linkSignal } from '../ledger/linked-signal.js';
import { waitForAbort } from '../ledger/wait-for-abort.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Channel } from './channels.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './deliver.js';
import { deliveryPass, groupWait, heldChannels, type PassSignals } from './delivery-pass.js';
import type { PassContext } from './pass-context.js';
import { nextGroupReadyAt } from './group.js';
import type { Outbox } from './outbox.js';
import { nextResendAt } from './resend.js';
import { createPauseBoard, type PauseBoard } from './pause-board.js';
import { createLaneBackoff } from './lane-backoff.js';
import type { Silence } from '../notifiers/schema.js';
import type { Suppression } from './suppression.js';
import type { RouteMutes } from './route-mute.js';

export interface DeliveryWorkerOptions {
  readonly outbox: Outbox;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly silences?: readonly Silence[];
  /** API silences, inhibition rules and acks (suppression.ts). */
  readonly suppression?: Pick<Suppression, 'begin'>;
  /** Routes' mute windows (route-mute.ts), read at every due row. */
  readonly mutes?: RouteMutes;
  readonly retry?: Partial<Omit<RetryPolicy, 'deadlineMs'>>;
  readonly now: () => number;
  /** Resolves after ms, or early (resolve or reject) when the signal aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random: () => number;
  readonly logger: Logger;
  readonly metrics: Pick<
    Metrics,
    'notifications' | 'deliveryLatency' | 'deadLetters' | 'outboxDepth' | 'notificationResends'
  >;
  /** Longest idle sleep between outbox scans (new rows also wake the worker through poke()). */
  readonly idleMs?: number;
  /** Channels paused by a Retry-After; pass the app's board so a reload keeps it. */
  readonly pauses?: PauseBoard;
  /** A signal aborting after ms (default AbortSignal.timeout): the bound of one send. */
  readonly timeout?: (ms: number) => AbortSignal;
  /**
   * Resolves when the state store has every write so far (StateStore.durable); rejects when this replica was
   * fenced. Awaited before a send and after recording it (PostgreSQL backend; SQLite resolves at once).
   */
  readonly durable?: () => Promise<void>;
}

export interface DrainOptions {
  /** Send what is pending after the sends in flight (default true); false leaves it for the next worker. */
  readonly flush?: boolean;
}

export interface DeliveryWorker {
  /**
   * One pass: sends every ready group of the channels with no lane running, once. Resolves, when those sends have
   * ended, with the number of groups attempted.
   */
  runOnce(options?: { readonly ignoreGroupWait?: boolean }): Promise<number>;
  /** Runs passes until drain() or stop(); the returned promise settles when the loop has ended. */
  start(): Promise<void>;
  /** New rows were committed: wake up now instead of at the next scan. */
  poke(): void;
  /**
   * Sends what is pending now, waiting groups included, for at most graceMs: runs passes, and after each waits for
   * a lane to end, until no lane runs and no group is ready. A send of flush's own still on the wire at the
   * deadline is aborted and stays pending.
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
  /** When the last pass ran (for /readyz: a worker that stops passing is stuck). */
  lastPassAt(): number | undefined;
}

/** What the worker's methods share: the pass context (with its lanes) and the worker's three signals. */
interface WorkerState {
  readonly ctx: PassContext;
  readonly options: DeliveryWorkerOptions;
  /** Aborted by poke() or a lane's end: cuts the loop's sleep short. Renewed before every pass. */
  wake: AbortController;
  /** drain() or stop(): claim no new work. */
  readonly closing: AbortController;
  /** stop(), or drain() past its grace: abort the sends in flight. */
  readonly aborter: AbortController;
  readonly loopSignals: PassSignals;
  loop: Promise<void> | undefined;
  lastPassAt: number | undefined;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const w = createWorkerState(options);
  const { ctx, closing, aborter } = w;

  async function stop(): Promise<void> {
    closing.abort();
    aborter.abort();
    await w.loop;
    await lanesIdle(ctx);
  }

  return {
    async runOnce(runOptions) {
      const result = pass(w, runOptions?.ignoreGroupWait ?? false, w.loopSignals);
      await result.done;
      return result.attempted;
    },
    start: () => (w.loop ??= run(w)),
    poke: () => w.wake.abort(),
    flush: (graceMs) =>
      withDeadline(graceMs, options.sleep, async (deadline) => {
        // Linked, not AbortSignal.any: flush may be called many times on the worker's long-lived signals.
        const abort = linkSignal([deadline, aborter.signal]);
        const claim = linkSignal([abort.signal, closing.signal]);
        try {
          await flushPasses(w, { claim: claim.signal, abort: abort.signal });
        } finally {
          claim.dispose();
          abort.dispose();
        }
      }),
    async drain(graceMs, drainOptions = {}) {
      closing.abort();
      try {
        await withDeadline(graceMs, options.sleep, async (deadline) => {
          deadline.addEventListener('abort', () => aborter.abort(), { once: true });
          await lanesIdle(ctx);
          if (drainOptions.flush ?? true)
            await flushPasses(w, { claim: aborter.signal, abort: aborter.signal });
        });
      } finally {
        await stop();
      }
    },
    stop,
    lastPassAt: () => w.lastPassAt,
  };
}

function createWorkerState(options: DeliveryWorkerOptions): WorkerState {
  const closing = new AbortController();
  const aborter = new AbortController();
  const log = options.logger.child({ component: 'delivery' });
  const w: WorkerState = {
    ctx: {
      ...options,
      silences: options.silences ?? [],
      policy: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      log,
      pauses: options.pauses ?? createPauseBoard(),
      backoff: createLaneBackoff(log),
      lanes: new Map(),
      laneEnded: () => w.wake.abort(),
      resentAt: new Map(),
    },
    options,
    wake: new AbortController(),
    closing,
    aborter,
    // Linked once for the worker's lifetime (its parents live exactly as long), so never disposed.
    loopSignals: { claim: linkSignal([closing.signal, aborter.signal]).signal, abort: aborter.signal },
    loop: undefined,
    lastPassAt: undefined,
  };
  closing.signal.addEventListener('abort', () => w.wake.abort(), { once: true });
  return w;
}

function pass(w: WorkerState, ignoreGroupWait: boolean, signals: PassSignals) {
  w.lastPassAt = w.options.now();
  return deliveryPass(w.ctx, ignoreGroupWait, signals);
}

async function run(w: WorkerState): Promise<void> {
  const { closing, options } = w;
  while (!closing.signal.aborted) {
    // A fresh wake-up before the pass, so a poke() or a lane's end during the pass cuts the next sleep short.
    // closing aborts the current wake (createWorkerState): no signal linked to closing.signal per pass, so
    // nothing accumulates on it (ledger/linked-signal.ts).
    w.wake = new AbortController();
    const woken = w.wake.signal;
    const idleMs = options.idleMs ?? 5000;
    let waitMs = idleMs;
    try {
      pass(w, false, w.loopSignals);
      waitMs = nextWakeIn(w.ctx, idleMs);
    } catch (err) {
      // A failing store is not retried in a tight loop: the next try is after the idle wait.
      w.ctx.log.error({ err }, 'delivery pass failed');
    }
    if (closing.signal.aborted) break;
    await options.sleep(waitMs, woken).catch(() => undefined);
    // Every pass lets timers and I/O run first (/healthz, signals, the lease), however soon the next is due.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Passes until no lane runs and no group is ready, or the claim is withdrawn. */
async function flushPasses(w: WorkerState, signals: PassSignals): Promise<void> {
  while (!signals.claim.aborted) {
    const { attempted } = pass(w, true, signals);
    if (attempted === 0 && w.ctx.lanes.size === 0) break;
    await Promise.race([...w.ctx.lanes.values(), waitForAbort(signals.claim)]);
  }
}

/** Settles when no lane runs (lanes started meanwhile included). */
async function lanesIdle(ctx: PassContext): Promise<void> {
  while (ctx.lanes.size > 0) await Promise.all(ctx.lanes.values());
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

/**
 * Milliseconds until the next retry, waiting group or pause end is due, at most idleMs. Rows of channels with a
 * lane running do not count (that lane's end wakes the worker), nor do those of paused channels (their pause end
 * does).
 */
function nextWakeIn(ctx: PassContext, idleMs: number): number {
  const now = ctx.now();
  const pending = ctx.outbox.due(now, 500, heldChannels(ctx, now));
  if (pending.some((row) => row.attempts > 0)) return 0;
  const groupAt = nextGroupReadyAt(pending, groupWait(ctx, false));
  const pauseEnds = ctx.pauses.list().map((p) => p.until);
  const backoffEnds = [...(ctx.backoff?.held(now).values() ?? [])];
  const candidates = [
    groupAt,
    ctx.outbox.nextDueAt(now),
    nextResendAt(ctx, now),
    ...pauseEnds,
    ...backoffEnds,
  ].filter((t): t is number => t !== undefined && t > now);
  return Math.max(0, Math.min(idleMs, ...candidates.map((t) => t - now)));
}
