// Ordered replication of the working set's batches into PostgreSQL over one connection. Batches wait in memory
// in commit order; the head of the queue (several batches merged, up to a row budget) is applied in one
// PostgreSQL transaction. A connection failure retries the same batches with backoff (idempotent by key); a
// fencing refusal or a data error stops replication for good and rejects every waiter.
import type { Client } from 'pg';
import type { Logger } from 'pino';
import { applyBatch } from './apply-batch.js';
import { type Batch, batchRows, mergeBatches } from './batch.js';
import { FencedError } from '../fenced-error.js';

export interface ReplicatorOptions {
  readonly connect: () => Promise<Client>;
  readonly fence?: () => bigint | undefined;
  readonly log: Logger;
  /** Rows merged into one PostgreSQL transaction at most (a single larger batch still goes alone). */
  readonly mergeRows?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** Called after each applied PostgreSQL transaction (metrics), with the batches still queued. */
  readonly onApplied?: (batches: number, rows: number, pending: number) => void;
  readonly onRetry?: (pending: number) => void;
}

export interface Replicator {
  push(batch: Batch): void;
  /** Resolves when every batch pushed so far is committed in PostgreSQL. */
  durable(): Promise<void>;
  /** Batches waiting. */
  pending(): number;
  /** Why replication stopped (FencedError or a data error), or undefined. */
  failure(): Error | undefined;
  /** Waits up to graceMs for the queue to drain, then disconnects; returns the batches left unapplied. */
  close(graceMs: number): Promise<number>;
}

/** Queued batches at which a warning is logged (memory: a batch is one step's changed rows). */
const WARN_PENDING = 10_000;

interface Waiter {
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

// Longer than 60 lines on purpose: the methods share the queue, the waiters and the one connection.
export function createReplicator(options: ReplicatorOptions): Replicator {
  const queue: Batch[] = [];
  const waiters: Waiter[] = [];
  const stop = new AbortController();
  const mergeRows = options.mergeRows ?? 5_000;
  const backoff = options.backoff ?? { initialMs: 100, maxMs: 5_000 };
  let pushed = 0;
  let committed = 0;
  let failed: Error | undefined;
  let client: Client | undefined;
  let running: Promise<void> | undefined;

  function settle(): void {
    // In push order, so that waiters resolve in commit order.
    const waiting = waiters.splice(0);
    for (const w of waiting) {
      if (failed) w.reject(failed);
      else if (w.seq <= committed) w.resolve();
      else waiters.push(w);
    }
  }

  function fail(err: Error): void {
    failed = err;
    queue.length = 0;
    settle();
  }

  async function step(attempt: number): Promise<number> {
    let n = 0;
    let rows = 0;
    while (n < queue.length && (n === 0 || rows + batchRows(queue[n]!) <= mergeRows))
      rows += batchRows(queue[n++]!);
    const group = queue.slice(0, n);
    try {
      client ??= await options.connect();
      await applyBatch(client, group.length === 1 ? group[0]! : mergeBatches(group), options.fence);
    } catch (err) {
      if (!(err instanceof Error) || !retryable(err)) throw err;
      const wait = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 16));
      options.log.warn(
        { err, attempt: attempt + 1, retryInMs: wait, pending: queue.length },
        'state replication failed, retrying',
      );
      options.onRetry?.(queue.length);
      disconnect();
      await sleep(wait, stop.signal);
      return attempt + 1;
    }
    queue.splice(0, n);
    committed = group.at(-1)!.seq;
    options.onApplied?.(n, rows, queue.length);
    settle();
    return 0;
  }

  async function run(): Promise<void> {
    let attempt = 0;
    try {
      while (queue.length && !failed && !stop.signal.aborted) attempt = await step(attempt);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      if (error instanceof FencedError)
        options.log.error({ err: error }, 'state write fenced: a newer leader holds the lease');
      else options.log.error({ err: error }, 'state replication stopped');
      fail(error);
    } finally {
      running = undefined;
    }
  }

  function disconnect(): void {
    const c = client;
    client = undefined;
    void c?.end().catch(() => undefined);
    // end() waits for the server's goodbye, which a cut network never sends: the socket goes too, so that a
    // statement in flight fails now instead of at its timeout (a leader that lost its lease stops at once).
    (c as { connection?: { stream?: { destroy(): void } } } | undefined)?.connection?.stream?.destroy();
  }

  return {
    push(batch) {
      if (failed) throw failed;
      batch.seq = ++pushed;
      queue.push(batch);
      // Callers that write in a loop await durable() (the pipeline, the delivery worker), so a long queue means
      // PostgreSQL is unreachable or slow: said once per crossing.
      if (queue.length === WARN_PENDING)
        options.log.warn(
          { pending: queue.length },
          'state replication is behind: transactions wait for PostgreSQL',
        );
      running ??= run();
    },
    durable() {
      if (failed) return Promise.reject(failed);
      if (committed >= pushed) return Promise.resolve();
      return new Promise((resolve, reject) => waiters.push({ seq: pushed, resolve, reject }));
    },
    pending: () => queue.length,
    failure: () => failed,
    async close(graceMs) {
      if (queue.length && !failed)
        await Promise.race([this.durable().catch(() => undefined), sleep(graceMs, stop.signal)]);
      stop.abort();
      disconnect(); // a statement in flight on a dead connection ends now, not at its timeout
      await running;
      const left = queue.length;
      disconnect();
      if (!failed) fail(new Error(`state store closed with ${left} batches not replicated to PostgreSQL`));
      return left;
    },
  };
}

/** Connection-level failures (network, server restart, admin shutdown, too many connections) are worth a retry. */
export function retryable(err: Error): boolean {
  if (err instanceof FencedError) return false;
  const code = (err as { code?: unknown }).code;
  // No code: pg's "Connection terminated", its query timeouts, a socket closing.
  if (code === undefined) return true;
  if (typeof code !== 'string') return false;
  if (/^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ECONNRESET, ETIMEDOUT…
  // 08 connection, 53 resources, 57P shutdown, 57014 statement timeout, 40 serialization/deadlock, 55P03 lock
  return /^(08|53|57P|57014|40|55P03)/.test(code);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
