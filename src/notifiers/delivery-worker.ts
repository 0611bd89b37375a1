// The delivery worker: runs delivery passes (delivery-pass.ts) until stopped, sleeping until the next retry or
// group is due, or until poke() says new rows were committed. After a crash the pending rows are simply due
// again: nothing undelivered is lost, nothing recorded as sent is repeated.
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Channel } from './channels.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './deliver.js';
import { deliveryPass, groupWait, type PassContext } from './delivery-pass.js';
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

export interface DeliveryWorker {
  /** One pass: sends every ready group once. Resolves with the number of groups attempted. */
  runOnce(options?: { readonly ignoreGroupWait?: boolean }): Promise<number>;
  /** Runs passes until stop(); the returned promise settles when the loop has ended. */
  start(): Promise<void>;
  /** New rows were committed: wake up now instead of at the next scan. */
  poke(): void;
  /** Sends what is pending now, waiting groups included, for at most graceMs (shutdown). */
  flush(graceMs: number): Promise<void>;
  /** Aborts in-flight sends (they stay pending) and ends the loop. */
  stop(): Promise<void>;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const ctx: PassContext = {
    ...options,
    silences: options.silences ?? [],
    policy: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    log: options.logger.child({ component: 'delivery' }),
  };
  const stopper = new AbortController();
  let wake = new AbortController();
  let loop: Promise<void> | undefined;

  async function run(): Promise<void> {
    while (!stopper.signal.aborted) {
      try {
        await deliveryPass(ctx, false, stopper.signal);
      } catch (err) {
        ctx.log.error({ err }, 'delivery pass failed');
      }
      if (stopper.signal.aborted) break;
      wake = new AbortController();
      const signal = AbortSignal.any([stopper.signal, wake.signal]);
      await options.sleep(nextWakeIn(ctx, options.idleMs ?? 5000), signal).catch(() => undefined);
    }
  }

  return {
    runOnce: (pass) => deliveryPass(ctx, pass?.ignoreGroupWait ?? false, stopper.signal),
    start: () => (loop ??= run()),
    poke: () => wake.abort(),
    async flush(graceMs) {
      const grace = new AbortController();
      const signal = AbortSignal.any([grace.signal, stopper.signal]);
      const timer = options.sleep(graceMs, signal).then(
        () => grace.abort(),
        () => undefined,
      );
      while (!signal.aborted && (await deliveryPass(ctx, true, signal)) > 0);
      grace.abort();
      await timer;
    },
    async stop() {
      stopper.abort();
      await loop;
    },
  };
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
