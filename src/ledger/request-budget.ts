// One client-side request budget shared by every caller of the query service: a token bucket (default 50
// requests/s, the public node's per-IP limit) whose waiters are served highest priority first, FIFO within a
// priority. Clock and sleep are injected so tests can drive time. The default clock is monotonic: on the wall clock a
// backward step made the refill negative and every request waited for the size of the step.

export interface RequestBudgetOptions {
  readonly requestsPerSecond?: number;
  /** Tokens that may accumulate while idle; default one second's worth. */
  readonly burst?: number;
  readonly clock?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface AcquireOptions {
  /** Higher goes first when the budget is short; default 0. */
  readonly priority?: number;
  readonly signal?: AbortSignal;
}

export interface RequestBudget {
  /** Resolves when a request may be sent, with the milliseconds waited. Rejects with the abort reason. */
  acquire(options?: AcquireOptions): Promise<number>;
  /** Waiters currently queued. */
  readonly pending: number;
}

interface Waiter {
  readonly priority: number;
  readonly seq: number;
  readonly since: number;
  readonly resolve: (waitedMs: number) => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

export const DEFAULT_REQUESTS_PER_SECOND = 50;

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// One closure owns the bucket state (tokens, queue, pump) so no other code can touch it.
export function createRequestBudget(options: RequestBudgetOptions = {}): RequestBudget {
  const rate = options.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND;
  if (!(rate > 0)) throw new RangeError(`requestsPerSecond must be above 0, got ${rate}`);
  const burst = Math.max(1, options.burst ?? rate);
  const clock = options.clock ?? (() => performance.now());
  const sleep = options.sleep ?? defaultSleep;
  const queue: Waiter[] = [];
  const bucket: Bucket = { tokens: burst, refilledAt: clock() };
  let seq = 0;
  let pumping = false;

  async function pump(): Promise<void> {
    pumping = true;
    try {
      while (queue.length > 0) {
        refill(bucket, burst, rate, clock());
        if (bucket.tokens < 1) {
          await sleep(Math.ceil(((1 - bucket.tokens) * 1000) / rate));
          continue;
        }
        bucket.tokens -= 1;
        const waiter = queue[0] as Waiter;
        remove(queue, waiter);
        waiter.resolve(clock() - waiter.since);
      }
    } finally {
      pumping = false;
    }
  }

  function acquire(opts: AcquireOptions = {}): Promise<number> {
    const { signal, priority = 0 } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        seq: seq++,
        since: clock(),
        resolve,
        reject,
        signal,
        onAbort: () => {
          remove(queue, waiter);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      insert(queue, waiter);
      if (!pumping) void pump();
    });
  }

  return {
    acquire,
    get pending() {
      return queue.length;
    },
  };
}

interface Bucket {
  tokens: number;
  /** When tokens were last added (clock ms). */
  refilledAt: number;
}

/** Adds the tokens earned since the last refill, up to the burst. */
function refill(bucket: Bucket, burst: number, rate: number, now: number): void {
  // A clock that went back (an injected one) earns nothing, and takes nothing either.
  const earned = Math.max(0, ((now - bucket.refilledAt) * rate) / 1000);
  bucket.tokens = Math.min(burst, bucket.tokens + earned);
  bucket.refilledAt = now;
}

function remove(queue: Waiter[], waiter: Waiter): void {
  const at = queue.indexOf(waiter);
  if (at >= 0) queue.splice(at, 1);
  waiter.signal?.removeEventListener('abort', waiter.onAbort);
}

/** Keeps the queue sorted: higher priority first, then arrival order. */
function insert(queue: Waiter[], waiter: Waiter): void {
  let at = queue.length;
  while (at > 0 && (queue[at - 1] as Waiter).priority < waiter.priority) at--;
  queue.splice(at, 0, waiter);
}
