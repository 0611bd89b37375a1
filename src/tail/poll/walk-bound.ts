// The bound on one poll's walk through `links.next`: a service answering every page with a new link (or a
// backlog far larger than one interval) must not keep a poll going forever. A poll stops after
// tail.max_pages_per_poll pages or tail.max_poll_duration, keeps what it handed over and resumes next poll.
import type { TailContext, WalkLimits } from './poll-context.js';

export type TruncateReason = 'pages' | 'time';

export interface WalkBound {
  /** Counts a handled page; the reason to stop here, or undefined to read on. */
  pageHandled(): TruncateReason | undefined;
  /**
   * Whether a page after the one being handled now may still be handled: false on the last page the count
   * allows or once the time is up, so a read-ahead (read-ahead.ts) asks for nothing past the bound.
   */
  mayReadOn(): boolean;
  readonly pages: number;
}

/** A bound starting now; without limits (a TailContext built by a test) nothing is bounded. */
export function createWalkBound(limits: WalkLimits | undefined): WalkBound {
  const started = limits?.clock() ?? 0;
  let pages = 0;
  return {
    pageHandled() {
      pages += 1;
      if (limits === undefined) return undefined;
      if (pages >= limits.maxPages) return 'pages';
      return timeUp(limits, started) ? 'time' : undefined;
    },
    mayReadOn() {
      if (limits === undefined) return true;
      return pages + 1 < limits.maxPages && !timeUp(limits, started);
    },
    get pages() {
      return pages;
    },
  };
}

function timeUp(limits: WalkLimits, started: number): boolean {
  const elapsed = limits.clock() - started;
  return elapsed < 0 || elapsed >= limits.maxDurationMs;
}

/** The log line and the metric of a poll that stopped at its bound. */
export function reportTruncated(ctx: TailContext, stream: string, reason: TruncateReason, pages: number) {
  ctx.metrics?.pollTruncated.inc({ reason });
  ctx.log?.warn(
    { stream, reason, pages },
    'poll stopped at its bound before the end of the listing; progress kept, the next poll resumes',
  );
}
