// One page of read-ahead for a walk through `links.next`. A walk done strictly one page after another spends
// request latency + processing + commit per page, so its pages/s is bounded by their sum; with the request for
// page N+1 in flight while page N is evaluated and committed, the request latency overlaps the rest
// (docs/performance.md §6). What stays as it was: pages are still handed over one at a time in the service's
// order, an error of page N+1 (HTTP, parse, link loop) surfaces when the walk asks for page N+1, after page N
// was committed, and the walk's bound is the caller's as before.
//
// Bounded: at most one request ahead of the consumer. The read-ahead runs under its own AbortSignal, linked to
// the poll's: it is cancelled with the poll, and when the walk stops early (its bound, an error, a break) the
// page in flight is cancelled and dropped unprocessed, so nothing it read moves a cursor or is handed over.

/** The walk asks for page N+1 only when this says the bound leaves room for it after page N. */
export type MayReadOn = () => boolean;

/** Thrown into the read-ahead request when the walk stopped before consuming its page. */
class WalkStopped extends Error {
  constructor() {
    super('the walk stopped before this page was needed; the read-ahead request was cancelled');
    this.name = 'WalkStopped';
  }
}

/**
 * The pages of `open(signal)` in order, with the next one requested as soon as the current one is yielded
 * (when `mayReadOn()` allows it: the walk's last permitted page asks for nothing beyond it).
 */
export async function* readAhead<T>(
  open: (signal: AbortSignal) => AsyncIterable<T>,
  signal: AbortSignal,
  mayReadOn: MayReadOn,
): AsyncGenerator<T, void, undefined> {
  const own = new AbortController();
  const forward = () => own.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  const pages = open(own.signal)[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | undefined = pages.next();
  try {
    for (;;) {
      const current: IteratorResult<T> = await (pending ?? pages.next());
      pending = undefined;
      if (current.done) return;
      if (mayReadOn()) {
        pending = pages.next();
        // Its failure belongs to the moment the walk asks for that page (or to nobody if it never does).
        pending.catch(() => undefined);
      }
      yield current.value;
    }
  } finally {
    signal.removeEventListener('abort', forward);
    if (pending !== undefined) {
      own.abort(new WalkStopped());
      // Bounded: the request, the budget wait and the retry sleeps all end on the abort.
      await pending.catch(() => undefined);
    }
    await pages.return?.();
  }
}
