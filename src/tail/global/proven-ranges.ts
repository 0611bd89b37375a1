// Ranges of consensus time the global tail has already read completely, so a sweep may skip them.
//
// The sweep exists because a head read may run past a row that is still hidden. But a head-read page whose
// rows all lie at or below W − overlap, W a row the service had shown before that page was asked for, was
// complete (the skew assumption of docs/tailing.md, "Race safety"): re-reading it proves nothing new. That
// happens when the head read walks a backlog (after a restart, an outage, a poll cut short) with the real head
// probed first; in the steady state no head-read row is that far below the head known before it, and the
// sweep reads everything again (the 2 × floor of docs/tailing.md, "The request floor").
//
// In memory on purpose: forgetting a range only costs a re-read, so a restart (or the cap) is always safe.

/** A half-open range `(after, upTo]` of consensus nanoseconds. */
export interface TimeRange {
  readonly after: bigint;
  readonly upTo: bigint;
}

/** Ranges kept at most; beyond that the oldest is forgotten (and re-read by a sweep). */
const MAX_RANGES = 32;

export class ProvenRanges {
  private ranges: TimeRange[] = [];

  /** Records `(after, upTo]` as completely read and handed over; merges touching ranges. */
  add(after: bigint, upTo: bigint): void {
    if (upTo <= after) return;
    let merged: TimeRange = { after, upTo };
    const kept: TimeRange[] = [];
    for (const r of this.ranges) {
      if (r.upTo < merged.after || r.after > merged.upTo) kept.push(r);
      else merged = { after: min(r.after, merged.after), upTo: max(r.upTo, merged.upTo) };
    }
    kept.push(merged);
    kept.sort((a, b) => (a.after < b.after ? -1 : a.after > b.after ? 1 : 0));
    this.ranges = kept.length > MAX_RANGES ? kept.slice(kept.length - MAX_RANGES) : kept;
  }

  /** The parts of `(after, upTo]` not proven, oldest first: what a sweep still has to read. */
  gaps(after: bigint, upTo: bigint): TimeRange[] {
    const out: TimeRange[] = [];
    let from = after;
    for (const r of this.ranges) {
      if (r.upTo <= from) continue;
      if (r.after >= upTo) break;
      if (r.after > from) out.push({ after: from, upTo: r.after });
      from = r.upTo;
      if (from >= upTo) return out;
    }
    if (from < upTo) out.push({ after: from, upTo });
    return out;
  }

  /** Forgets everything at or below `safe` (the sweep has moved past it). */
  prune(safe: bigint): void {
    this.ranges = this.ranges
      .filter((r) => r.upTo > safe)
      .map((r) => (r.after < safe ? { after: safe, upTo: r.upTo } : r));
  }

  get size(): number {
    return this.ranges.length;
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/**
 * Follows one ascending walk (`gt:after`, then `links.next`) page by page and finds how far from `after` it was
 * complete. Page j covered `(from_j, newest_j]` (the last page of a finished walk: up to its upper bound, or
 * everything); its witness W_j is the newest row shown before it was asked for — the head known when the walk
 * started, or a row of an earlier page of the walk. Every row at or below W_j − overlap was visible when page j
 * was served, so the page is complete up to `min(newest_j, W_j − overlap)`; the walk is proven as far as
 * those stretches join up from `after`.
 */
export class WalkProof {
  private from: bigint;
  private witness: bigint | undefined;
  private lastFrom: bigint;
  private lastWitness: bigint | undefined;
  provenTo: bigint;

  constructor(
    after: bigint,
    witness: bigint | undefined,
    private readonly overlapNs: bigint,
  ) {
    this.from = this.lastFrom = this.provenTo = after;
    this.witness = witness;
  }

  /** A page was handed over; `newest` is the newest trusted row read so far in the walk. */
  page(newest: bigint): void {
    const w = this.witness;
    if (w !== undefined && this.provenTo >= this.from)
      this.provenTo = max(this.provenTo, min(newest, w - this.overlapNs));
    this.lastFrom = this.from;
    this.lastWitness = w;
    this.from = max(this.from, newest);
    this.witness = w === undefined ? newest : max(w, newest);
  }

  /** The walk ended on the service's last page, which covered everything after it up to `upTo` (if any). */
  complete(upTo: bigint | undefined): void {
    const w = this.lastWitness;
    if (w === undefined || this.provenTo < this.lastFrom) return;
    const reach = w - this.overlapNs;
    this.provenTo = max(this.provenTo, upTo !== undefined && upTo < reach ? upTo : reach);
  }
}
