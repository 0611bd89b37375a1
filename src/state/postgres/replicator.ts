// Ordered replication of the working set's batches into PostgreSQL over one connection. Batches wait in memory
// in commit order; the head of the queue (several batches merged, up to a row budget) is applied in one
// PostgreSQL transaction. A connection failure retries the same batches with backoff (idempotent by key); a
// fencing refusal or a data error stops replication for good and rejects every waiter.
import type { Client } from 'pg';
import type { Logger } from 'pino';
import { applyBatch } from './apply-batch.js';
import { type Batch, batchRows, mergeBatches } from './batch.js';
import { FencedError } from '../fenced-error.js';
import { CommitsLostError } from './commits-lost-error.js';

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
  /** Stops shipping at once: queued batches are dropped and every waiter rejects with `reason`. */
  abandon(reason: Error): void;
  /** Resolves when every batch pushed so far is committed in PostgreSQL. */
  durable(): Promise<void>;
  /** Batches waiting. */
  pending(): number;
  /** Why replication stopped (FencedError or a data error), or undefined. */
  failure(): Error | undefined;
  /** While retrying (the database unreachable, out of disk…): what fails and since when, or undefined. */
  failing(): string | undefined;
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

/** The replicator's state, shared by the steps below: the queue, the waiters and the one connection. */
interface ReplicatorState {
  readonly options: ReplicatorOptions;
  readonly queue: Batch[];
  readonly waiters: Waiter[];
  readonly stop: AbortController;
  readonly mergeRows: number;
  readonly backoff: { readonly initialMs: number; readonly maxMs: number };
  /** Sequence number of the last batch pushed, and of the last one committed in PostgreSQL. */
  pushed: number;
  committed: number;
  /**
   * PostgreSQL transactions this replicator saw commit under `token` (each audited: CommitsLostError). Counted per
   * token: a batch committed with no lease row yet, or under an earlier token, is no part of the current count.
   */
  transactions: number;
  token: bigint | undefined;
  failed: Error | undefined;
  client: Client | undefined;
  running: Promise<void> | undefined;
  /** The retry episode under way: logged once when it starts and when its reason changes, and when it ends. */
  episode: Episode | undefined;
}

interface Episode {
  readonly since: number;
  kind: string;
  reason: string;
  retries: number;
}

export function createReplicator(options: ReplicatorOptions): Replicator {
  const r: ReplicatorState = {
    options,
    queue: [],
    waiters: [],
    stop: new AbortController(),
    mergeRows: options.mergeRows ?? 5_000,
    backoff: options.backoff ?? { initialMs: 100, maxMs: 5_000 },
    pushed: 0,
    committed: 0,
    transactions: 0,
    token: undefined,
    failed: undefined,
    client: undefined,
    running: undefined,
    episode: undefined,
  };
  const durable = (): Promise<void> => {
    if (r.failed) return Promise.reject(r.failed);
    if (r.committed >= r.pushed) return Promise.resolve();
    return new Promise((resolve, reject) => r.waiters.push({ seq: r.pushed, resolve, reject }));
  };
  return {
    push: (batch) => push(r, batch),
    abandon: (reason) => {
      if (!r.failed) fail(r, reason);
      r.stop.abort();
      disconnect(r);
    },
    durable,
    pending: () => r.queue.length,
    failure: () => r.failed,
    failing: () => describeEpisode(r.episode),
    close: (graceMs) => close(r, graceMs, durable),
  };
}

function push(r: ReplicatorState, batch: Batch): void {
  if (r.failed) throw r.failed;
  batch.seq = ++r.pushed;
  r.queue.push(batch);
  // Callers that write in a loop await durable() (the pipeline, the delivery worker), so a long queue means
  // PostgreSQL is unreachable or slow: said once per crossing.
  if (r.queue.length === WARN_PENDING)
    r.options.log.warn(
      { pending: r.queue.length },
      'state replication is behind: transactions wait for PostgreSQL',
    );
  r.running ??= run(r);
}

async function close(r: ReplicatorState, graceMs: number, durable: () => Promise<void>): Promise<number> {
  if (r.queue.length && !r.failed)
    await Promise.race([durable().catch(() => undefined), sleep(graceMs, r.stop.signal)]);
  r.stop.abort();
  disconnect(r); // a statement in flight on a dead connection ends now, not at its timeout
  await r.running;
  const left = r.queue.length;
  disconnect(r);
  if (!r.failed) fail(r, new Error(`state store closed with ${left} batches not replicated to PostgreSQL`));
  return left;
}

function settle(r: ReplicatorState): void {
  // In push order, so that waiters resolve in commit order.
  const waiting = r.waiters.splice(0);
  for (const w of waiting) {
    if (r.failed) w.reject(r.failed);
    else if (w.seq <= r.committed) w.resolve();
    else r.waiters.push(w);
  }
}

function fail(r: ReplicatorState, err: Error): void {
  r.failed = err;
  r.queue.length = 0;
  settle(r);
}

/** Applies the head of the queue (merged up to mergeRows); returns the next attempt number (0 after success). */
async function step(r: ReplicatorState, attempt: number): Promise<number> {
  const { queue, options } = r;
  let n = 0;
  let rows = 0;
  while (n < queue.length && (n === 0 || rows + batchRows(queue[n]!) <= r.mergeRows))
    rows += batchRows(queue[n++]!);
  const group = queue.slice(0, n);
  let audited: bigint | undefined;
  try {
    r.client ??= await options.connect();
    const batch = group.length === 1 ? group[0]! : mergeBatches(group);
    audited = await applyBatch(r.client, batch, options.fence, (token) =>
      token === r.token ? r.transactions : 0,
    );
  } catch (err) {
    if (!(err instanceof Error) || !retryable(err)) throw err;
    // Abandoned or closed: the statement failed because its connection was cut on purpose, nothing to retry.
    if (r.stop.signal.aborted) return attempt;
    const wait = Math.min(r.backoff.maxMs, r.backoff.initialMs * 2 ** Math.min(attempt, 16));
    noteFailure(r, err, wait);
    options.onRetry?.(queue.length);
    disconnect(r);
    await sleep(wait, r.stop.signal);
    return attempt + 1;
  }
  queue.splice(0, n);
  if (audited !== undefined) {
    r.transactions = audited === r.token ? r.transactions + 1 : 1;
    r.token = audited;
  }
  noteSuccess(r);
  r.committed = group.at(-1)!.seq;
  options.onApplied?.(n, rows, queue.length);
  settle(r);
  return 0;
}

async function run(r: ReplicatorState): Promise<void> {
  let attempt = 0;
  try {
    while (r.queue.length && !r.failed && !r.stop.signal.aborted) attempt = await step(r, attempt);
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    if (error instanceof FencedError)
      r.options.log.error({ err: error }, 'state write fenced: a newer leader holds the lease');
    else r.options.log.error({ err: error }, 'state replication stopped');
    fail(r, error);
  } finally {
    r.running = undefined;
  }
}

/**
 * A failed attempt that will be retried. The first of an episode, and each change of reason, is a warning that
 * says what to do; the retries in between are debug lines (a database down for an hour retries every 5 s).
 */
function noteFailure(r: ReplicatorState, err: Error, retryInMs: number): void {
  const reason = failureReason(err);
  const kind = failureKind(err);
  const changed = r.episode?.kind !== kind;
  r.episode ??= { since: performance.now(), kind, reason, retries: 0 };
  r.episode.kind = kind;
  r.episode.reason = reason;
  r.episode.retries += 1;
  const fields = { err, reason, retries: r.episode.retries, retryInMs, pending: r.queue.length };
  if (changed)
    r.options.log.warn(
      fields,
      `state replication failing, retrying until it succeeds: ${reason}; nothing is sent, and no cursor is ` +
        'stored, before its state is in PostgreSQL',
    );
  else r.options.log.debug(fields, 'state replication failed again, retrying');
}

function noteSuccess(r: ReplicatorState): void {
  if (!r.episode) return;
  const { since, retries } = r.episode;
  r.episode = undefined;
  r.options.log.info(
    { retries, failedForMs: Math.round(performance.now() - since), pending: r.queue.length },
    'state replication resumed: the held transactions are reaching PostgreSQL again',
  );
}

function describeEpisode(e: Episode | undefined): string | undefined {
  if (!e) return undefined;
  const s = Math.round((performance.now() - e.since) / 1000);
  return `state replication to PostgreSQL failing for ${s} s (${e.retries} retries): ${e.reason}`;
}

/** What kind of failure: a change of kind is logged again, a new message of the same kind is not. */
function failureKind(err: Error): string {
  const code = (err as { code?: unknown }).code;
  const c = typeof code === 'string' ? code : '';
  if (c === '53100') return 'disk';
  if (c.startsWith('53')) return 'resource';
  if (c.startsWith('57P') || c.startsWith('08') || /^E[A-Z]+$/.test(c) || c === '') return 'unreachable';
  return c;
}

/** What failed, by SQLSTATE class, with what the operator can do about it. */
export function failureReason(err: Error): string {
  const code = (err as { code?: unknown }).code;
  const c = typeof code === 'string' && code ? code : 'connection';
  const kind = failureKind(err);
  if (kind === 'disk')
    return `PostgreSQL is out of disk space (${c} disk_full: ${err.message}); free space on the database server`;
  if (kind === 'resource') return `PostgreSQL is out of a resource (${c}: ${err.message})`;
  if (kind === 'unreachable') return `PostgreSQL is unreachable or restarting (${c}: ${err.message})`;
  return `${c}: ${err.message}`;
}

function disconnect(r: ReplicatorState): void {
  const c = r.client;
  r.client = undefined;
  void c?.end().catch(() => undefined);
  // end() waits for the server's goodbye, which a cut network never sends: the socket goes too, so that a
  // statement in flight fails now instead of at its timeout (a leader that lost its lease stops at once).
  (c as { connection?: { stream?: { destroy(): void } } } | undefined)?.connection?.stream?.destroy();
}

/** Connection-level failures (network, server restart, admin shutdown, too many connections) are worth a retry. */
export function retryable(err: Error): boolean {
  if (err instanceof FencedError || err instanceof CommitsLostError) return false;
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
