// The newest visible transaction: the head the per-account polls settle against, the query-service lag, and a
// sample of the ledger's rate for the strategy choice.
//
// Under the 60-day range binding (docs/ledger-api.md §11.5, on for the public mainnet) a descending query whose range is
// wider than 60 days only looks at the newest 60 days and, when that holds no row, answers an EMPTY page whose
// `next` steps back another 60 days (all the way to the epoch from `gt:0`). So the first probe asks for the last
// day first (inside the binding, one request), and only when that is empty walks back from `gt:0` through at
// most PROBE_MAX_PAGES pages; that deep search is done once, not every round of a ledger that shows nothing.
//
// The probe asks only up to now + tail.max_clock_skew (`lte:`): newest first, one record dated in 2100 would
// otherwise be the first row of every probe, and the real head would never be seen again. Within that, a row
// dated ahead of this host's clock is not the head either (head-tracker.ts): the newest row the clock has passed
// is, whatever order the page came in.
import { formatTimestamp, parseTimestamp, type Timestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { HEAD_PRIORITY, type TailContext } from '../poll/poll-context.js';

/** How far back the first, cheap look goes. */
export const PROBE_RECENT_NS = 86_400n * 1_000_000_000n;
/** Pages one probe follows through empty ones: under binding, 4 pages reach 240 days back. */
export const PROBE_MAX_PAGES = 4;

/**
 * Where the first probe's cheap look begins. When a probe leaves the head unknown, the service showed no row
 * after this point: `start: now` begins here, so every row that shows up later is read (none is lost to lag).
 */
export function recentFrom(nowNs: Timestamp): Timestamp {
  return nowNs > PROBE_RECENT_NS ? nowNs - PROBE_RECENT_NS : 0n;
}

/** Resolves with the number of pages (requests) it read. */
export async function probeHead(ctx: TailContext, signal: AbortSignal, nowNs: Timestamp): Promise<number> {
  const before = ctx.head.head;
  if (before !== undefined) return (await probeAfter(ctx, before, signal)).pages;
  const recent = await probeAfter(ctx, recentFrom(nowNs), signal);
  if (recent.found || ctx.head.searchedDeep) return recent.pages;
  const deep = await probeAfter(ctx, 0n, signal);
  ctx.head.searchedDeep = true;
  return recent.pages + deep.pages;
}

/** Newest first after `after`, following `next` through empty pages until a row shows up (bounded). */
async function probeAfter(
  ctx: TailContext,
  after: Timestamp,
  signal: AbortSignal,
): Promise<{ found: boolean; pages: number }> {
  const before = ctx.head.head;
  const bound = ctx.future.bound();
  const pages = ctx.source.transactions(
    { after: formatTimestamp(after), upTo: formatTimestamp(bound), order: 'desc', limit: ctx.pageLimit },
    { signal, priority: HEAD_PRIORITY },
  );
  let read = 0;
  for await (const page of pages) {
    read += 1;
    const span = trustedSpan(ctx, page.records, bound);
    if (span) {
      // A full page spans its own rows; a short one is every row since the previous head.
      if (span.rows >= ctx.pageLimit || before === undefined)
        ctx.head.sampleRate(span.rows, span.oldest, span.newest);
      else ctx.head.sampleRate(span.rows + 1, before, span.newest);
      return { found: true, pages: read };
    }
    if (read >= PROBE_MAX_PAGES) break;
  }
  return { found: false, pages: read };
}

interface Span {
  readonly rows: number;
  readonly oldest: Timestamp;
  readonly newest: Timestamp;
}

/**
 * Offers every row of the page to the head (which takes the newest one the clock has passed and reports those
 * ahead of it); the span of the rows it may take, or undefined when there are none. A service that ignores
 * `lte:` still does not move the head past the bound.
 */
function trustedSpan(
  ctx: TailContext,
  records: readonly { consensus_timestamp: string }[],
  bound: Timestamp,
) {
  let span: Span | undefined;
  for (const r of records) {
    const ts = parseTimestamp(r.consensus_timestamp);
    if (ts > bound || !ctx.head.observe(ts)) continue;
    span = span
      ? {
          rows: span.rows + 1,
          oldest: ts < span.oldest ? ts : span.oldest,
          newest: ts > span.newest ? ts : span.newest,
        }
      : { rows: 1, oldest: ts, newest: ts };
  }
  return span;
}
